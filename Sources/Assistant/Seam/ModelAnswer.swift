/// A model's raw answer with what it cost, when the backend can say.
public struct ModelAnswer: Sendable, Hashable {
    /// The answer text, untrusted.
    public var text: String
    /// How many requests the backend made for it (the HTTP backend's `auto`
    /// fallback from `json_schema` to `json_object` makes two).
    public var requests: Int
    /// Prompt tokens, when the server reported usage.
    public var promptTokens: Int?
    /// Completion tokens, when the server reported usage.
    public var completionTokens: Int?

    /// Creates an answer.
    public init(text: String, requests: Int = 1, promptTokens: Int? = nil, completionTokens: Int? = nil) {
        self.text = text
        self.requests = requests
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
    }
}

/// What the model calls for one file cost: requests, tokens (when reported) and time.
public struct ModelCost: Sendable, Hashable {
    /// Requests sent (answered or not).
    public var requests = 0
    /// Prompt tokens over the answers whose usage was reported; nil when none was.
    public var promptTokens: Int?
    /// Completion tokens over the answers whose usage was reported; nil when none was.
    public var completionTokens: Int?
    /// Seconds spent in model calls and pauses between them.
    public var seconds: Double = 0

    /// No requests yet.
    public init() {}

    /// Counts an answer in.
    mutating func add(_ answer: ModelAnswer) {
        requests += answer.requests
        if let p = answer.promptTokens { promptTokens = (promptTokens ?? 0) + p }
        if let c = answer.completionTokens { completionTokens = (completionTokens ?? 0) + c }
    }
}
