/// Finds a word or phrase in a text as a whole word, ignoring case.
///
/// Works `Character` by `Character`, each lower-cased on its own, so it is
/// Unicode-aware and never splits a grapheme: "AI" is not found inside "said",
/// and "café" written with a combining accent matches the precomposed form.
/// The decoder uses it to check keywords against the transcript; the pipeline
/// can use `utf8Ranges(of:)` to place emphasis with the same definition of a word.
///
/// The text is not copied into `Character`s: it is walked by UTF-8 offset
/// (`CharacterSteps`), comparing ASCII characters byte by byte and only
/// other characters through `String.lowercased()` and `String` equality, so the
/// cost is one pass over the bytes per phrase and no allocation per character.
public struct WholeWordMatcher: Sendable {
    private let text: String

    /// Prepares `text` for searching.
    public init(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        self.text = text
    }

    /// Whether `phrase` occurs with no letter, digit or underscore directly before or after it.
    public func containsWholeWord(_ phrase: String) -> Bool {
        !ranges(of: phrase, limit: 1).isEmpty
    }

    /// The UTF-8 byte ranges of every whole-word occurrence of `phrase`, left to right, never overlapping.
    public func utf8Ranges(of phrase: String) -> [Range<Int>] {
        ranges(of: phrase, limit: Int.max)
    }

    /// The phrase's `Character`s, lower-cased one by one; `ascii` holds the byte of each that is a single ASCII byte.
    private struct Needle {
        /// Empty when every `Character` is a single ASCII byte: then `ascii` says it all.
        var folded: [String]
        var ascii: [UInt8?]
        var count: Int

        init(_ phrase: String) {
            // A phrase of ASCII bytes with no CR (so no CR LF): each byte is a `Character`, lower-cased on its own.
            if phrase.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
                folded = []
                ascii = phrase.utf8.map { CharacterSteps.asciiLower($0) }
                count = ascii.count
                return
            }
            folded = phrase.map { $0.lowercased() }
            ascii = folded.map { f in
                let utf8 = f.utf8
                guard utf8.count == 1, let b = utf8.first, b < 0x80 else { return nil }
                return b
            }
            count = folded.count
        }

        /// The `k`th `Character`, lower-cased.
        func folded(_ k: Int) -> String {
            if folded.isEmpty, let b = ascii[k] { return String(decoding: CollectionOfOne(b), as: UTF8.self) }
            return folded[k]
        }

        /// Whether the text's `Character` at `r`, lower-cased, equals the needle's `k`th.
        @inline(__always)
        func matches(_ k: Int, _ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
            if CharacterSteps.isSingleASCII(p, r) {
                let lower = CharacterSteps.asciiLower(p[r.lowerBound])
                if let b = ascii[k] { return lower == b }
                return String(decoding: CollectionOfOne(lower), as: UTF8.self) == folded(k)
            }
            return CharacterSteps.string(p, r).lowercased() == folded(k)
        }
    }

    private func ranges(of phrase: String, limit: Int) -> [Range<Int>] {
        let needle = Needle(phrase)
        guard needle.count > 0 else { return [] }
        return CharacterSteps.withBytes(text) { p, text in
            var found: [Range<Int>] = []
            let n = p.count
            var previous: Range<Int>? = nil
            var start = 0
            let head = needle.ascii[0]
            while start < n, found.count < limit {
                // Skip, byte by byte, ASCII characters (an ASCII byte before another ASCII byte,
                // not CR LF) that cannot start the phrase: each is a whole `Character`.
                if let head {
                    let from = start
                    while start + 1 < n {
                        let b = p[start], c = p[start + 1]
                        if b >= 0x80 || c >= 0x80 || (b == 0x0D && c == 0x0A) || CharacterSteps.asciiLower(b) == head { break }
                        start += 1
                    }
                    if start > from { previous = start - 1..<start }
                }
                let first = start..<CharacterSteps.end(of: start, in: p, text: text)
                var at = first.upperBound
                var last = first
                var matched = needle.matches(0, p, first)
                var k = 1
                while matched && k < needle.count {
                    guard at < n else { matched = false; break }
                    let next = at..<CharacterSteps.end(of: at, in: p, text: text)
                    matched = needle.matches(k, p, next)
                    last = next
                    at = next.upperBound
                    k += 1
                }
                if matched, !Self.isWordCharacter(previous.map { (p, $0) }),
                   !Self.isWordCharacter(at < n ? (p, at..<CharacterSteps.end(of: at, in: p, text: text)) : nil) {
                    found.append(start..<at)
                    previous = last
                    start = at
                } else {
                    previous = first
                    start = first.upperBound
                }
            }
            return found
        }
    }

    /// Whether the `Character` at the given bytes is a word character (nil: none).
    @inline(__always)
    private static func isWordCharacter(_ at: (UnsafeBufferPointer<UInt8>, Range<Int>)?) -> Bool {
        guard let (p, r) = at else { return false }
        if CharacterSteps.isSingleASCII(p, r) {
            let b = p[r.lowerBound]
            return CharacterSteps.isASCIILetter(b) || b &- 0x30 < 10 || b == 0x5F
        }
        let simple = CharacterSteps.simpleLength(p, r.lowerBound)
        if simple != 0 && simple == r.count {
            let value = CharacterSteps.simpleScalar(p, r.lowerBound, length: simple)
            return CharacterSteps.simpleClass[CharacterSteps.simpleIndex(value)] & (CharacterSteps.letterBit | CharacterSteps.numberBit) != 0
        }
        return isWordCharacter(CharacterSteps.character(p, r))
    }

    /// Letters, digits and `_` make up words; anything else separates them.
    static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }
}
