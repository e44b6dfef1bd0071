/// How one suggested action ended: applied with its value, or failed with the reason.
public enum ActionOutcome<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The value passed validation and may be used.
    case applied(Value)
    /// The action cannot be used; the message says why, in words for a report.
    case failed(String)

    /// The validated value, or nil if the action failed.
    public var value: Value? {
        if case .applied(let value) = self { return value }
        return nil
    }

    /// The failure message, or nil if the action was applied.
    public var failureMessage: String? {
        if case .failed(let message) = self { return message }
        return nil
    }
}
