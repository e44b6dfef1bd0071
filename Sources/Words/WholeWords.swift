/// The one word rule on `String`s: whether words and phrases occur in a text
/// as whole words, for the callers that hold text as a `String` (the
/// suggestion decoder, keyword candidates, the fake model).
package enum WholeWords {
    /// For each of `phrases`, whether it occurs in `text` as whole words, case
    /// ignored (`KeywordMatcher`); each phrase is looked for on its own (a
    /// phrase inside another one's match still counts). One pass over `text`.
    package static func found(_ phrases: [String], in text: String,
                              separators: KeywordMatcher.Separators = .asWritten) -> [Bool] {
        var result = [Bool](repeating: false, count: phrases.count)
        let matcher = KeywordMatcher(phrases, separators: separators)
        guard !matcher.isEmpty else { return result }
        var text = text
        let scanner = WordScanner()
        var scratch = KeywordMatcher.Scratch()
        text.withUTF8 { p in
            scanner.scan(p)
            matcher.forEachMatch(in: p, words: scanner.words, overlapping: true, scratch: &scratch) { keyword, _ in
                result[keyword] = true
                return true
            }
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
