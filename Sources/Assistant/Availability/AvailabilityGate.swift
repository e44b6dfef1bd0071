/// Asks a provider whether the model may be called, and can wait, bounded, for a model that is getting ready.
///
/// Availability is never notified, so the gate reads it afresh on every call;
/// nothing is cached. Only `modelNotReady` is worth waiting for: every other
/// reason is returned at once. `modelNotReady` can also last forever (a region
/// or language setting can rule the model out), so every wait has a deadline.
public struct AvailabilityGate: Sendable {
    /// Where the current availability is read.
    public let provider: any AvailabilityProvider
    /// The clock used to sleep between checks and to measure the deadline.
    public let clock: any WaitClock
    /// The pause before the second check.
    public var initialInterval: Duration
    /// How much longer each pause is than the one before it.
    public var backoff: Double
    /// The longest pause between two checks.
    public var maximumInterval: Duration

    /// Creates a gate that checks gently: 1 s apart at first, then ×1.5 up to 10 s.
    public init(
        provider: any AvailabilityProvider,
        clock: any WaitClock = SystemWaitClock(),
        initialInterval: Duration = .seconds(1),
        backoff: Double = 1.5,
        maximumInterval: Duration = .seconds(10)
    ) {
        self.provider = provider
        self.clock = clock
        self.initialInterval = initialInterval
        self.backoff = backoff
        self.maximumInterval = maximumInterval
    }

    /// Reads the availability now (one fresh question to the provider).
    public func check() async -> Availability {
        await provider.currentAvailability()
    }

    /// Checks now and, while the model is `modelNotReady`, checks again with growing pauses until it is ready or `timeout` has passed.
    ///
    /// Returns the last availability read. With a zero or negative timeout this
    /// is exactly one check. Cancellation ends the wait early with the last state.
    public func waitUntilAvailable(timeout: Duration) async -> Availability {
        let deadline = clock.now() + timeout
        var state = await check()
        var interval = max(initialInterval, .milliseconds(1))
        while state == .unavailable(.modelNotReady) {
            let remaining = deadline - clock.now()
            guard remaining > .zero else { break }
            do {
                try await clock.sleep(for: min(interval, remaining))
            } catch {
                break
            }
            state = await check()
            interval = min(interval * max(backoff, 1), maximumInterval)
        }
        return state
    }
}
