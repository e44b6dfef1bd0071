import Foundation

/// Turns a model's raw answer into validated `Suggestions`.
///
/// The answer is untrusted. The decoder finds the JSON object even when the
/// model wrapped it in prose or a Markdown code fence, then validates each
/// action on its own: one bad field fails that action, not the others.
public struct SuggestionDecoder: Sendable {
    /// The most keywords kept; later ones are dropped.
    public var maxKeywords: Int
    /// The longest keyword kept, in `Character`s.
    public var maxKeywordLength: Int
    /// Characters that may not appear in a keyword: it is spliced into caption markup.
    public static let markupCharacters: Set<Character> = ["<", ">", "&", "{", "}"]

    /// Creates a decoder keeping at most `maxKeywords` keywords.
    public init(maxKeywords: Int = 10, maxKeywordLength: Int = 100) {
        self.maxKeywords = max(0, maxKeywords)
        self.maxKeywordLength = max(1, maxKeywordLength)
    }

    /// Decodes and validates `answer`; keywords must appear as whole words in `transcript`.
    public func decode(_ answer: String, transcript: String) -> Suggestions {
        if answer.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return .allFailed("The model returned an empty answer.")
        }
        guard let object = JSONObjectFinder.firstObject(in: answer) else {
            return .allFailed("The model's answer holds no JSON object: \(Self.quote(answer)).")
        }
        var warnings: [String] = []
        var dropped: [DroppedKeyword] = []
        let keywords = validateKeywords(object["keywords"], transcript: transcript, dropped: &dropped)
        let titles = validateTitles(object["titles"], warnings: &warnings)
        let emoji = validateEmoji(object["emoji"])
        return Suggestions(keywords: keywords, titles: titles, emoji: emoji, warnings: warnings, droppedKeywords: dropped)
    }

    // MARK: Keywords

    func validateKeywords(_ field: Any?, transcript: String, dropped: inout [DroppedKeyword]) -> ActionOutcome<[String]> {
        guard let field else { return .failed("The answer has no \"keywords\" list.") }
        guard let items = field as? [Any] else { return .failed("\"keywords\" in the answer is not a list.") }
        if items.isEmpty { return .failed("The model suggested no keywords.") }
        let haystack = WholeWordMatcher(transcript)
        var kept: [String] = []
        var seen: Set<String> = []
        for item in items {
            guard let raw = item as? String else {
                dropped.append(DroppedKeyword(keyword: Self.describe(item), reason: "not text"))
                continue
            }
            let keyword = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let folded = keyword.lowercased()
            let reason: String?
            if keyword.isEmpty {
                reason = "empty"
            } else if keyword.contains(where: { Self.markupCharacters.contains($0) }) {
                reason = "contains markup characters"
            } else if keyword.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                reason = "contains control characters or line breaks"
            } else if keyword.count > maxKeywordLength {
                reason = "longer than \(maxKeywordLength) characters"
            } else if seen.contains(folded) {
                reason = "duplicate"
            } else if !haystack.containsWholeWord(keyword) {
                reason = "not in the transcript"
            } else if kept.count >= maxKeywords {
                reason = "more than \(maxKeywords) keywords"
            } else {
                reason = nil
            }
            if let reason {
                dropped.append(DroppedKeyword(keyword: keyword, reason: reason))
            } else {
                kept.append(keyword)
                seen.insert(folded)
            }
        }
        if kept.isEmpty {
            let list = dropped.map { "\(Self.quote($0.keyword)) (\($0.reason))" }.joined(separator: ", ")
            return .failed("No suggested keyword is usable: \(list).")
        }
        return .applied(kept)
    }

    // MARK: Titles

    func validateTitles(_ field: Any?, warnings: inout [String]) -> ActionOutcome<[String]> {
        guard let field else { return .failed("The answer has no \"titles\" list.") }
        guard let items = field as? [Any] else { return .failed("\"titles\" in the answer is not a list.") }
        var titles: [String] = []
        var skipped = 0
        for item in items {
            guard let raw = item as? String else {
                skipped += 1
                continue
            }
            let title = Self.singleLine(raw)
            if title.isEmpty {
                skipped += 1
            } else {
                titles.append(title)
            }
        }
        if skipped > 0 {
            warnings.append("\(skipped) empty or non-text title\(skipped == 1 ? " was" : "s were") ignored.")
        }
        if titles.count < 3 {
            return .failed("The model gave \(titles.count) usable title\(titles.count == 1 ? "" : "s"); exactly three are needed.")
        }
        if titles.count > 3 {
            warnings.append("The model gave \(titles.count) titles; the first three were kept.")
        }
        return .applied(Array(titles.prefix(3)))
    }

    // MARK: Emoji

    func validateEmoji(_ field: Any?) -> ActionOutcome<String> {
        guard let field else { return .failed("The answer has no \"emoji\".") }
        guard let raw = field as? String else { return .failed("\"emoji\" in the answer is not text.") }
        let emoji = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = emoji.first else { return .failed("The suggested emoji is empty.") }
        guard emoji.count == 1 else {
            return .failed("Expected exactly one emoji, got \(emoji.count) characters: \(Self.quote(emoji)).")
        }
        guard EmojiClassifier.isEmoji(first) else {
            return .failed("\(Self.quote(emoji)) is not an emoji.")
        }
        return .applied(emoji)
    }

    // MARK: Helpers

    /// Collapses line breaks and runs of white space into single spaces, and trims.
    static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
            .joined(separator: " ")
    }

    /// Quotes model text for a message, shortened so a report stays readable.
    static func quote(_ text: String, limit: Int = 80) -> String {
        let flat = singleLine(text)
        let shown = flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
        return "“\(shown)”"
    }

    static func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        return String(describing: value)
    }
}
