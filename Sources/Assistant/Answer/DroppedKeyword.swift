/// A keyword the model suggested that validation threw away, and why.
public struct DroppedKeyword: Sendable, Hashable {
    /// The keyword as the model wrote it (trimmed).
    public let keyword: String
    /// Why it was dropped, e.g. "not in the transcript".
    public let reason: String

    /// Creates a record of a dropped keyword.
    public init(keyword: String, reason: String) {
        self.keyword = keyword
        self.reason = reason
    }
}
