/// A model that always throws the given error, for tests and the command line's failing test model.
///
/// It records every prompt, so a test can count the calls (a permanent error
/// is called once; a temporary one up to the retry limit).
public struct FailingAssistantModel: AssistantModel {
    /// The error the command line's failing test model throws.
    public static let testFailure = AssistantError.failed("The test model was told to fail.")

    /// The error thrown on every call.
    public let error: any Error & Sendable
    /// The prompts received, in order.
    public let log = PromptLog()

    /// Creates a model that throws `error` (by default the command line's test failure).
    public init(error: any Error & Sendable = FailingAssistantModel.testFailure) {
        self.error = error
    }

    /// Records the prompt and throws `error`.
    public func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
        log.record(prompt)
        throw error
    }
}
