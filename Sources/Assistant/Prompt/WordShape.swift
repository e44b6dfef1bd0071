/// What the keyword rules ask of one word: its length in `Character`s, how
/// many of those are letters and numbers, whether its letters are all
/// capitals, and its size in UTF-8 bytes.
///
/// Found in one pass over the bytes for an ASCII word (the usual case, where
/// every byte is a `Character`); through `Character`'s properties otherwise.
/// Keyword candidates and the fake model read words by it.
struct WordShape {
    /// The word's length in `Character`s.
    var characters = 0
    /// Its `Character`s that are letters.
    var letters = 0
    /// Its `Character`s that are numbers.
    var numbers = 0
    /// Whether every letter is a capital (true when there is none).
    var lettersAreCapitals = true
    /// Its length in UTF-8 bytes.
    var bytes = 0

    init(_ word: Substring) {
        bytes = word.utf8.count
        var ascii = true
        for b in word.utf8 {
            if b >= 0x80 { ascii = false; break }
            if (b | 0x20) &- 0x61 < 26 {
                letters += 1
                if b &- 0x61 < 26 { lettersAreCapitals = false }
            } else if b &- 0x30 < 10 {
                numbers += 1
            }
        }
        if ascii {
            characters = bytes
            return
        }
        letters = 0; numbers = 0; lettersAreCapitals = true
        for c in word {
            characters += 1
            if c.isLetter {
                letters += 1
                if !c.isUppercase { lettersAreCapitals = false }
            } else if c.isNumber {
                numbers += 1
            }
        }
    }
}
