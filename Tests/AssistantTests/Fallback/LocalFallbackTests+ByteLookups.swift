import Testing
@testable import Assistant

/// The fallback's look-ups by a word's bytes (no `String` made or hashed)
/// must answer exactly what the `String`-keyed tables they stand for answer:
/// stop words (`asciiStopWords`), emoji annotations (`AnnotationIndex.ascii`),
/// and the byte test for sentence ends (`holdsAnASCIIEnd`).
@Suite struct LocalFallbackByteLookupTests {
    /// The three scalars whose canonical decomposition is ASCII: a `String`
    /// with them, and no other scalar outside ASCII, equals an ASCII one.
    static func equalsSomeASCIIString(_ word: String) -> Bool {
        word.unicodeScalars.allSatisfy { $0.isASCII || [0x037E, 0x1FEF, 0x212A].contains($0.value) }
    }

    /// `word` (ASCII) looked up by its bytes and the hash of its lowered bytes.
    static func withLowered<R>(_ word: String, _ body: (UnsafeBufferPointer<UInt8>, UInt64) -> R) -> R {
        var copy = word
        return copy.withUTF8 { p in
            body(p, p.reduce(LowerCaseTable.hashStart) { LowerCaseTable.hash($0, $1 &- 0x41 < 26 ? $1 | 0x20 : $1) })
        }
    }

    @Test func noStopWordOutsideASCIIEqualsAnASCIIWord() {
        for word in LocalFallback.stopWordLanguages.keys where !word.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect(!Self.equalsSomeASCIIString(word), "\(word)")
        }
    }

    @Test func noAnnotationOutsideASCIIEqualsAnASCIIWord() {
        for (language, index) in LocalFallback.annotations {
            for word in index.keys where !word.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(!Self.equalsSomeASCIIString(word), "\(language): \(word)")
            }
        }
    }

    /// Every list's word, in lower case and as written, in capitals (all,
    /// the first, all but the last), with a letter added or cut, and words
    /// no list has: the bytes' answer (short words' packed entries, long
    /// words' probe) is the dictionary's.
    @Test func stopWordsByBytesAreTheDictionarys() {
        var words = Set(LocalFallback.stopWordLanguages.keys.filter { $0.utf8.allSatisfy { $0 < 0x80 } })
        for word in Array(words) {
            words.insert(word.uppercased())
            words.insert(word.prefix(1).uppercased() + word.dropFirst())
            words.insert(word.dropLast().uppercased() + word.suffix(1))
            words.insert(word + "s")
            words.insert(String(word.dropLast()))
        }
        words.formUnion(["rocket", "", "x", "THE", "The", "tHe", "a", "zzzz", "don't", "l'"])
        for word in words {
            let expected = LocalFallback.stopWordLanguages[word.lowercased()] ?? 0
            #expect(Self.withLowered(word) { LocalFallback.stopWordLanguages(ofASCII: $0, lowered: $1) } == expected, "\(word)")
        }
    }

    /// Every annotation's word, its plural, and its letters cut or added:
    /// the bytes' answer (with the plural rule) is the dictionary's.
    @Test func annotationsByBytesAreTheDictionarys() {
        for (language, index) in LocalFallback.annotations {
            guard let tables = AnnotationIndex.of(language) else {
                Issue.record("\(language) has no index")
                continue
            }
            var keys = Set(index.keys.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.prefix(400))
            for key in Array(keys) {
                keys.insert(key + "s")
                keys.insert(String(key.dropLast()))
                keys.insert(key + "ss")
            }
            keys.formUnion(["", "s", "ss", "sss", "cats", "dogs", "rocket", "rockets", "bus", "ssss", "café", "cafés", "東京"])
            for key in keys {
                var expected = index[key]
                if expected == nil, key.count > 3, key.hasSuffix("s") { expected = index[String(key.dropLast())] }
                let found = LocalFallback.annotated(key, in: tables)
                #expect(found.map { $0.map { tables.emojiByNumber[Int($0)] } } == expected, "\(language): \(key)")
            }
        }
    }

    /// Each language's emoji numbers follow the table's order, and number
    /// every emoji its words name: numbers of two languages compare alike.
    @Test func emojiNumbersFollowTheTable() {
        for language in AnnotationIndex.languages {
            guard let tables = AnnotationIndex.of(language) else {
                Issue.record("\(language) has no index")
                continue
            }
            let orders = tables.emojiByNumber.map { LocalFallback.tableOrder[$0] ?? Int.max }
            #expect(orders == orders.sorted(), "\(language)")
            #expect(tables.emojiNumbers.count == tables.emojiByNumber.count, "\(language)")
            #expect(Set(tables.emojiByNumber) == Set(tables.words.values.joined()), "\(language)")
        }
    }

    /// The languages with an index are the languages of the annotations' lines, and no other.
    @Test func everyAnnotatedLanguageHasAnIndex() {
        #expect(Set(AnnotationIndex.languages) == Set(EmojiAnnotations.lines.keys))
        for language in EmojiAnnotations.lines.keys { #expect(AnnotationIndex.of(language) != nil, "\(language)") }
        for language in ["", "EN", "en-US", "nl", "zh"] { #expect(AnnotationIndex.of(language) == nil, "\(language)") }
    }

    /// Random eight-byte words, ASCII and not: the test says yes exactly when one of them is an ASCII end, and
    /// the count before the first end is exact.
    @Test func asciiEndTestIsExact() {
        var state: UInt64 = 34
        let interesting: [UInt8] = [0x2E, 0x21, 0x3F, 0x2C, 0x3B, 0x3A, 0x20, 0x61, 0x27, 0x30, 0x2D, 0x2F, 0x40, 0x3E, 0x22, 0x00, 0x01, 0x7F]
        for _ in 0..<50_000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            var bytes = [UInt8]()
            var s = state
            for _ in 0..<8 {
                bytes.append(s & 1 == 0 ? interesting[Int(s >> 1) % interesting.count] : UInt8((s >> 8) & 0x7F))
                s = s >> 5 | s << 59
            }
            let w = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let expected = bytes.contains { [0x2E, 0x21, 0x3F, 0x2C, 0x3B, 0x3A].contains($0) }
            #expect(LocalFallback.holdsAnASCIIEnd(w) == expected, "\(bytes)")
            // The sentence cut skips to the first end: how many bytes stand before it.
            let before = bytes.firstIndex { [0x2E, 0x21, 0x3F, 0x2C, 0x3B, 0x3A].contains($0) } ?? 8
            #expect(LocalFallback.asciiBytesBeforeAnEnd(UInt64(littleEndian: w)) == before, "\(bytes)")
        }
    }

    /// Every scalar as a `Character`, and characters of several scalars that
    /// start with a left-out one: the scalar look-up says what the set of `Character`s says.
    @Test func leftOutByScalarIsTheSetOfCharacters() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let character = Character(scalar)
            #expect(LocalFallback.isLeftOut(character) == LocalFallback.leftOut.contains(character), "U+\(String(value, radix: 16))")
        }
        for text in ["(\u{301}", "\"\u{20DD}", "«\u{200D}", "\r\n", "e\u{301}"] {
            let character = Character(text)
            #expect(LocalFallback.isLeftOut(character) == LocalFallback.leftOut.contains(character), "\(text.unicodeScalars.map(\.value))")
        }
    }

    /// The line keys' answers, read in turn for the first questions and
    /// hashed after them, are whether some line's words in lower case are the key's.
    @Test func lineKeysAnswerAlikeReadInTurnAndHashed() {
        let vocabulary = ["rocket", "launch", "Orbit", "the", "crew", "déjà", "vu", "ORBIT", "go"]
        var state: UInt64 = 35
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        let lines = (0..<60).map { _ in (0..<(1 + next(3))).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " ") }
        let text = FallbackText(lines.joined(separator: "\n"))
        let keys = Set(lines.map { $0.lowercased() })
        var lineKeys = LocalFallback.LineKeys()
        var asked = 0, found = 0
        for _ in 0..<(3 * LocalFallback.LineKeys.linearQuestions) {
            let key = (0..<(1 + next(3))).map { _ in vocabulary[next(vocabulary.count)].lowercased() }.joined(separator: " ")
            let answer = lineKeys.contains(key: key, in: text)
            #expect(answer == keys.contains(key), "\(key)")
            asked += 1
            if answer { found += 1 }
        }
        // Both answers came up, on both sides of the switch to hashing.
        #expect(asked > 2 * LocalFallback.LineKeys.linearQuestions && found > 0 && found < asked)
    }
}

extension LocalFallbackByteLookupTests {
    /// Random words, ASCII of one to twenty bytes (eight or fewer: one packed
    /// entry; longer: the byte arrays) in any case, with a NUL byte or the
    /// Kelvin sign, non-ASCII: a table that grows from a small capacity
    /// numbers them as a dictionary of their lower cases does (the first seen
    /// of equal `String`s), by `String` and by bytes, and knows the ones it was never given.
    @Test func lowerCaseNumbersAreADictionarysFirstSeen() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        let letters = Array("abcxyzABCXYZ09'-\u{0}".unicodeScalars)
        func word() -> String {
            switch next(10) {
            case 0: return "\u{212A}" + String(String.UnicodeScalarView((0..<next(6)).map { _ in letters[next(letters.count)] }))
            case 1: return "café" + String(next(3))
            default: return String(String.UnicodeScalarView((0..<(1 + next(20))).map { _ in letters[next(letters.count)] }))
            }
        }
        var table = LowerCaseTable(capacity: 4)
        var expected: [String: Int32] = [:]
        var given: [String] = []
        // Words that differ only in NUL bytes after them (their bytes alike as far as one goes), or in a ninth byte.
        var edges = ["", "\u{0}", "abcdefg", "abcdefg\u{0}", "abcdefgh", "abcdefghi", "ABCDEFGH", "abcdefgh\u{0}"]
        for _ in 0..<300 {
            let base = String(String.UnicodeScalarView((0..<(1 + next(5))).map { _ in letters[next(12)] }))
            edges += [base, base + "\u{0}", base + "\u{0}\u{0}"]
        }
        for k in 0..<3_000 + edges.count {
            let lower = (k < 3_000 ? word() : edges[k - 3_000]).lowercased()
            let wanted = expected[lower] ?? Int32(expected.count)
            if expected[lower] == nil { expected[lower] = wanted }
            given.append(lower)
            var bytes = lower
            let isASCII = lower.utf8.allSatisfy { $0 < 0x80 }
            let n = isASCII && next(2) == 0
                ? bytes.withUTF8 { p in table.number(ofASCII: p, lowered: p.reduce(LowerCaseTable.hashStart) { LowerCaseTable.hash($0, $1) }) }
                : table.number(of: lower)
            #expect(n == wanted, "\(lower.unicodeScalars.map(\.value))")
        }
        #expect(table.count == expected.count)
        for lower in given { #expect(table.number(ifPresent: lower) == expected[lower]) }
        for _ in 0..<500 {
            let lower = word().lowercased() + "q"
            if expected[lower] == nil { #expect(table.number(ifPresent: lower) == nil, "\(lower)") }
        }
    }
}

extension LocalFallbackByteLookupTests {
    /// Texts of lines of ASCII and non-ASCII words and gaps: a line word's
    /// `asciiSincePrevious` (found from the line's bytes when it is all ASCII)
    /// is whether the bytes from the word before it are, and `isASCII` (eight
    /// bytes at a time) answers as a byte walk at every range.
    @Test func asciiSincePreviousIsTheBytesBetween() {
        let pieces = ["rocket", "launch", "déjà", " ", ", ", " — ", "crew", "日本", "go", "\n", ". ", "x1", "café", "orbit", "  "]
        var state: UInt64 = 0x5DEE_CE66_D1CE_4E5B
        for _ in 0..<200 {
            var transcript = ""
            for _ in 0..<40 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                transcript += pieces[Int((state >> 33) % UInt64(pieces.count))]
            }
            let text = FallbackText(transcript)
            for i in 1..<max(1, text.lineWordCount) {
                let word = text.words[i], previous = text.words[i - 1]
                guard Int(word.characters) == word.range.count else { continue }
                let between = text.bytes[previous.range.upperBound..<word.range.lowerBound]
                #expect(word.asciiSincePrevious == between.allSatisfy { $0 < 0x80 }, "\(transcript)")
            }
            for start in stride(from: 0, to: text.bytes.count, by: 3) {
                for end in [start, start + 1, start + 7, start + 8, start + 9, start + 17, text.bytes.count] where end <= text.bytes.count {
                    #expect(text.isASCII(start..<end) == text.bytes[start..<end].allSatisfy { $0 < 0x80 })
                }
            }
        }
    }

    /// Random eight-byte ASCII words: the letters counted at once are the letters counted one by one.
    @Test func asciiLettersCountedAtOnceAreTheBytes() {
        var state: UInt64 = 37
        for _ in 0..<50_000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: state >> ($0 * 8)) & 0x7F }
            let w = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let expected = bytes.filter { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }.count
            #expect(LocalFallback.asciiLetterCount(w) == expected, "\(bytes)")
        }
    }

    /// Random texts of Latin letters, kana, kanji and other characters at
    /// random offsets: the byte walk with its eight-byte steps answers as a
    /// count of every scalar does.
    @Test func mostlyJapaneseIsTheScalarsCount() {
        let pieces = ["a", "Z", " ", "é", "ő", "ɏ", "の", "カ", "漢", "字", "1", ".", "—", "😀", "ß", "\u{301}"]
        var state: UInt64 = 38
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        for _ in 0..<3_000 {
            let text = (0..<next(200)).map { _ in pieces[next(pieces.count)] }.joined()
            var japanese = 0, latin = 0
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F: latin += 1
                case 0x3040...0x30FF, 0x4E00...0x9FFF: japanese += 1
                default: break
                }
            }
            #expect(LocalFallback.isMostlyJapanese(text) == (japanese > latin), "\(text)")
        }
    }
}

extension LocalFallbackByteLookupTests {
    /// A number below `n` from the xorshift generator whose state is `state` (the same numbers on every run).
    static func below(_ n: Int, _ state: inout UInt64) -> Int {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Int(state % UInt64(n))
    }

    /// Random words of one to eight bytes (ASCII letters of both cases, the
    /// bytes next to A, Z, a and z, digits, NUL, 0x7F, 0x80 and above), with
    /// random bytes after them: `FallbackText.shortASCII` (all the bytes at
    /// once) answers as a walk of the word's bytes one at a time does, and
    /// its packed bytes are `LowerCaseTable.packedLowered`'s.
    @Test func shortASCIIFactsAreTheByteWalks() {
        var state: UInt64 = 0x5107
        func next(_ n: Int) -> Int { Self.below(n, &state) }
        let interesting: [UInt8] = [0x40, 0x41, 0x42, 0x59, 0x5A, 0x5B, 0x60, 0x61, 0x62, 0x79, 0x7A, 0x7B,
                                    0x00, 0x30, 0x27, 0x2D, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        for _ in 0..<100_000 {
            let count = 1 + next(8)
            var bytes = (0..<8).map { _ in next(3) == 0 ? UInt8(next(256)) : interesting[next(interesting.count)] }
            // Most words all ASCII.
            if next(2) == 0 { for i in 0..<count { bytes[i] &= 0x7F } }
            let w = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            let word = Array(bytes[..<count])
            let got = FallbackText.shortASCII(UInt64(littleEndian: w), count: count)
            guard word.allSatisfy({ $0 < 0x80 }) else {
                #expect(got == nil, "\(word)")
                continue
            }
            let packed = word.withUnsafeBufferPointer { LowerCaseTable.packedLowered($0) }
            let hasCapital = word.contains { $0 >= 0x41 && $0 <= 0x5A }
            let hasLetter = hasCapital || word.contains { $0 >= 0x61 && $0 <= 0x7A }
            #expect(got?.packed == packed, "\(word)")
            #expect(got?.hasLetter == hasLetter, "\(word)")
            #expect(got?.hasCapital == hasCapital, "\(word)")
        }
    }

    /// Words of one to eight bytes that differ only after their length, in
    /// case, or by NUL bytes: the short table numbers them as a dictionary
    /// of their lower cases does, by `number(ofShortPacked:count:)` and by
    /// `number(ofASCII:lowered:)` alike, and the shared table's short look-up
    /// is its look-up by bytes.
    @Test func shortPackedNumbersAreTheDictionarys() {
        var table = LowerCaseTable(capacity: 4)
        var expected: [String: Int32] = [:]
        var state: UInt64 = 77
        func next(_ n: Int) -> Int { Self.below(n, &state) }
        let letters = Array("abcdeABCDE\u{0}1'".utf8)
        for _ in 0..<20_000 {
            let word = (0..<(1 + next(8))).map { _ in letters[next(letters.count)] }
            let lower = String(decoding: word.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
            let wanted = expected[lower] ?? Int32(expected.count)
            if expected[lower] == nil { expected[lower] = wanted }
            let n = word.withUnsafeBufferPointer { p in
                next(2) == 0 ? table.number(ofShortPacked: LowerCaseTable.packedLowered(p), count: p.count)
                    : table.number(ofASCII: p, lowered: p.reduce(LowerCaseTable.hashStart) { LowerCaseTable.hash($0, $1 &- 0x41 < 26 ? $1 | 0x20 : $1) })
            }
            #expect(n == wanted, "\(word)")
        }
        #expect(table.count == expected.count)
        // Every other word's value, and words of nine bytes: the shared table answers as a dictionary.
        let kept = expected.keys.sorted().enumerated().filter { $0.offset % 2 == 0 }.map { ($1, $0) }
        let values = Dictionary(uniqueKeysWithValues: kept)
        let shared = LowerCaseTable.Shared<Int>(kept + [("abcdeabcd", -1)])
        for _ in 0..<5_000 {
            let word = (0..<(1 + next(9))).map { _ in letters[next(letters.count)] }
            let lower = String(decoding: word.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
            word.withUnsafeBufferPointer { p in
                let byBytes = shared.value(ofASCII: p, lowered: p.reduce(LowerCaseTable.hashStart) { LowerCaseTable.hash($0, $1 &- 0x41 < 26 ? $1 | 0x20 : $1) })
                #expect(byBytes == (lower == "abcdeabcd" ? -1 : values[lower]), "\(word)")
                if p.count <= 8 { #expect(shared.value(ofShortPacked: LowerCaseTable.packedLowered(p)) == values[lower], "\(word)") }
            }
        }
    }
}
