import Foundation

/// A thread-safe list of the prompts a test model received, in order.
public final class PromptLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    /// Creates an empty log.
    public init() {}

    /// Every prompt received so far.
    public var prompts: [String] { lock.withLock { entries } }

    /// Adds `prompt` to the log (the test doubles in TestSupport record through it too).
    package func record(_ prompt: String) {
        lock.withLock { entries.append(prompt) }
    }
}
