import Assistant

/// What the pipeline asks of the assistant, once per file: re-read the
/// availability, and when the model may be called, send the capped transcript
/// and validate the answer.
///
/// `AssistantService` is the real one; tests may give their own.
public protocol SuggestionSource: Sendable {
    /// Suggestions for the transcript (cue texts without markup) that
    /// `transcriptPart` gives the start of (`TranscriptPart`) for a cap of
    /// the `Character`s it is given, or why there are none. `transcriptPart`
    /// is called only when the model may be called, so a run without a model
    /// makes no text.
    func suggest(transcriptPart: (_ maxCharacters: Int) -> TranscriptPart) async -> AssistantResult
}

extension AssistantService: SuggestionSource {}
