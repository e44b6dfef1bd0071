/// The one word rule on `String`s: whether words and phrases occur in a text
/// as whole words, for the callers that hold text as a `String` (the
/// suggestion decoder, keyword candidates, the fake model, the local fallback).
package enum WholeWords {
    /// For each of `phrases`, whether it occurs in `text` as whole words, case
    /// ignored (`KeywordMatcher`); each phrase is looked for on its own (a
    /// phrase inside another one's match still counts). One pass over `text`.
    package static func found(_ phrases: [String], in text: String,
                              separators: KeywordMatcher.Separators = .asWritten) -> [Bool] {
        occurrences(phrases, in: text, separators: separators).map { $0.count > 0 }
    }

    /// For each of `phrases`, how often it occurs in `text` as whole words,
    /// case ignored (each phrase on its own, as `found`), and the index of the
    /// word of `text` its first occurrence starts at (nil when it never
    /// occurs). One pass over `text`.
    package static func occurrences(_ phrases: [String], in text: String,
                                    separators: KeywordMatcher.Separators = .asWritten) -> [(count: Int, firstWord: Int?)] {
        occurrences(of: KeywordMatcher(phrases, separators: separators), in: text)
    }

    /// `occurrences(_:in:separators:)` with the phrases prepared once
    /// (`matcher`), for a caller that looks for the same phrases in many
    /// texts: one entry per phrase the matcher was made with.
    package static func occurrences(of matcher: KeywordMatcher, in text: String) -> [(count: Int, firstWord: Int?)] {
        guard !matcher.isEmpty else { return [(count: Int, firstWord: Int?)](repeating: (0, nil), count: matcher.keywordCount) }
        var text = text
        let scanner = WordScanner()
        return text.withUTF8 { p in
            scanner.scan(p)
            return occurrences(of: matcher, in: p, words: scanner.words)
        }
    }

    /// `occurrences(of:in:)` in the UTF-8 `text` whose words (`WordScanner`'s) are `words`.
    package static func occurrences(of matcher: KeywordMatcher, in text: UnsafeBufferPointer<UInt8>,
                                    words: [Range<Int>]) -> [(count: Int, firstWord: Int?)] {
        var result = [(count: Int, firstWord: Int?)](repeating: (0, nil), count: matcher.keywordCount)
        guard !matcher.isEmpty else { return result }
        var scratch = KeywordMatcher.Scratch()
        matcher.forEachMatch(in: text, words: words, overlapping: true, scratch: &scratch) { phrase, range in
            result[phrase].count += 1
            if result[phrase].firstWord == nil { result[phrase].firstWord = index(of: range.lowerBound, in: words) }
            return true
        }
        return result
    }

    /// Whether `phrase` occurs in `text` as whole words, case ignored. A phrase with no word never occurs.
    package static func contains(_ phrase: String, in text: String) -> Bool {
        found([phrase], in: text)[0]
    }
}

extension WholeWords {
    /// How the rule compares `phrase` with other phrases: its words
    /// lower-cased and the text between them, white space as one space (two
    /// phrases with the same key match the same text); nil when it has no word.
    package static func comparisonKey(_ phrase: String) -> String? {
        guard let pattern = KeywordPattern(phrase, index: 0, scanner: WordScanner()) else { return nil }
        var key: [UInt8] = pattern.words[0]
        for k in pattern.separators.indices {
            // A byte that never occurs in UTF-8 marks where a word starts, so "a b" and "ab" differ.
            key.append(0xFF)
            key += pattern.separators[k]
            key.append(0xFF)
            key += pattern.words[k + 1]
        }
        return String(decoding: key, as: UTF8.self)
    }
}

extension WholeWords {
    /// For each of `phrases`, whether it copies a line of `text`: its words
    /// (case ignored, whatever stands between them) are all the words of one
    /// line, or a run of `minimumWords` or more words of one line, or a run of
    /// `minimumWordsAcrossLines` or more words across lines. Shorter runs (a
    /// topic named in one or two words) are no copy. One pass over `text`.
    package static func copiesALine(_ phrases: [String], of text: String, minimumWords: Int,
                                    minimumWordsAcrossLines: Int) -> [Bool] {
        var result = [Bool](repeating: false, count: phrases.count)
        let matcher = KeywordMatcher(phrases, separators: .any)
        guard !matcher.isEmpty else { return result }
        let scanner = WordScanner()
        let wordCounts = phrases.map { scanner.words(in: $0).count }
        var text = text
        var scratch = KeywordMatcher.Scratch()
        text.withUTF8 { p in
            scanner.scan(p)
            let words = scanner.words
            /// Whether a line break (or the text's edge) stands between word `a` and word `a + 1`.
            func lineEndsAfter(_ a: Int) -> Bool {
                guard a >= 0, a + 1 < words.count else { return true }
                return !KeywordPattern.isWithinLine(UnsafeBufferPointer(rebasing: p[words[a].upperBound..<words[a + 1].lowerBound]))
            }
            matcher.forEachMatch(in: p, words: words, overlapping: true, scratch: &scratch) { phrase, range in
                guard !result[phrase], let first = Self.index(of: range.lowerBound, in: words),
                      let last = Self.index(of: range.upperBound, in: words, end: true) else { return true }
                let withinLine = !(first..<last).contains(where: lineEndsAfter)
                if wordCounts[phrase] >= minimumWordsAcrossLines
                    || (withinLine && (wordCounts[phrase] >= minimumWords || (lineEndsAfter(first - 1) && lineEndsAfter(last)))) {
                    result[phrase] = true
                }
                return true
            }
        }
        return result
    }

    /// The index of the word starting (or, with `end`, ending) at byte `offset`, by binary search.
    private static func index(of offset: Int, in words: [Range<Int>], end: Bool = false) -> Int? {
        var low = 0, high = words.count
        while low < high {
            let mid = (low + high) / 2
            let key = end ? words[mid].upperBound : words[mid].lowerBound
            if key == offset { return mid }
            if key < offset { low = mid + 1 } else { high = mid }
        }
        return nil
    }
}
