/// How long an unavailability is likely to last, which decides what the person is told.
public enum Permanence: String, Sendable, Hashable, CaseIterable {
    /// It will not change on this device or build: offer the fallback, not a spinner.
    case permanent
    /// The person can fix it (a setting, a server to start, a model to load).
    case userFixable
    /// It usually sorts itself out (a download in progress): wait and check again.
    case temporary
}
