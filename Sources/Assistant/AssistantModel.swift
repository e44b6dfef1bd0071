/// The one seam between CaptionAssistant and a language model.
///
/// Everything model-specific (Apple's Foundation Models, an HTTP server, the
/// fake used in tests) sits behind this method. The answer is untrusted text:
/// callers decode and validate it before anything reaches a caption file.
public protocol AssistantModel: Sendable {
    /// Sends one prompt and returns the model's raw answer.
    func respond(to prompt: String) async throws -> String

    /// Whether `respond(to:)` answers at once, waiting on nothing (no I/O, no
    /// sleep, no other task), so it cannot outlast a time limit: the service
    /// then calls it directly instead of racing it against a timer task.
    /// `false` unless a model says otherwise.
    var answersWithoutWaiting: Bool { get }

    /// Sends one prompt and returns the raw answer with what it cost (requests,
    /// tokens). Backends that know their usage (HTTP) implement it; the default
    /// is `respond(to:)` as one request with no token counts.
    func answer(to prompt: String) async throws -> ModelAnswer
}

extension AssistantModel {
    /// `false`: a model is raced against its time limit unless it says it cannot hang.
    public var answersWithoutWaiting: Bool { false }

    /// `respond(to:)`, counted as one request with no token counts.
    public func answer(to prompt: String) async throws -> ModelAnswer {
        ModelAnswer(text: try await respond(to: prompt))
    }
}
