/// The one seam between CaptionAssistant and a language model.
///
/// Everything model-specific (Apple's Foundation Models, an HTTP server, the
/// fake used in tests) sits behind this method. The answer is untrusted text:
/// callers decode and validate it before anything reaches a caption file.
public protocol AssistantModel: Sendable {
    /// Sends one prompt and returns the model's raw answer.
    func respond(to prompt: String) async throws -> String
}
