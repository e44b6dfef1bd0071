import Foundation
@testable import Assistant

/// A clock for tests: sleeping returns at once and moves time forward by the amount slept.
final class ManualWaitClock: WaitClock, @unchecked Sendable {
    private let lock = NSLock()
    private var elapsed: Duration = .zero
    private var slept: [Duration] = []

    /// Every pause asked for, in order.
    var sleeps: [Duration] { lock.withLock { slept } }

    func now() -> Duration { lock.withLock { elapsed } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        lock.withLock {
            slept.append(duration)
            elapsed += duration
        }
    }
}
