import Words
@testable import Assistant

/// The local fallback as it was before issue 34 made it work on the
/// transcript's bytes once (word facts computed once per word, ASCII text
/// without `Character` work): the reference its differential test
/// (`LocalFallbackDifferentialTests`) holds `LocalFallback` to, byte for
/// byte, on every transcript it is given. Kept only as that oracle; the
/// product never calls it. It reads the same data tables (stop words,
/// annotations, the emoji table).
enum LocalFallbackReference {
    /// The most keywords given.
    static let maximumKeywords = 5
    /// The shortest and longest title, in `Character`s: the bounds of the model's titles.
    static let titleLength = AnswerSchema.titleLength
    /// The three actions for `transcript` (cue texts, one cue a line), whose
    /// language the captions declare as `language` (a BCP 47 tag), if they do.
    static func suggestions(for transcript: String, language declared: String?) -> Suggestions {
        let lines = transcript.split(whereSeparator: \.isNewline)
        let lineWords = lines.map { words(in: $0) }
        let language = self.language(declared: declared, words: lineWords.joined(), text: transcript)
        let stop = StopWords.of(language) ?? StopWords.all
        let counts = WordCounts(lineWords.joined(), stop: stop)

        let keywords = counts.keywords.filter { ServerTextGate.flaw($0, maxCharacters: SuggestionDecoder().maxKeywordLength) == nil }
        return Suggestions(
            keywords: keywords.isEmpty ? .failed("the transcript has no content word to emphasise (every word is short or a stop word)") : .applied(keywords),
            titles: titles(lines: lines, counts: counts, stop: stop, keywords: keywords),
            emoji: emoji(counts: counts, language: language, transcript: transcript))
    }

    /// The words of `text` (substrings of it), as the project's one word
    /// rule cuts them (`WordScanner`: Unicode word boundaries, ICU's
    /// dictionaries for scripts written without spaces), the rule the keyword
    /// candidates, the decoder and emphasis follow. The one place the
    /// fallback cuts words.
    static func words(in text: Substring) -> [Substring] {
        WordScanner().words(in: text)
    }

    // MARK: Language

    /// The languages with stop words, in the order that breaks ties.
    static let languages = ["en", "de", "es", "fr", "it", "pt", "ja"]

    /// The transcript's language: `declared` (its primary subtag) when there
    /// is a stop-word list for it; else Japanese when kana and kanji outnumber
    /// Latin letters; else the language whose stop words are most of its words.
    static func language<Words: Sequence<Substring>>(declared: String?, words: Words, text: String) -> String {
        if let declared, StopWords.of(declared) != nil {
            return declared.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        }
        var japanese = 0, latin = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3040...0x30FF, 0x4E00...0x9FFF: japanese += 1
            case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F: latin += 1
            default: break
            }
        }
        if japanese > latin { return "ja" }
        var hits = [Int](repeating: 0, count: languages.count)
        for word in words {
            let key = word.lowercased()
            for (i, language) in languages.enumerated() where StopWords.byLanguage[language]?.contains(key) == true { hits[i] += 1 }
        }
        guard let best = hits.indices.max(by: { (hits[$0], -$0) < (hits[$1], -$1) }), hits[best] > 0 else { return "en" }
        return languages[best]
    }

    // MARK: Keywords

    /// How often each content word occurs (compared in lower case), with the
    /// form it is given in and where it was first seen.
    struct WordCounts {
        struct Entry {
            /// The word as written: lower case when it ever occurs so, else as first seen.
            var form: String
            var count: Int
            var first: Int
        }
        /// By lower-cased word.
        var entries: [String: Entry] = [:]
        let stop: Set<String>

        init<Words: Sequence<Substring>>(_ words: Words, stop: Set<String>) {
            self.stop = stop
            for (index, word) in words.enumerated() where isContent(word, stop: stop) {
                let key = word.lowercased()
                let form = String(word)
                if var entry = entries[key] {
                    entry.count += 1
                    if form == key { entry.form = form }
                    entries[key] = entry
                } else {
                    entries[key] = Entry(form: form, count: 1, first: index)
                }
            }
        }

        /// How often the content word `word` occurs (0 for a stop word).
        func count(_ word: Substring) -> Int { entries[word.lowercased()]?.count ?? 0 }

        /// The keywords: the words seen twice or more, most frequent first;
        /// when none repeats, the three longest.
        var keywords: [String] {
            let repeated = entries.values.filter { $0.count >= 2 }
                .sorted { ($0.count, -$0.first) > ($1.count, -$1.first) }
            if !repeated.isEmpty { return repeated.prefix(maximumKeywords).map(\.form) }
            return entries.values.sorted { ($0.form.count, -$0.first) > ($1.form.count, -$1.first) }.prefix(3).map(\.form)
        }
    }

    /// Whether `word` is a content word: not a stop word, with a letter, at
    /// most 40 `Character`s; three or more in scripts written with spaces;
    /// two or more in those written without, and not all hiragana (Japanese
    /// particles and endings).
    static func isContent(_ word: Substring, stop: Set<String>) -> Bool {
        let count = word.count
        guard count <= 40, word.contains(where: \.isLetter) else { return false }
        if word.utf8.count >= 3 * count {
            return count >= 2
                && !word.unicodeScalars.allSatisfy { (0x3040...0x309F).contains($0.value) } && !stop.contains(String(word))
        }
        return count >= 3 && !stop.contains(word.lowercased())
    }

    // MARK: Emoji

    /// The emoji whose annotations in `language` name the content words the
    /// transcript uses most: each word counts as often as it occurs, and an
    /// annotation of several words (`AnnotationIndex.phrases`) as often as it occurs
    /// in `transcript` as whole words (ties: the emoji whose word was seen
    /// first, then table order).
    static func emoji(counts: WordCounts, language: String, transcript: String) -> ActionOutcome<String> {
        guard let index = LocalFallback.annotations[language] else {
            return .failed("there are no emoji annotations in the transcript's language (\(language))")
        }
        var scores: [String: (score: Int, first: Int)] = [:]
        for (key, entry) in counts.entries {
            var emoji = index[key]
            if emoji == nil, key.count > 3, key.hasSuffix("s") { emoji = index[String(key.dropLast())] }
            for e in emoji ?? [] {
                let seen = scores[e]
                scores[e] = ((seen?.score ?? 0) + entry.count, min(seen?.first ?? Int.max, entry.first))
            }
        }
        let phrases = AnnotationIndex.of(language)?.phrases ?? []
        for (annotation, found) in zip(phrases, WholeWords.occurrences(phrases.map(\.phrase), in: transcript)) {
            guard found.count > 0 else { continue }
            for e in annotation.emoji {
                let seen = scores[e]
                scores[e] = ((seen?.score ?? 0) + found.count, min(seen?.first ?? Int.max, found.firstWord ?? Int.max))
            }
        }
        let best = scores.min { a, b in
            (-a.value.score, a.value.first, LocalFallback.tableOrder[a.key] ?? Int.max) < (-b.value.score, b.value.first, LocalFallback.tableOrder[b.key] ?? Int.max)
        }
        guard let best else { return .failed("no word of the transcript is one that CLDR annotates an emoji of the table with") }
        return .applied(best.key)
    }

    // MARK: Titles

    /// Characters a title leaves out: quotes and brackets.
    static let leftOut: Set<Character> = ["\"", "“", "”", "„", "«", "»", "‹", "›", "(", ")", "[", "]", "{", "}"]
    /// Where a sentence ends (when white space or the end follows).
    /// (Music notes mark the lines of a song, as caption files write lyrics.)
    static let sentenceEnds: Set<Character> = [".", "!", "?", "…", "。", "！", "？", "♪", "♫", "♬"]
    /// Where a clause ends inside a sentence.
    static let clauseEnds: Set<Character> = [",", ";", ":", "—", "–", "、", "，"]

    /// A phrase that may be a title.
    struct TitleCandidate {
        var text: String
        var score: Int
        var sentence: Int
        var position: Int
        var copiesALine: Bool
        /// Cut short at the length bound (before its last content word).
        var cut: Bool
        /// Taken from a caption line rather than a sentence (for captions without punctuation).
        var fromLine = false
    }

    static func titles(lines: [Substring], counts: WordCounts, stop: Set<String>,
                       keywords: [String]) -> ActionOutcome<[String]> {
        let wholeLines = Set(lines.map { normalised($0) })
        let text = lines.joined(separator: " ")
        var candidates: [TitleCandidate] = []
        for (sentence, span) in spans(of: text[...], at: sentenceEnds).enumerated() {
            var pieces = [span]
            let clauses = spans(of: span, at: clauseEnds)
            if clauses.count > 1 { pieces += clauses }
            for piece in pieces {
                guard let phrase = trimmed(piece, stop: stop, counts: counts) else { continue }
                let title = cleaned(phrase.text)
                guard LocalFallback.isUsableTitle(title) else { continue }
                candidates.append(TitleCandidate(text: title, score: phrase.score, sentence: sentence, position: candidates.count,
                                                 copiesALine: wholeLines.contains(normalised(title[...])), cut: phrase.cut))
            }
        }
        // Captions written without punctuation (automatic ones) are one long
        // sentence: their lines are the phrases, after every sentence's.
        for (index, line) in lines.enumerated() {
            guard let phrase = trimmed(line, stop: stop, counts: counts) else { continue }
            let title = cleaned(phrase.text)
            guard LocalFallback.isUsableTitle(title) else { continue }
            candidates.append(TitleCandidate(text: title, score: phrase.score, sentence: -1 - index, position: candidates.count,
                                             copiesALine: wholeLines.contains(normalised(title[...])), cut: phrase.cut, fromLine: true))
        }
        // Whole clauses of sentences first, then phrases of lines, then those
        // cut at the bound; a copy of a whole caption line last.
        func rank(_ c: TitleCandidate) -> (Int, Int, Int, Int, Int) {
            (c.copiesALine ? 1 : 0, c.cut ? 1 : 0, c.fromLine ? 1 : 0, -c.score, c.position)
        }
        candidates.sort { rank($0) < rank($1) }
        var chosen: [String] = []
        var seen: Set<String> = []
        var usedSentences: Set<Int> = []
        // One title per sentence first, then any.
        for pass in 0..<2 {
            for c in candidates where chosen.count < 3 {
                let key = normalised(c.text[...])
                guard !seen.contains(key), pass == 1 || !usedSentences.contains(c.sentence) else { continue }
                chosen.append(c.text)
                seen.insert(key)
                usedSentences.insert(c.sentence)
            }
        }
        if chosen.count < 3, keywords.count >= 2 {
            let joined = keywords.prefix(3).map(capitalised).joined(separator: " · ")
            if LocalFallback.isUsableTitle(joined), !seen.contains(normalised(joined[...])) { chosen.append(joined) }
        }
        guard chosen.count == 3 else {
            return .failed("the transcript is too short to take three distinct titles of \(titleLength.lowerBound) to \(titleLength.upperBound) characters from (it gave \(chosen.count))")
        }
        return .applied(chosen)
    }

    /// The parts of `text` between the characters of `ends` (each end kept
    /// with the part before it, when white space or the end of `text` follows it).
    static func spans(of text: Substring, at ends: Set<Character>) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        while i < text.endIndex {
            let next = text.index(after: i)
            if ends.contains(text[i]), next == text.endIndex || text[next].isWhitespace || isUnspaced(text[i]) {
                parts.append(text[start..<next])
                start = next
            }
            i = next
        }
        if start < text.endIndex { parts.append(text[start...]) }
        return parts.filter { $0.contains(where: \.isLetter) }
    }

    /// Whether `c` is written in a script without spaces (its ends need none after them).
    static func isUnspaced(_ c: Character) -> Bool { c.utf8.count >= 3 }

    /// `piece` from its first to its last content word, cut at a content
    /// word's end to at most `titleLength.upperBound` characters; with
    /// its score (how often its distinct content words occur in all) and
    /// whether it was cut short before its last content word; nil
    /// when it has fewer than two words or no content word.
    static func trimmed(_ piece: Substring, stop: Set<String>, counts: WordCounts) -> (text: Substring, score: Int, cut: Bool)? {
        var found = words(in: piece)
        guard let firstContent = found.firstIndex(where: { isContent($0, stop: stop) }) else { return nil }
        found.removeFirst(firstContent)
        let start = found[0].startIndex
        let lastContent = found.lastIndex { isContent($0, stop: stop) } ?? 0
        // Forward, counting the characters as it goes, so a long piece (captions
        // with no punctuation are one sentence) costs only its first words.
        var last = -1, length = 0
        var end = start
        for i in found.indices {
            length += piece[end..<found[i].endIndex].count
            end = found[i].endIndex
            if length > titleLength.upperBound { break }
            if isContent(found[i], stop: stop) { last = i }
        }
        guard last >= 1 else { return nil }
        let kept = found[0...last]
        var distinct: Set<String> = []
        var score = 0
        for word in kept where isContent(word, stop: stop) && distinct.insert(word.lowercased()).inserted { score += counts.count(word) }
        guard score > 0 else { return nil }
        return (piece[start..<found[last].endIndex], score, last < lastContent)
    }

    /// A phrase as a title: quotes and brackets left out, white space made
    /// single spaces, the first letter a capital.
    static func cleaned(_ phrase: Substring) -> String {
        let kept = phrase.filter { !leftOut.contains($0) }
        return capitalised(kept.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    /// `text` with its first `Character` upper-cased.
    static func capitalised(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// A phrase compared as its words: lower case, one space between them.
    static func normalised(_ text: Substring) -> String {
        words(in: text).map { $0.lowercased() }.joined(separator: " ")
    }
}
