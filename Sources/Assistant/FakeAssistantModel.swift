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
        let transcript = Prompt.transcript(in: prompt) ?? ""
        return AnswerJSON.encode(keywords: Self.keywords(in: transcript), titles: Self.titles, emoji: Self.emoji)
    }

    /// Always `.available`.
    public func currentAvailability() async -> Availability { .available }

    /// The two most frequent words of five or more letters in `text`, lower-cased, ties broken alphabetically.
    ///
    /// A word is a run of letters (any script); digits, apostrophes and
    /// punctuation separate words. Letters and word lengths are counted in
    /// `Character`s; the text is walked by UTF-8 offset, ASCII byte by byte
    /// (`CharacterSteps`), and only non-ASCII characters are looked at as `Character`s.
    public static func keywords(in text: String) -> [String] {
        var counts: [String: Int] = [:]
        CharacterSteps.withBytes(text) { p, text in
            let n = p.count
            var i = 0
            var wordStart = 0
            var letters = 0
            var ascii = true
            func finishWord(at end: Int) {
                defer { letters = 0; ascii = true }
                guard letters >= 5 else { return }
                let word: String
                if ascii {
                    word = String(unsafeUninitializedCapacity: end - wordStart) { out in
                        for k in wordStart..<end { out[k - wordStart] = CharacterSteps.asciiLower(p[k]) }
                        return end - wordStart
                    }
                } else {
                    word = CharacterSteps.string(p, wordStart..<end).lowercased()
                }
                counts[word, default: 0] += 1
            }
            while i < n {
                let end = CharacterSteps.end(of: i, in: p, text: text)
                let isLetter: Bool
                if CharacterSteps.isSingleASCII(p, i..<end) {
                    isLetter = CharacterSteps.isASCIILetter(p[i])
                } else {
                    isLetter = CharacterSteps.character(p, i..<end).isLetter
                    if isLetter { ascii = false }
                }
                if isLetter {
                    if letters == 0 { wordStart = i }
                    letters += 1
                } else if letters > 0 {
                    finishWord(at: i)
                }
                i = end
            }
            if letters > 0 { finishWord(at: n) }
        }
        // The best two, without sorting every word.
        func before(_ a: (key: String, value: Int), _ b: (key: String, value: Int)) -> Bool {
            a.value != b.value ? a.value > b.value : a.key < b.key
        }
        var best: [(key: String, value: Int)] = []
        for entry in counts {
            if best.count < 2 {
                best.append(entry)
                if best.count == 2 && before(best[1], best[0]) { best.swapAt(0, 1) }
            } else if before(entry, best[1]) {
                best[1] = entry
                if before(best[1], best[0]) { best.swapAt(0, 1) }
            }
        }
        return best.map(\.key)
    }
}
