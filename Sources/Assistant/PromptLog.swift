import Foundation

/// A thread-safe list of the prompts a test model received, in order.
public final class PromptLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    /// Creates an empty log.
    public init() {}

    /// Every prompt received so far.
    public var prompts: [String] { lock.withLock { entries } }

    /// Adds `prompt` to the log (any test model may record through it, those in TestSupport too).
    public func record(_ prompt: String) {
        lock.withLock { entries.append(prompt) }
    }
}
