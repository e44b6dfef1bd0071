import Assistant
import Foundation

/// A model that gives scripted answers or errors in order, for tests of decoding and retries.
///
/// After the script runs out it keeps giving the last entry. It records every prompt.
public final class ScriptedAssistantModel: AssistantModel, @unchecked Sendable {
    private let lock = NSLock()
    private let script: [Result<String, any Error>]
    private var next = 0
    /// The prompts received, in order.
    public let log = PromptLog()

    /// Creates a model answering `script` in order.
    public init(_ script: [Result<String, any Error>]) {
        self.script = script
    }

    /// Creates a model answering these texts in order.
    public convenience init(answers: [String]) {
        self.init(answers.map { .success($0) })
    }

    /// How many times the model was called.
    public var calls: Int { log.prompts.count }

    /// Records the prompt and gives the next scripted answer (as one request) or error.
    public func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
        log.record(prompt)
        let step: Result<String, any Error>? = lock.withLock {
            guard !script.isEmpty else { return nil }
            let index = min(next, script.count - 1)
            next += 1
            return script[index]
        }
        guard let step else { throw AssistantError.failed("The scripted test model has no answers.") }
        return ModelAnswer(text: try step.get())
    }
}
