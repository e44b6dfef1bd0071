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

    /// Every prompt received so far.
    public var prompts: [String] { log.prompts }

    /// Records the prompt, waits `delay`, and answers JSON built from its transcript part.
    public func respond(to prompt: String) async throws -> String {
        if recordsPrompts { log.record(prompt) }
        if delay > .zero { try await Task.sleep(for: delay) }
        let keywords = Prompt.transcript(in: prompt).map(Self.keywords(in:)) ?? []
        return SuggestionDecoder.answer(keywords: keywords, titles: Self.titles, emoji: Self.emoji)
    }

    /// Always `.available`.
    public func currentAvailability() async -> Availability { .available }

    /// The two most frequent words of five or more letters in `text`, lower-cased, ties broken alphabetically.
    ///
    /// A word is a run of letters (any script, `Character.isLetter`); digits,
    /// apostrophes and punctuation separate words. Lengths are counted in
    /// `Character`s, and words are counted as `String`s, so canonically
    /// equivalent spellings count as one word.
    public static func keywords(in text: String) -> [String] {
        var counts: [String: Int] = [:]
        for word in text.split(whereSeparator: { !$0.isLetter }) where word.count >= 5 {
            counts[word.lowercased(), default: 0] += 1
        }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(2).map(\.key)
    }
}
