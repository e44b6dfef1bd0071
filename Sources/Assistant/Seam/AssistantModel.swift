/// The one seam between CaptionAssistant and a language model.
///
/// Everything model-specific (Apple's Foundation Models, an HTTP server, the
/// fake used in tests) sits behind this one method. It receives the prompt as
/// a value (`AssistantPrompt`: the instructions, the transcript part sent and
/// the answer's shape), as Apple's `respond(to:generating:)` takes a prompt
/// and a `@Generable` type. The answer is untrusted text: callers decode and
/// validate it as if no schema had been sent before anything reaches a caption file.
public protocol AssistantModel: Sendable {
    /// Sends one prompt and returns the model's raw answer with what it cost
    /// (requests, and tokens where the backend knows them).
    func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer
}
