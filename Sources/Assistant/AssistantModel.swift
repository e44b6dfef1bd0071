/// The one seam between CaptionAssistant and a language model.
///
/// Everything model-specific (Apple's Foundation Models, an HTTP server, the
/// fake used in tests) sits behind this method. The answer is untrusted text:
/// callers decode and validate it before anything reaches a caption file.
public protocol AssistantModel: Sendable {
    /// Sends one prompt and returns the model's raw answer.
    func respond(to prompt: String) async throws -> String

    /// Sends one prompt and returns the raw answer with what it cost (requests,
    /// tokens). Backends that know their usage (HTTP) implement it; the default
    /// is `respond(to:)` as one request with no token counts, so a model still
    /// needs to implement only `respond(to:)`.
    func answer(to prompt: String) async throws -> ModelAnswer
}

extension AssistantModel {
    /// `respond(to:)`, counted as one request with no token counts.
    public func answer(to prompt: String) async throws -> ModelAnswer {
        ModelAnswer(text: try await respond(to: prompt))
    }
}
