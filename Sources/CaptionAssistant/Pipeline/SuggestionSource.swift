import Assistant

/// What the pipeline asks of the assistant, once per file: re-read the
/// availability, and when the model may be called, send the capped transcript
/// and validate the answer.
///
/// `AssistantService` is the real one; tests may give their own.
public protocol SuggestionSource: Sendable {
    /// Suggestions for the transcript (cue texts without markup) that
    /// `transcript` makes, or why there are none. `transcript` is called only
    /// when the model may be called, so a run without a model makes no text.
    func suggest(transcript: () -> String) async -> AssistantResult
}

extension AssistantService: SuggestionSource {}

/// How much of the transcript the model was sent, as the report writes it
/// (nil in the report when the model was unavailable: no transcript was made).
public struct TranscriptStats: Sendable, Equatable {
    /// The transcript's length in Swift `Character`s.
    public var characters: Int
    /// How many of them were sent, after the cap.
    public var sentCharacters: Int
    /// Whether the cap cut the transcript.
    public var truncated: Bool

    /// Creates the figures.
    public init(characters: Int, sentCharacters: Int, truncated: Bool) {
        self.characters = characters; self.sentCharacters = sentCharacters; self.truncated = truncated
    }
}
