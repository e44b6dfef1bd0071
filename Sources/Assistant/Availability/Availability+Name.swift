/// Names for availability states, for reports and `--simulate-availability`.
extension Availability {
    /// `"available"` or `"unavailable"`, as written in reports.
    public var name: String { isAvailable ? "available" : "unavailable" }

    /// The reason the model is unavailable, or nil when it is available.
    public var reason: UnavailableReason? {
        if case .unavailable(let reason) = self { return reason }
        return nil
    }

    /// Parses `available` or a reason's name (`modelNotReady`, `unknown:message`, …) as given to `--simulate-availability`.
    public init?(name: String) {
        if name == "available" {
            self = .available
        } else if let reason = UnavailableReason(name: name) {
            self = .unavailable(reason)
        } else {
            return nil
        }
    }
}
