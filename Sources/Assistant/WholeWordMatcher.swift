/// Finds a word or phrase in a text as a whole word, ignoring case.
///
/// Works `Character` by `Character`, each lower-cased on its own, so it is
/// Unicode-aware and never splits a grapheme: "AI" is not found inside "said",
/// and "café" written with a combining accent matches the precomposed form.
/// The decoder uses it to check keywords against the transcript; the pipeline
/// can use `utf8Ranges(of:)` to place emphasis with the same definition of a word.
public struct WholeWordMatcher: Sendable {
    private let characters: [Character]
    private let folded: [String]
    /// UTF-8 offset where each character starts, plus the text's UTF-8 length at the end.
    private let utf8Starts: [Int]

    /// Prepares `text` for searching.
    public init(_ text: String) {
        let characters = Array(text)
        var starts: [Int] = []
        starts.reserveCapacity(characters.count + 1)
        var offset = 0
        for character in characters {
            starts.append(offset)
            offset += character.utf8.count
        }
        starts.append(offset)
        self.characters = characters
        self.folded = characters.map { $0.lowercased() }
        self.utf8Starts = starts
    }

    /// Whether `phrase` occurs with no letter, digit or underscore directly before or after it.
    public func containsWholeWord(_ phrase: String) -> Bool {
        !characterRanges(of: phrase, limit: 1).isEmpty
    }

    /// The UTF-8 byte ranges of every whole-word occurrence of `phrase`, left to right, never overlapping.
    public func utf8Ranges(of phrase: String) -> [Range<Int>] {
        characterRanges(of: phrase, limit: Int.max).map { utf8Starts[$0.lowerBound]..<utf8Starts[$0.upperBound] }
    }

    private func characterRanges(of phrase: String, limit: Int) -> [Range<Int>] {
        let needle = phrase.map { $0.lowercased() }
        guard let head = needle.first, needle.count <= folded.count else { return [] }
        var found: [Range<Int>] = []
        var start = 0
        while start + needle.count <= folded.count, found.count < limit {
            let end = start + needle.count
            if folded[start] == head, folded[start..<end].elementsEqual(needle),
               !Self.isWordCharacter(start > 0 ? characters[start - 1] : nil),
               !Self.isWordCharacter(end < characters.count ? characters[end] : nil) {
                found.append(start..<end)
                start = end
            } else {
                start += 1
            }
        }
        return found
    }

    /// Letters, digits and `_` make up words; anything else separates them.
    static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }
}
