import Foundation
import Words
import JSON

/// Turns a model's raw answer into validated `Suggestions`.
///
/// The answer is untrusted, and checked as if no schema had been sent (a
/// server may ignore it). The decoder finds the JSON object even when the
/// model wrapped it in prose or a Markdown code fence, then validates each
/// action on its own: one bad field fails that action, not the others.
/// Keywords: distinct, each a whole word or phrase of the transcript (the one
/// word rule, `WholeWords`). Titles: `AnswerSchema.titleCount` of them,
/// distinct, `AnswerSchema.titleLength` `Character`s after trimming, no
/// control characters, none a copy of a line the model was sent (a caption
/// line, whole or three words or more of it, or a line of our own
/// instructions), and sharing a word with the transcript (`TitleGround`). The emoji: one RGI
/// emoji (`EmojiClassifier`). Every check does bounded work on a field
/// however long it is. The form of every field (hidden characters, bytes,
/// secrets) and of every text quoted from the answer and every list of what
/// was refused is `ServerTextGate`'s: at most `ServerTextGate.readItems` items
/// of a list are read, and the messages (which a repair request re-sends)
/// name at most `ServerTextGate.listedItems`.
public struct SuggestionDecoder: Sendable {
    /// The most keywords kept; later ones are dropped.
    public var maxKeywords: Int
    /// The longest keyword kept, in `Character`s.
    public var maxKeywordLength: Int
    /// Whether a title must share a word with the transcript (`TitleGround`);
    /// false only for the fake model, whose titles are fixed.
    public var groundsTitles: Bool
    /// Characters that may not appear in a keyword: it is spliced into caption markup.
    static let markupCharacters: Set<Character> = ["<", ">", "&", "{", "}"]
    /// The most UTF-8 bytes one `Character` of a title or keyword is allowed
    /// before a field is refused as too long without counting its characters.
    static let maximumBytesPerCharacter = ServerTextGate.maximumBytesPerCharacter

    /// Creates a decoder keeping at most `maxKeywords` keywords.
    public init(maxKeywords: Int = 10, maxKeywordLength: Int = 100, groundsTitles: Bool = true) {
        self.maxKeywords = max(0, maxKeywords)
        self.maxKeywordLength = max(1, maxKeywordLength)
        self.groundsTitles = groundsTitles
    }

    /// Decodes and validates `answer`: keywords must appear as whole words in
    /// `transcript`; titles may not copy a line of `sent` (what the model was
    /// sent: `AssistantPrompt.text`; the transcript when nil). When
    /// `transcript` is only the start of the transcript (`TranscriptPart`),
    /// `whole` makes all of it, for the keywords the start does not hold.
    public func decode(_ answer: String, transcript: String, sent: String? = nil, whole: (() -> String)? = nil) -> Suggestions {
        if Self.trimmed(answer).isEmpty {
            return .allFailed("The model returned an empty answer.")
        }
        guard let object = JSONObjectFinder.firstObject(in: answer) else {
            return .allFailed("The model's answer holds no JSON object: \(Self.quote(answer)).")
        }
        var warnings: [String] = []
        var dropped: [DroppedKeyword] = []
        let keywords = validateKeywords(object["keywords"], transcript: transcript, whole: whole, dropped: &dropped)
        var usableTitles: [String] = []
        var refusedKinds: [String] = []
        let titles = validateTitles(object["titles"], sentLines: sent ?? transcript, transcript: transcript,
                                    warnings: &warnings, usable: &usableTitles, refusedKinds: &refusedKinds)
        let emoji = validateEmoji(object["emoji"])
        var suggestions = Suggestions(keywords: keywords, titles: titles, emoji: emoji, warnings: warnings, droppedKeywords: dropped)
        suggestions.usableTitles = usableTitles
        suggestions.refusedTitleKinds = refusedKinds
        return suggestions
    }

    /// An answer in the shape the prompt asks for and `decode` reads, on one line:
    /// `{"keywords": [...], "titles": [...], "emoji": "..."}` (for backends that
    /// produce the fields themselves: the fake, Foundation Models).
    public static func answer(keywords: [String], titles: [String], emoji: String) -> String {
        JSONValue.object([("keywords", .strings(keywords)), ("titles", .strings(titles)), ("emoji", .string(emoji))])
            .oneLine(spaced: true)
    }

    // MARK: Keywords

    func validateKeywords(_ field: JSONValue?, transcript: String, whole: (() -> String)? = nil,
                          dropped: inout [DroppedKeyword]) -> ActionOutcome<[String]> {
        guard let field else { return .failed("The answer has no \"keywords\" list.") }
        guard case .array(let items) = field else { return .failed("\"keywords\" in the answer is not a list.") }
        if items.isEmpty { return .failed("The model suggested no keywords.") }
        // First the checks of each keyword on its own, then one pass over the
        // transcript for all that pass them, then, in the answer's order:
        // repeats of a kept keyword, keywords not in the transcript, the cap.
        var checked: [(keyword: String, key: String, reason: String?)] = []
        let notRead = max(0, items.count - ServerTextGate.readItems)
        for item in items.prefix(ServerTextGate.readItems) {
            guard case .string(let raw) = item else {
                checked.append((Self.describe(item), "", "not text"))
                continue
            }
            if raw.utf8.count > maxKeywordLength * Self.maximumBytesPerCharacter {
                checked.append((Self.shortened(raw), "", "longer than \(maxKeywordLength) characters"))
                continue
            }
            let keyword = Self.trimmed(raw)
            if keyword.isEmpty {
                checked.append((keyword, "", "empty"))
            } else if let flaw = Self.flaw(keyword, maxLength: maxKeywordLength) {
                checked.append((keyword, "", flaw))
            } else {
                // Distinct as the word rule compares: words lower-cased, white space as one space.
                checked.append((keyword, WholeWords.comparisonKey(keyword) ?? keyword.lowercased(), nil))
            }
        }
        let candidates = checked.indices.filter { checked[$0].reason == nil }
        let found = WholeWords.found(candidates.map { checked[$0].keyword }, in: transcript)
        var inTranscript = [Bool](repeating: false, count: checked.count)
        for (k, index) in candidates.enumerated() { inTranscript[index] = found[k] }
        // What the transcript's start lacks may be further on (the start's words are the whole text's first words).
        let missing = candidates.filter { !inTranscript[$0] }
        if let whole, !missing.isEmpty {
            let further = WholeWords.found(missing.map { checked[$0].keyword }, in: whole())
            for (k, index) in missing.enumerated() { inTranscript[index] = further[k] }
        }
        var kept: [String] = []
        var seen = FoldedSet()
        var all: [DroppedKeyword] = []
        for (index, entry) in checked.enumerated() {
            var reason = entry.reason
            if reason == nil {
                if seen.contains(entry.key) {
                    reason = "duplicate"
                } else if !inTranscript[index] {
                    reason = "not in the transcript"
                } else if kept.count >= maxKeywords {
                    reason = "more than \(maxKeywords) keywords"
                }
            }
            if let reason {
                all.append(DroppedKeyword(keyword: ServerTextGate.shown(entry.keyword), reason: reason))
            } else {
                kept.append(entry.keyword)
                seen.insert(entry.key)
            }
        }
        // What is dropped is listed up to the gate's bounds, the rest counted in one entry.
        let (listed, leftOut) = ServerTextGate.bounded(all.map { "\($0.keyword)\u{0}\($0.reason)" })
        dropped += all.prefix(listed.count)
        if leftOut + notRead > 0 {
            dropped.append(DroppedKeyword(keyword: "…", reason: "\(leftOut + notRead) more keyword\(leftOut + notRead == 1 ? "" : "s") dropped, not listed"))
        }
        if kept.isEmpty {
            let list = ServerTextGate.list(all.map { "\(Self.quote($0.keyword)) (\($0.reason))" }, separator: ", ", notRead: notRead)
            return .failed("No suggested keyword is usable: \(list).")
        }
        return .applied(kept)
    }

    /// The first of the markup, control and length checks `keyword` fails, or
    /// nil when it passes them all (all-ASCII keywords byte by byte).
    static func flaw(_ keyword: String, maxLength: Int) -> String? {
        if let ascii = asciiFlaw(keyword, maxLength: maxLength) { return ascii.isEmpty ? nil : ascii }
        if keyword.contains(where: { markupCharacters.contains($0) }) { return "contains markup characters" }
        if keyword.unicodeScalars.contains(where: ServerTextGate.isControl) {
            return "contains control characters or line breaks"
        }
        if let hidden = ServerTextGate.hiddenCharacter(in: keyword) { return ServerTextGate.hiddenReason(hidden) }
        if keyword.count > maxLength { return "longer than \(maxLength) characters" }
        return nil
    }

    /// For an all-ASCII keyword: the first of the markup, control and length
    /// checks it fails ("" when it passes them all); nil when it is not all ASCII.
    ///
    /// In ASCII every `Character` is one byte but CR LF (a control character
    /// anyway), the markup characters are those bytes, and the control
    /// characters (general category Cc) are U+0000–U+001F and U+007F, so this is
    /// exactly the general checks' answer.
    static func asciiFlaw(_ keyword: String, maxLength: Int) -> String? {
        var markup = false
        var control = false
        for b in keyword.utf8 {
            if b >= 0x80 { return nil }
            if ServerTextGate.isControl(Unicode.Scalar(b)) {
                control = true
            } else if b == 0x3C || b == 0x3E || b == 0x26 || b == 0x7B || b == 0x7D {
                markup = true
            }
        }
        if markup { return "contains markup characters" }
        if control { return "contains control characters or line breaks" }
        if keyword.utf8.count > maxLength { return "longer than \(maxLength) characters" }
        return ""
    }

    /// The folded keywords kept so far: a list while short, a `Set` past that (same `String` equality either way).
    struct FoldedSet {
        private var list: [String] = []
        private var set: Set<String>? = nil

        func contains(_ folded: String) -> Bool {
            if let set { return set.contains(folded) }
            return list.contains(folded)
        }

        mutating func insert(_ folded: String) {
            if set != nil {
                set?.insert(folded)
            } else if list.count < 16 {
                list.append(folded)
            } else {
                set = Set(list + [folded])
            }
        }
    }

    // MARK: Titles

    /// A title with this many words or more copies a line when it is a run of
    /// that line's words; a shorter one only when it is the whole line (one or
    /// two words naming the topic come from the captions as a matter of course).
    static let copiedRunWords = 3
    /// A title with this many words or more is a copy when it is a run of the
    /// words sent across lines too (a sentence lifted across two cues).
    static let copiedRunWordsAcrossLines = 5

    /// The positions (from 0) of the titles that start with their own list
    /// number (`1. `, `2) ` at the first and second place…), when at least two
    /// do: the model numbered its list, and the numbers are the list's, not the
    /// titles' (SmolLM2-135M numbered its five titles in 1 of 26 first
    /// answers of a measured run, and in 3 of 17 repair answers of a replay:
    /// `1. Diabetes: The Hidden Epidemic`, `2. How to Manage High Blood Sugar`). One title so numbered is left as written: `1. FC
    /// Köln` is a name, and `TitleCheck` refuses a lone list number.
    static func numberedPositions(_ items: ArraySlice<JSONValue>) -> Set<Int> {
        var found: Set<Int> = []
        for (position, item) in items.enumerated() {
            guard case .string(let raw) = item, let number = TitleCheck.listNumber(trimmed(raw)),
                  number.dropLast() == String(position + 1) else { continue }
            found.insert(position)
        }
        return found.count >= 2 ? found : []
    }

    /// What a title was refused for, without the title or the words quoted
    /// from it: `ends mid-clause (with “in”)` is `ends mid-clause`, `repeats
    /// “a b”` is `repeats words`. A repair request names these kinds, not the
    /// refused titles: a small model sent its refused titles writes them
    /// again, and copies the reason's words as titles ("The model gave 2
    /// usable titles; exactly three are needed" came back as a title).
    static func refusalKind(_ flaw: String) -> String {
        var end = flaw.endIndex
        for marker in [" (", " “"] {
            if let r = flaw.range(of: marker), r.lowerBound < end { end = r.lowerBound }
        }
        let kind = String(flaw[..<end])
        return kind == "repeats" ? "repeats words" : kind
    }

    /// Validates the answer's titles (`titles`): the usable ones in `usable`
    /// (also when too few), and what each refused one was refused for, without
    /// the title, in `refusedKinds` (`refusalKind(_:)`, for the repair request).
    func validateTitles(_ field: JSONValue?, sentLines: String, transcript: String = "",
                        warnings: inout [String], usable: inout [String], refusedKinds: inout [String]) -> ActionOutcome<[String]> {
        guard let field else { return .failed("The answer has no \"titles\" list.") }
        guard case .array(let items) = field else { return .failed("\"titles\" in the answer is not a list.") }
        let bounds = AnswerSchema.titleLength
        // The transcript's language, for the words a headline does not end with: found once, when a title needs it.
        var detected: String?? = nil
        func language() -> String? {
            if let detected { return detected }
            let language = Self.language(of: transcript)
            detected = .some(language)
            return language
        }
        var titles: [String] = []
        var rejected: [String] = []
        func refuse(_ title: String, _ flaw: String) {
            rejected.append("\(Self.quote(title)) \(flaw)")
            refusedKinds.append(Self.refusalKind(flaw))
        }
        var skipped = 0
        var repeated = 0
        var seen = FoldedSet()
        // The words the model was sent, for titles that share none of them and for words no dictionary
        // holds: scanned once, when a title needs them.
        var scanned: TitleGround?
        func ground() -> TitleGround {
            if let scanned { return scanned }
            let made = TitleGround(transcript: transcript)
            scanned = made
            return made
        }
        func groundFlaw(_ title: String) -> String? {
            groundsTitles ? ground().flaw(title) : nil
        }
        func dictionaryFlaw(_ title: String) -> String? {
            guard groundsTitles, let language = language(), let dictionary = TitleDictionary.of(language) else { return nil }
            return dictionary.flaw(title, language: language, captionWords: ground().words)
        }
        let notRead = max(0, items.count - ServerTextGate.readItems)
        let read = items.prefix(ServerTextGate.readItems)
        let numbered = Self.numberedPositions(read)
        if !numbered.isEmpty {
            warnings.append("The model numbered its titles (\(numbered.count) of them: 1., 2., …); the numbers were left out.")
        }
        for (position, item) in read.enumerated() {
            guard case .string(var raw) = item else {
                skipped += 1
                continue
            }
            if numbered.contains(position), let number = TitleCheck.listNumber(Self.trimmed(raw)) {
                raw = String(Self.trimmed(raw).dropFirst(number.count))
            }
            // Refused before any per-character work when it cannot be short enough.
            if raw.utf8.count > bounds.upperBound * Self.maximumBytesPerCharacter {
                refuse(raw, "is longer than \(bounds.upperBound) characters")
                continue
            }
            let title = Self.trimmed(raw)
            if title.isEmpty {
                skipped += 1
            } else if let flaw = ServerTextGate.flaw(title, maxCharacters: bounds.upperBound) {
                refuse(title, flaw.hasPrefix("longer") ? "is " + flaw : flaw)
            } else if title.count < bounds.lowerBound {
                refuse(title, "is shorter than \(bounds.lowerBound) characters")
            } else if title.count > bounds.upperBound {
                refuse(title, "is longer than \(bounds.upperBound) characters")
            } else if let flaw = TitleCheck.flaw(title, language: language()) {
                refuse(title, flaw)
            } else if let flaw = groundFlaw(title) {
                refuse(title, flaw)
            } else if let flaw = dictionaryFlaw(title) {
                refuse(title, flaw)
            } else if seen.contains(title.lowercased()) {
                // The three titles are alternatives: a repeat is no alternative.
                repeated += 1
            } else {
                seen.insert(title.lowercased())
                titles.append(title)
            }
        }
        // A title whose words are those of a line the model was sent, or a run
        // of three or more of one line's words (five or more across lines), is
        // a copy: a title names the topic in new words. So is one whose last
        // word alone differs (a line cut off at the length bound mid-word:
        // "…can make a big diffe").
        let scanner = WordScanner()
        let heads = titles.map { title -> String in
            let words = scanner.words(in: title)
            guard words.count > Self.copiedRunWords, let last = words.last, let first = words.first else { return "" }
            return String(title[first.startIndex..<last.startIndex])
        }
        let found = WholeWords.copiesALine(titles + heads, of: sentLines, minimumWords: Self.copiedRunWords,
                                           minimumWordsAcrossLines: Self.copiedRunWordsAcrossLines)
        let copies = titles.indices.map { found[$0] || found[titles.count + $0] }
        for (title, copied) in zip(titles, copies) where copied {
            refuse(title, "copies a caption line")
        }
        titles = zip(titles, copies).filter { !$0.1 }.map(\.0)
        usable = titles
        if skipped > 0 {
            warnings.append("\(skipped) empty or non-text title\(skipped == 1 ? " was" : "s were") ignored.")
        }
        if notRead > 0 {
            warnings.append("\(notRead) more title\(notRead == 1 ? " was" : "s were") not read (an answer's list is read up to \(ServerTextGate.readItems) items).")
        }
        if repeated > 0 {
            warnings.append("\(repeated) repeated title\(repeated == 1 ? " was" : "s were") ignored.")
        }
        let count = AnswerSchema.titleCount
        if titles.count < count {
            let why = rejected.isEmpty ? "" : " Not usable: " + ServerTextGate.list(rejected) + "."
            return .failed("The model gave \(titles.count) usable title\(titles.count == 1 ? "" : "s"); exactly three are needed.\(why)")
        }
        if !rejected.isEmpty {
            warnings.append("Not usable: " + ServerTextGate.list(rejected) + ".")
        }
        if titles.count > AnswerSchema.titleCandidates {
            warnings.append("The model gave \(titles.count) usable titles where \(AnswerSchema.titleCandidates) were asked for; the first three were kept.")
        }
        return .applied(Array(titles.prefix(count)))
    }

    /// The most bytes of the transcript read to tell its language.
    static let languageSampleBytes = 4_000

    /// The language of `transcript` (an ISO 639-1 code), by the stop words
    /// its first `languageSampleBytes` use most (`LocalFallback.language`,
    /// the one rule); nil for an empty transcript.
    static func language(of transcript: String) -> String? {
        guard !transcript.isEmpty else { return nil }
        var end = transcript.utf8.index(transcript.utf8.startIndex, offsetBy: min(languageSampleBytes, transcript.utf8.count))
        while end < transcript.utf8.endIndex, transcript.utf8[end] & 0xC0 == 0x80 { end = transcript.utf8.index(after: end) }
        let sample = transcript[..<end]
        return LocalFallback.language(declared: nil, words: WordScanner().words(in: sample), text: String(sample))
    }

    // MARK: Emoji

    /// The most UTF-8 bytes an emoji field may hold (the longest RGI emoji take 35).
    static let maximumEmojiBytes = 64

    func validateEmoji(_ field: JSONValue?) -> ActionOutcome<String> {
        guard let field else { return .failed("The answer has no \"emoji\".") }
        guard case .string(let raw) = field else { return .failed("\"emoji\" in the answer is not text.") }
        guard raw.utf8.count <= Self.maximumEmojiBytes else {
            return .failed("Expected exactly one emoji, got \(raw.utf8.count) bytes: \(Self.quote(raw)).")
        }
        let emoji = Self.trimmed(raw)
        guard let first = emoji.first else { return .failed("The suggested emoji is empty.") }
        guard emoji.count == 1 else {
            return .failed("Expected exactly one emoji, got \(emoji.count) characters: \(Self.quote(emoji)).")
        }
        guard EmojiClassifier.isEmoji(first) else {
            if let hidden = ServerTextGate.hiddenCharacter(in: emoji) {
                return .failed("\(Self.quote(emoji)) is not an emoji: it \(ServerTextGate.hiddenReason(hidden)).")
            }
            return .failed("\(Self.quote(emoji)) is not an emoji.")
        }
        return .applied(emoji)
    }

    // MARK: Helpers

    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)`, without the
    /// Foundation round trip when neither end is white space (the usual case).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        // ASCII ends: white space and new lines there are U+0009–U+000D and U+0020 (as the set says).
        if first.isASCII && last.isASCII && !isASCIISpace(first) && !isASCIISpace(last) { return text }
        let set = CharacterSet.whitespacesAndNewlines
        if !set.contains(first) && !set.contains(last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether an ASCII scalar is in `CharacterSet.whitespacesAndNewlines`.
    static func isASCIISpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x20 || scalar.value &- 0x09 < 5
    }

    /// Quotes model text for a message (`ServerTextGate.quote`: bounded in
    /// bytes and characters, on one line, hidden characters shown, secrets redacted).
    static func quote(_ text: String) -> String { ServerTextGate.quote(text) }

    /// `text`, or its first `Character`s within the gate's quote bytes and "…" when it is longer.
    static func shortened(_ text: String) -> String {
        ServerTextGate.shown(text, characters: Int.max, bytes: ServerTextGate.quoteBytes)
    }

    /// A value that is not text, as the answer wrote it (compact JSON), for the report.
    static func describe(_ value: JSONValue) -> String {
        value.oneLine(spaced: true)
    }
}
