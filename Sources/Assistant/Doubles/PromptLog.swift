import Foundation

/// A thread-safe list of the prompts a test model received, in order.
public final class PromptLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [AssistantPrompt] = []

    /// Creates an empty log.
    public init() {}

    /// Every prompt received so far, as values.
    public var received: [AssistantPrompt] { lock.withLock { entries } }

    /// Every prompt received so far, as one string each (`AssistantPrompt.text`).
    public var prompts: [String] { received.map(\.text) }

    /// Adds `prompt` to the log (any test model may record through it, those in TestSupport too).
    public func record(_ prompt: AssistantPrompt) {
        lock.withLock { entries.append(prompt) }
    }
}
