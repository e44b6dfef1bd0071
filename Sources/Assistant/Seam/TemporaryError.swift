/// An error that can say whether trying again later may succeed.
///
/// The service retries errors whose `isTemporary` is true (a model still
/// loading, HTTP 429 or 503, a timeout, a dropped connection) a bounded number
/// of times with backoff; every other error fails the file's actions at once.
public protocol TemporaryError: Error {
    /// Whether the same request may succeed if sent again later.
    var isTemporary: Bool { get }
    /// How long the other side asked to be left alone before another try
    /// (HTTP `Retry-After`); nil when it did not say.
    var retryAfter: Duration? { get }
}

extension TemporaryError {
    /// No wait asked for.
    public var retryAfter: Duration? { nil }
}
