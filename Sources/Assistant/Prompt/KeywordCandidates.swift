import Words

/// The words and short phrases of a transcript that may be offered as keywords.
///
/// The HTTP backend sends them as the `enum` of the answer's keyword items
/// (`AnswerSchema.keywords`), so a grammar-constrained model can only name a
/// whole word or phrase that is really in the transcript part it was sent.
/// Words are the one word rule's (`WordScanner`), so every candidate is one
/// the decoder keeps and emphasis finds. The list is bounded (`maximumCount`)
/// so the grammar stays small: eligible words (`isEligible`), most frequent
/// first (ties: first seen), then two-word phrases that occur twice or more,
/// or that are two capitalised words (a name). Each is written as it first
/// appears (a phrase with the text between its words as written).
///
/// The decoder still checks every keyword afterwards: this list only narrows
/// what a server that honours the schema lets the model say.
public enum KeywordCandidates {
    /// The most candidates offered.
    public static let maximumCount = 48
    /// The most two-word phrases among them.
    public static let maximumPhrases = 12

    /// The candidates for `transcript`, at most `limit`.
    public static func from(_ transcript: String, limit: Int = maximumCount) -> [String] {
        guard limit > 0 else { return [] }
        var counts: [String: (form: String, count: Int, first: Int)] = [:]
        var pairs: [String: (form: String, count: Int, first: Int, names: Bool)] = [:]
        var index = 0
        var previous: (word: Substring, eligible: Bool, capitalised: Bool)? = nil
        // The whole transcript is cut at once (a line break always ends a word);
        // a line break between two words ends the phrase too.
        for word in WordScanner().words(in: transcript) {
            let eligible = isEligible(word)
            let first = word.utf8.first ?? 0
            let capitalised = first < 0x80 ? first &- 0x41 < 26 : word.first?.isUppercase ?? false
            if eligible {
                let key = word.lowercased()
                if let seen = counts[key] {
                    counts[key] = (seen.form, seen.count + 1, seen.first)
                } else {
                    counts[key] = (String(word), 1, index)
                }
            }
            // Two words with only white space on one line (or nothing, in
            // scripts written without spaces) between them make a phrase.
            if let before = previous, before.eligible, eligible,
               spacesOnly(word.base.utf8[before.word.endIndex..<word.startIndex]) {
                let phrase = String(word.base[before.word.startIndex..<word.endIndex])
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
        let phrases = pairs.values
            .filter { $0.count >= 2 || $0.names }
            .sorted { ($0.count, -$0.first) > ($1.count, -$1.first) }
            .prefix(min(maximumPhrases, limit / 4))
            .map(\.form)
        let single = counts.values
            .sorted { ($0.count, -$0.first) > ($1.count, -$1.first) }
            .prefix(limit - phrases.count)
            .map(\.form)
        return single + phrases
    }

    /// Whether the text between two words is white space without a line break
    /// (ASCII byte by byte; other white space through `Character`).
    static func spacesOnly(_ gap: Substring.UTF8View) -> Bool {
        if gap.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return true }
        if gap.contains(where: { $0 == 0x0A || $0 == 0x0D }) { return false }
        return Substring(gap).allSatisfy { $0.isWhitespace && !$0.isNewline }
    }

    /// Whether a word may be a keyword on its own: at most 40 `Character`s;
    /// a number (no letter) of four or more digits; an acronym (two to five
    /// capital letters) that is not a stop word in lower case; not a web
    /// address (`CueLineParts.isWebAddress`); a word of two or more `Character`s in the scripts
    /// whose characters are syllables or ideographs (three or more UTF-8 bytes
    /// each: Chinese, Japanese, Korean, Thai…) unless it is all hiragana (the
    /// particles and endings of Japanese); else a word of four or more
    /// `Character`s that is not a common function word (`StopWords`).
    static func isEligible(_ word: Substring) -> Bool {
        let shape = WordShape(word)
        let count = shape.characters
        if count > 40 { return false }
        if shape.letters == 0 { return shape.numbers >= 4 }
        // Stop words in any letter case: the all-caps captions of a French film gave SUIS, DES, LES, ET, QUI.
        if shape.letters >= 2, shape.letters <= 5, shape.lettersAreCapitals { return !functionWords.contains(word.lowercased()) }
        if word.contains("."), CueLineParts.isWebAddress(word) { return false }
        if shape.bytes >= 3 * count {
            return count >= 2 && !word.unicodeScalars.allSatisfy { (0x3040...0x309F).contains($0.value) }
        }
        guard count >= 4 else { return false }
        return !functionWords.contains(word.lowercased())
    }

    /// Common words that make poor keywords: the stop words of every
    /// language (`StopWords`; shorter words are never candidates but as acronyms).
    static var functionWords: Set<String> { StopWords.all }
}
