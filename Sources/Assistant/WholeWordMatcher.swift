/// Answers whether a word or phrase occurs in a text as a whole word, ignoring case.
///
/// Works on `Character`s after lower-casing, so it is Unicode-aware: "AI" is
/// not found inside "said", and "café" written with a combining accent matches
/// the precomposed form.
struct WholeWordMatcher {
    private let text: [Character]

    /// Prepares `text` for searching.
    init(_ text: String) {
        self.text = Array(text.lowercased())
    }

    /// Whether `phrase` occurs with no letter, digit or underscore directly before or after it.
    func containsWholeWord(_ phrase: String) -> Bool {
        let needle = Array(phrase.lowercased())
        guard !needle.isEmpty, needle.count <= text.count else { return false }
        var start = 0
        while start + needle.count <= text.count {
            if text[start] == needle[0], text[start..<(start + needle.count)].elementsEqual(needle) {
                let before = start > 0 ? text[start - 1] : nil
                let afterIndex = start + needle.count
                let after = afterIndex < text.count ? text[afterIndex] : nil
                if !Self.isWordCharacter(before), !Self.isWordCharacter(after) { return true }
            }
            start += 1
        }
        return false
    }

    static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }
}
