/// Time and sleeping, injectable so waits and retries can be tested without real seconds.
public protocol WaitClock: Sendable {
    /// Time elapsed since a fixed starting point of this clock.
    func now() -> Duration
    /// Sleeps for `duration`; throws `CancellationError` if the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real clock: monotonic time and `Task.sleep`.
public struct SystemWaitClock: WaitClock {
    private let start = ContinuousClock.now

    /// Creates a clock whose `now()` counts from this moment.
    public init() {}

    /// Time since this clock was created.
    public func now() -> Duration { ContinuousClock.now - start }

    /// Sleeps with `Task.sleep`.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
