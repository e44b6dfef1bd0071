import Foundation
import Testing

/// A trait for tests that hold their thread: waiting for a child process
/// (`waitUntilExit`, a blocking read), polling with `usleep`, waiting on a
/// condition, or seconds of synchronous work (reading a 50 MB file). Such a
/// test runs on threads of its own instead of on Swift's cooperative pool.
///
/// All tests share one process, and the cooperative pool has one thread per
/// core (two on a small CI machine). Swift Testing starts every test at once;
/// a synchronous test holds a pool thread for as long as it runs, and an
/// async test whose model answered, or whose timer fired, waits in the pool's
/// queue behind them. On a loaded two-core machine a 10 ms sleep woke up to
/// 55 s late, and tests of time limits failed on timers that had fired in
/// time. With this trait, the test runs on the threads of its module's
/// `BlockingTestExecutor`, so what it holds back is other such tests only.
///
/// Put it on a suite (`@Suite(.mayBlock)`): it applies to every test in it.
public struct MayBlockTrait: SuiteTrait, TestTrait, TestScoping {
    /// The trait applies to every test of a suite it is put on.
    public var isRecursive: Bool { true }

    /// Scopes each test case (not the suite as a whole).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case with its module's `BlockingTestExecutor` as its task executor.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            try await withTaskExecutorPreference(BlockingTestExecutor.forModule(test.id.moduleName)) { try await function() }
        } else {
            try await function()
        }
    }
}

extension Trait where Self == MayBlockTrait {
    /// The tests may block their thread: run them off Swift's cooperative pool (see `MayBlockTrait`).
    public static var mayBlock: Self { Self() }
}

/// A task executor for tests that block: its own threads, as many as the
/// machine has cores, each running one job at a time in the order they came.
///
/// Bounded like the cooperative pool it replaces for these tests, so no more
/// executables run at once than before, but separate from it: a test blocked
/// here holds back other blocking tests only, never an async test's timer.
/// Each test module has its own (`forModule`), so the long read of a unit
/// test does not queue behind every end-to-end test (a `.timeLimit` counts
/// the time a test waits here). A job here may block on anything outside the
/// executor (a child process, a file, a sleep); it must not wait for another
/// job of this executor.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
    private static let registry = NSLock()
    nonisolated(unsafe) private static var executors: [String: BlockingTestExecutor] = [:]

    /// The executor of the test module `name`, made on first use.
    public static func forModule(_ name: String) -> BlockingTestExecutor {
        registry.withLock {
            if let executor = executors[name] { return executor }
            let executor = BlockingTestExecutor(width: max(2, ProcessInfo.processInfo.activeProcessorCount))
            executors[name] = executor
            return executor
        }
    }

    /// The key this executor's threads set in their `threadDictionary`.
    private static let marker = "BlockingTestExecutor"

    /// Whether the caller runs on one of this executor's threads (the tests
    /// of `.mayBlock` check with it; `Thread.name` is not reliable on Linux).
    public static var isCurrentThreadOneOfItsOwn: Bool {
        Thread.current.threadDictionary[marker] as? Bool == true
    }

    private let width: Int
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var next = 0
    private var threads = 0
    private var idle = 0

    private init(width: Int) { self.width = width }

    /// Queues `job`; starts a thread when more jobs wait than threads are
    /// idle and fewer than `width` threads exist.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        defer { condition.unlock() }
        queue.append(job)
        if queue.count - next > idle && threads < width {
            threads += 1
            let thread = Thread { [self] in work() }
            thread.start()
        }
        condition.signal()
    }

    /// A thread's life: run queued jobs one after another, forever.
    private func work() {
        Thread.current.threadDictionary[Self.marker] = true
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while next == queue.count {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = queue[next]
            next += 1
            if next == queue.count { queue.removeAll(keepingCapacity: true); next = 0 }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
