/// The words and short phrases of a transcript that may be offered as keywords.
///
/// The HTTP backend sends them as the `enum` of the answer's keyword items, so
/// a grammar-constrained model can only name a whole word or phrase that is
/// really in the transcript part it was sent. The list is bounded
/// (`maximumCount`) so the grammar stays small: words of four or more
/// letters (or acronyms of two or more capitals, or numbers of four or more
/// digits) that are not common function words, most frequent first (ties:
/// first seen), then two-word phrases that occur twice or more, or that are
/// two capitalised words (a name). Each is written as it first appears.
///
/// The decoder still checks every keyword afterwards: this list only narrows
/// what a server that honours the schema lets the model say. Given the
/// pipeline's word rule (`keeping`), only candidates that rule finds as whole
/// words are offered, so every item the grammar allows is one the decoder
/// keeps (this split alone would offer "rocket" from "rocket_launch").
public enum KeywordCandidates {
    /// The most candidates offered.
    public static let maximumCount = 48
    /// The most two-word phrases among them.
    public static let maximumPhrases = 12

    /// The candidates for `transcript`, at most `limit`.
    public static func from(_ transcript: String, limit: Int = maximumCount, keeping wholeWord: WholeWordTest? = nil) -> [String] {
        guard limit > 0 else { return [] }
        var counts: [String: (form: String, count: Int, first: Int)] = [:]
        var pairs: [String: (form: String, count: Int, first: Int, names: Bool)] = [:]
        var index = 0
        for line in transcript.split(whereSeparator: \.isNewline) {
            var previous: (word: String, eligible: Bool, capitalised: Bool)? = nil
            for piece in words(in: Substring(line)) {
                let word = String(piece.text)
                let eligible = isEligible(word)
                let capitalised = word.first?.isUppercase ?? false
                if eligible {
                    let key = word.lowercased()
                    if let seen = counts[key] {
                        counts[key] = (seen.form, seen.count + 1, seen.first)
                    } else {
                        counts[key] = (word, 1, index)
                    }
                }
                if let before = previous, before.eligible, eligible, !piece.afterBreak {
                    let phrase = before.word + " " + word
                    let key = phrase.lowercased()
                    let names = before.capitalised && capitalised
                    if let seen = pairs[key] {
                        pairs[key] = (seen.form, seen.count + 1, seen.first, seen.names || names)
                    } else {
                        pairs[key] = (phrase, 1, index, names)
                    }
                }
                previous = (word, eligible, capitalised)
                index += 1
            }
        }
        let offered: (String) -> Bool = { candidate in wholeWord?(candidate, transcript) ?? true }
        let phrases = pairs.values
            .filter { ($0.count >= 2 || $0.names) && offered($0.form) }
            .sorted { ($0.count, -$0.first) > ($1.count, -$1.first) }
            .prefix(min(maximumPhrases, limit / 4))
            .map(\.form)
        let single = counts.values
            .filter { offered($0.form) }
            .sorted { ($0.count, -$0.first) > ($1.count, -$1.first) }
            .prefix(limit - phrases.count)
            .map(\.form)
        return single + phrases
    }

    /// The words of one line: runs of letters, digits and marks, with an
    /// apostrophe or hyphen inside; `afterBreak` when punctuation (not only a
    /// space) stands between it and the word before.
    static func words(in line: Substring) -> [(text: Substring, afterBreak: Bool)] {
        var result: [(text: Substring, afterBreak: Bool)] = []
        var start: Substring.Index? = nil
        var sawBreak = false
        var i = line.startIndex
        func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }
        while i < line.endIndex {
            let c = line[i]
            let next = line.index(after: i)
            if isWordCharacter(c) {
                if start == nil { start = i }
            } else if start != nil, c == "'" || c == "’" || c == "-",
                      next < line.endIndex, isWordCharacter(line[next]) {
                // inside a word: don't, well-known
            } else {
                if let s = start {
                    result.append((line[s..<i], sawBreak))
                    start = nil
                    sawBreak = false
                }
                if !c.isWhitespace { sawBreak = true }
            }
            i = next
        }
        if let s = start { result.append((line[s...], sawBreak)) }
        return result
    }

    /// Whether a word may be a keyword on its own.
    static func isEligible(_ word: String) -> Bool {
        if word.count > 40 { return false }
        if word.allSatisfy(\.isNumber) { return word.count >= 4 }
        let letters = word.filter(\.isLetter)
        if letters.count >= 2, letters.count <= 5, letters.allSatisfy(\.isUppercase) { return true }
        guard word.count >= 4 else { return false }
        return !functionWords.contains(word.lowercased())
    }

    /// Common words that make poor keywords: the stop words of every
    /// language (`StopWords`; shorter words are never candidates but as acronyms).
    static var functionWords: Set<String> { StopWords.all }
}
