/// A deterministic model for tests and `-test-fake-assistant`: it never calls anything.
///
/// It records every prompt. It answers JSON with fixed titles, the emoji 🎬
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

    /// The prompts received, in order.
    public let log = PromptLog()

    /// Creates a fake with an empty log.
    public init() {}

    /// Every prompt received so far.
    public var prompts: [String] { log.prompts }

    /// Records the prompt and answers JSON built from its transcript part.
    public func respond(to prompt: String) async throws -> String {
        log.record(prompt)
        let transcript = Prompt.transcript(in: prompt) ?? ""
        return AnswerJSON.encode(keywords: Self.keywords(in: transcript), titles: Self.titles, emoji: Self.emoji)
    }

    /// Always `.available`.
    public func currentAvailability() async -> Availability { .available }

    /// The two most frequent words of five or more letters in `text`, lower-cased, ties broken alphabetically.
    ///
    /// A word is a run of letters (any script); digits, apostrophes and
    /// punctuation separate words.
    public static func keywords(in text: String) -> [String] {
        var counts: [String: Int] = [:]
        for word in text.split(whereSeparator: { !$0.isLetter }) where word.count >= 5 {
            counts[word.lowercased(), default: 0] += 1
        }
        return counts
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(2)
            .map(\.key)
    }
}
