/// Something that can say, right now, whether its model is available.
///
/// Availability is never notified: the pipeline asks again before each file.
/// Tests and `--simulate-availability` use a provider that returns a forced state.
public protocol AvailabilityProvider: Sendable {
    /// Reads the current availability (it may change between calls).
    func currentAvailability() async -> Availability
}

/// A provider that always answers the same state.
public struct FixedAvailability: AvailabilityProvider {
    /// The state this provider reports.
    public let availability: Availability
    /// Creates a provider that always reports `availability`.
    public init(_ availability: Availability) { self.availability = availability }
    /// Always `availability`.
    public func currentAvailability() async -> Availability { availability }
}
