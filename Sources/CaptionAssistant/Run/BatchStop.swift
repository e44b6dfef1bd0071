import Foundation

/// A request to stop a batch early, shared between whoever asks (a signal
/// handler, a test) and the batch runner, which stops taking new files, ends
/// the model requests in flight at once, lets the other files in flight
/// finish, and reports the rest as not processed.
public final class BatchStop: @unchecked Sendable {
    private let lock = NSLock()
    private var signalNumber: Int32?
    private var requests = 0
    private var onFirstRequest: [@Sendable () -> Void] = []

    /// Creates a stop that has not been asked for.
    public init() {}

    /// Asks the batch to stop, because of `signal` (0 when no signal is
    /// involved). Returns how many times a stop has now been asked for.
    @discardableResult
    public func request(signal: Int32) -> Int {
        let (count, actions): (Int, [@Sendable () -> Void]) = lock.withLock {
            if signalNumber == nil { signalNumber = signal }
            requests += 1
            defer { onFirstRequest = [] }
            return (requests, onFirstRequest)
        }
        for action in actions { action() }
        return count
    }

    /// Calls `action` once, at the first request (at once, on this thread,
    /// when one came already), on the thread that asks, outside the lock.
    func whenRequested(_ action: @escaping @Sendable () -> Void) {
        let now: Bool = lock.withLock {
            if requests > 0 { return true }
            onFirstRequest.append(action)
            return false
        }
        if now { action() }
    }

    /// Whether a stop has been asked for.
    public var isRequested: Bool { lock.withLock { requests > 0 } }

    /// The signal of the first request (0 for a request without one), or nil when none came.
    public var signal: Int32? { lock.withLock { signalNumber } }
}
