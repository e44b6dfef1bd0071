/// Everything one request for suggestions produced, for the report.
public struct AssistantResult: Sendable, Hashable {
    /// The backend's name (`"fake"`, `"foundationModels"`, `"http"`, …).
    public let backend: String
    /// The availability read before the call; when unavailable, the model was not called.
    public let availability: Availability
    /// The transcript's full length in `Character`s; 0 when the model was
    /// unavailable (no transcript is made when there is nobody to send it to).
    public let characters: Int
    /// How many `Character`s were sent; 0 when the model was unavailable.
    public let sentCharacters: Int
    /// Whether the transcript was cut to the cap.
    public let truncated: Bool
    /// How many times the model was called.
    public let attempts: Int
    /// The real text of the last error, if the model failed; nil otherwise.
    public let error: String?
    /// The validated actions; nil when the model was unavailable (the actions are then disabled).
    public let suggestions: Suggestions?
    /// What the model calls cost (requests, tokens when reported, seconds); zero requests when none was made.
    public var cost = ModelCost()
    /// Whether the task was cancelled (the batch was stopped) before the
    /// model's answer was complete: then nothing here may be used, and the
    /// file is to be done again by a later run.
    public var interrupted = false

    /// Creates a result.
    public init(backend: String, availability: Availability, characters: Int, sentCharacters: Int, truncated: Bool, attempts: Int, error: String?, suggestions: Suggestions?) {
        self.backend = backend
        self.availability = availability
        self.characters = characters
        self.sentCharacters = sentCharacters
        self.truncated = truncated
        self.attempts = attempts
        self.error = error
        self.suggestions = suggestions
    }

    /// What to tell the person when the model was unavailable; nil when it was available.
    public func diagnostics(context: DiagnosticsContext = DiagnosticsContext()) -> Diagnostics? {
        availability.reason.map { Diagnostics($0, context: context) }
    }
}
