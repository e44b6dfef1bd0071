import Foundation

/// Time limits for model calls, kept by one thread for the whole process.
///
/// A model call's limit used to be a task that slept for the timeout and
/// was cancelled when the answer came first: a task to create, a timer to
/// arm in the dispatch manager and a thread to wake for every call. Here
/// arming a limit takes a lock and a push onto a heap. The thread sleeps until
/// the earliest limit and wakes early only when a new limit is earlier still
/// (with one timeout for all calls, it never is). A limit cancelled before it
/// is reached is forgotten at once; its heap slot is dropped when it comes to
/// the top, or sooner when cancelled slots outnumber live ones, so the heap
/// never holds more than twice the calls in flight.
final class Deadlines: @unchecked Sendable {
    /// The process's one instance (its thread starts on first use).
    static let shared = Deadlines()

    private let condition = NSCondition()
    /// A min-heap of (deadline, id); ids whose action is gone were cancelled.
    private var heap: [(deadline: ContinuousClock.Instant, id: UInt64)] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 0
    private var started = false

    /// Runs `action` on the limits' thread after `delay`, unless `cancel` is
    /// called first with the id returned. `action` must be quick (it should
    /// only resume or cancel something).
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = ContinuousClock.now.advanced(by: delay)
        condition.lock()
        defer { condition.unlock() }
        if !started {
            started = true
            let thread = Thread { [unowned self] in self.loop() }
            thread.name = "caption-assistant deadlines"
            thread.start()
        }
        nextID &+= 1
        let id = nextID
        actions[id] = action
        push((deadline, id))
        if heap.first?.id == id { condition.signal() }  // the new earliest: the thread must wake sooner
        return id
    }

    /// Heap slots held, live or cancelled (for tests).
    var waitingSlots: Int { condition.lock(); defer { condition.unlock() }; return heap.count }

    /// Forgets the limit `id` (nothing happens if it already fired).
    func cancel(_ id: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        guard actions.removeValue(forKey: id) != nil else { return }
        if heap.count > 64 && heap.count > 2 * actions.count {
            heap.removeAll { actions[$0.id] == nil }
            heap.sort { $0.deadline < $1.deadline }  // a sorted array is a valid min-heap
        }
    }

    private func loop() {
        condition.lock()
        while true {
            while let top = heap.first, actions[top.id] == nil { pop() }
            guard let top = heap.first else {
                condition.wait()
                continue
            }
            let now = ContinuousClock.now
            if top.deadline <= now {
                pop()
                let action = actions.removeValue(forKey: top.id)
                condition.unlock()
                action?()
                condition.lock()
                continue
            }
            let left = now.duration(to: top.deadline).components
            let seconds = Double(left.seconds) + Double(left.attoseconds) * 1e-18
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
    }

    private func push(_ entry: (deadline: ContinuousClock.Instant, id: UInt64)) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() {
        guard !heap.isEmpty else { return }
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
