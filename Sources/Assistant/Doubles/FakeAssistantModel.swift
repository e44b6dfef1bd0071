import Words

/// A deterministic model for tests and `-test-fake-assistant`: it never calls anything.
///
/// It records every prompt unless told not to (the command line's fake does
/// not, so memory stays flat over a long batch), and can wait a fixed time
/// before each answer, without holding a thread, to stand in for a slow model.
/// It answers JSON with fixed titles, the emoji 🎬
/// and, as keywords, the two most frequent words of five or more letters in
/// the transcript part of the prompt (compared and returned in lower case, ties
/// broken alphabetically). It is always available.
public struct FakeAssistantModel: AssistantModel, AvailabilityProvider {
    /// The backend name used in reports.
    public static let backendName = "fake"
    /// The three titles the fake always suggests.
    public static let titles = ["Highlights from the captions", "What this video covers", "The story in brief"]
    /// The emoji the fake always suggests.
    public static let emoji = "🎬"

    /// The prompts received, in order (empty when `recordsPrompts` is false).
    public let log = PromptLog()
    /// Whether each prompt is kept in `log`.
    public let recordsPrompts: Bool
    /// How long each answer takes (`Task.sleep`, so no thread is held while waiting).
    public let delay: Duration

    /// Creates a fake with an empty log, recording prompts unless `recordsPrompts`
    /// is false, and answering after `delay`.
    public init(recordsPrompts: Bool = true, delay: Duration = .zero) {
        self.recordsPrompts = recordsPrompts
        self.delay = delay
    }

    /// Every prompt received so far, as one string each.
    public var prompts: [String] { log.prompts }

    /// Records the prompt, waits `delay`, and answers JSON built from the transcript part it was sent.
    public func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
        if recordsPrompts { log.record(prompt) }
        if delay > .zero { try await Task.sleep(for: delay) }
        return ModelAnswer(text: SuggestionDecoder.answer(keywords: Self.keywords(in: prompt.transcript), titles: Self.titles, emoji: Self.emoji))
    }

    /// Always `.available`.
    public func currentAvailability() async -> Availability { .available }

    /// The two most frequent words of five or more letters in `text`, lower-cased, ties broken alphabetically.
    ///
    /// Words are the one word rule's (`WordScanner`: Unicode word boundaries,
    /// so `don't` and `rocket_launch` are one word each and a Japanese
    /// sentence is cut into its words); a word's letters are its `Character`s
    /// that are letters. Words are counted as `String`s, so canonically
    /// equivalent spellings count as one word.
    public static func keywords(in text: String) -> [String] {
        var counts: [String: Int] = [:]
        for word in WordScanner().words(in: text) where WordShape(word).letters >= 5 {
            counts[word.lowercased(), default: 0] += 1
        }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(2).map(\.key)
    }
}
