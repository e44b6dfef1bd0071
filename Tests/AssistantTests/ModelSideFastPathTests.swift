import Foundation
import Testing
@testable import Assistant

/// The model side's fast paths (the fake's 64-byte letter masks and its word
/// table, the decoder's ASCII checks, typed flat JSON, ASCII needles) must
/// give exactly what the general code gives, on input chosen to trip them up.
@Suite struct ModelSideFastPathTests {
    /// A small deterministic generator (no seeding from the system).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: (state >> 33) % UInt64(bound))
        }
    }

    /// A word of `length` letters in mixed case.
    static func word(_ length: Int, _ g: inout Generator, alphabet: [UInt8] = Array("abcdeABCDE".utf8)) -> String {
        String(decoding: (0..<length).map { _ in alphabet[g.next(alphabet.count)] }, as: UTF8.self)
    }

    /// Pieces that sit on the edges of the ASCII letter ranges, the table's eight-byte loads and the slow path.
    static let separators = [" ", "  ", "\n", "\r\n", "\r", "1", "_", "@", "[", "`", "{", "-", "'", "é", "e\u{301}", "…", "\u{212A}",
                             "ǅ", "ß", "\u{301}", "日", "\t", "\u{7F}", "Z", "z", "A", "a"]

    @Test func randomTextsCountAsTheReferenceCounts() {
        var g = Generator(state: 8)
        let lengths = [1, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 63, 64, 65, 70, 130]
        for round in 0..<300 {
            var text = ""
            let pieces = 20 + g.next(200)
            // A few words repeat so that counts and ties matter.
            let vocabulary = (0..<(3 + g.next(6))).map { _ in Self.word(lengths[g.next(lengths.count)], &g) }
            for _ in 0..<pieces {
                switch g.next(5) {
                case 0: text += Self.word(lengths[g.next(lengths.count)], &g)
                case 1, 2: text += vocabulary[g.next(vocabulary.count)]
                case 3: text += vocabulary[g.next(vocabulary.count)].uppercased()
                default: text += ["\u{212A}elvin", "kelvin", "KELVIN", "straße", "éclair", "Éclair"][g.next(6)]
                }
                text += Self.separators[g.next(Self.separators.count)]
                if round % 3 == 0 { text += String(repeating: " ", count: g.next(70)) }
            }
            #expect(FakeAssistantModel.keywords(in: text) == CharacterStepsTests.referenceKeywords(in: text), "\(text)")
        }
    }

    @Test func wordsAcrossEveryBlockEdgeCountAsTheReferenceCounts() {
        // Long ASCII stretches (the 64-byte path) with words starting and ending at every offset of a block.
        for offset in 0..<70 {
            for length in [4, 5, 8, 9, 63, 64, 65, 129] {
                let pad = String(repeating: " ", count: offset)
                let word = String(repeating: "Ab", count: length / 2 + 1).prefix(length)
                let text = pad + word + " " + word.lowercased() + "," + String(repeating: "zz ", count: 30) + word.uppercased() + " tail tails tails"
                #expect(FakeAssistantModel.keywords(in: text) == CharacterStepsTests.referenceKeywords(in: text), "\(offset) \(length)")
                // The same with a non-ASCII character closing the stretch right after the word.
                let closed = pad + word + "é " + String(repeating: "q", count: offset) + " " + word
                #expect(FakeAssistantModel.keywords(in: closed) == CharacterStepsTests.referenceKeywords(in: closed), "\(offset) \(length)")
            }
        }
    }

    @Test func theLetterMaskIsTheLetterTest() {
        var g = Generator(state: 64)
        for count in 0...64 {
            for _ in 0..<40 {
                let bytes = (0..<count).map { _ in UInt8(g.next(128)) }
                let mask = bytes.withUnsafeBufferPointer { p in p.baseAddress.map { FakeAssistantModel.letterMask($0, count) } ?? 0 }
                var expected: UInt64 = 0
                for (k, b) in bytes.enumerated() where CharacterSteps.isASCIILetter(b) { expected |= 1 << UInt64(k) }
                #expect(mask == expected, "\(bytes)")
            }
        }
        // Every ASCII byte at every position of an eight-byte load.
        for b in 0..<128 {
            for k in 0..<8 {
                var bytes = [UInt8](repeating: 0x20, count: 8)
                bytes[k] = UInt8(b)
                let mask = bytes.withUnsafeBufferPointer { FakeAssistantModel.letterMask($0.baseAddress!, 8) }
                #expect(mask == (CharacterSteps.isASCIILetter(UInt8(b)) ? 1 << UInt64(k) : 0), "\(b) at \(k)")
            }
        }
    }

    @Test func theWordTableCountsByLowerCasedBytes() {
        let table = ASCIIWordCounts()
        func add(_ word: String) {
            Array(word.utf8).withUnsafeBufferPointer { table.addLetters($0.baseAddress!, $0.count) }
        }
        // Words that share their first and last eight bytes and their length (the hash's inputs) but differ inside.
        var expected: [String: Int] = [:]
        for middle in ["a", "b", "A", "ab", "ba", "aB", "abc", "cba"] {
            for times in 0..<(middle.count + 1) {
                let word = "ABCDEFGH" + middle + "stuvwxyz"
                add(word)
                expected[word.lowercased(), default: 0] += 1
                _ = times
            }
        }
        // Lengths 5 to 40, each in three spellings; enough distinct words to grow every buffer.
        for length in 5...40 {
            for spelling in [String(repeating: "q", count: length), String(repeating: "Q", count: length), "X" + String(repeating: "y", count: length - 1)] {
                add(spelling)
                expected[spelling.lowercased(), default: 0] += 1
            }
        }
        var g = Generator(state: 5)
        for _ in 0..<3_000 {
            let word = Self.word(5 + g.next(30), &g, alphabet: Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))
            add(word)
            expected[word.lowercased(), default: 0] += 1
        }
        #expect(table.count == expected.count)
        let best = expected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(2)
        #expect(table.bestTwo().map(\.0) == best.map(\.key))
        #expect(table.bestTwo().map(\.1) == best.map(\.value))
        // Ties go to the word that sorts first, whatever the order of arrival.
        let ties = ASCIIWordCounts()
        for word in ["zebra", "Apple", "mango", "APPLE", "ZEBRA", "Mango", "applf", "APPLF"] {
            Array(word.utf8).withUnsafeBufferPointer { ties.addLetters($0.baseAddress!, $0.count) }
        }
        #expect(ties.bestTwo().map(\.0) == ["apple", "applf"])
    }

    @Test func theKelvinSignCountsWithTheASCIIWords() {
        for text in ["\u{212A}elvin kelvin zebra zebra zebra", "KELVIN \u{212A}ELVIN Kelvin zebra zebra zebra \u{212A}elvin\u{301}",
                     String(repeating: "x ", count: 40) + "\u{212A}elvin kelvin " + String(repeating: "ab ", count: 40) + "zebras zebras"] {
            #expect(FakeAssistantModel.keywords(in: text) == CharacterStepsTests.referenceKeywords(in: text), "\(text)")
        }
        #expect(FakeAssistantModel.keywords(in: "\u{212A}elvin zebra kelvin") == ["kelvin", "zebra"])
    }

    @Test func answerJSONIsTheJoinedForm() throws {
        let lists: [[String]] = [[], ["one"], ["a\"b", "back\\slash", "tab\tx", "\u{1}", "déjà vu…"], ["", " ", "🎬", "{\"x\": 1}"]]
        for keywords in lists {
            for titles in lists {
                for emoji in ["🎬", "", "\"", "\n"] {
                    func list(_ items: [String]) -> String { "[" + items.map(AnswerJSON.string).joined(separator: ", ") + "]" }
                    let joined = #"{"keywords": \#(list(keywords)), "titles": \#(list(titles)), "emoji": \#(AnswerJSON.string(emoji))}"#
                    let encoded = AnswerJSON.encode(keywords: keywords, titles: titles, emoji: emoji)
                    #expect(encoded == joined)
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(encoded.utf8)) as? [String: Any])
                    #expect(object["keywords"] as? [String] == keywords)
                    #expect(object["titles"] as? [String] == titles)
                    #expect(object["emoji"] as? String == emoji)
                }
            }
        }
    }

    // MARK: Decoder

    /// The keyword checks written the general way (the code the ASCII path stands beside).
    static func referenceReason(_ keyword: String, maxLength: Int) -> String? {
        if keyword.contains(where: { SuggestionDecoder.markupCharacters.contains($0) }) { return "contains markup characters" }
        if keyword.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "contains control characters or line breaks"
        }
        if keyword.count > maxLength { return "longer than \(maxLength) characters" }
        return ""
    }

    @Test func asciiKeywordChecksAreTheGeneralChecks() {
        var keywords: [String] = []
        for b in 0..<128 {
            let c = String(decoding: [UInt8(b)], as: UTF8.self)
            keywords += [c, "a" + c, c + "b", "ab" + c + "cd"]
        }
        keywords += ["\r\n", "a\r\nb", "<i>", "x&y", "{x}", "abcde", "abcdef", "abcdefg", "ab cd", "\u{7F}x", "x\u{1F}"]
        for keyword in keywords {
            for maxLength in [1, 2, 4, 5, 6, 100] {
                #expect(SuggestionDecoder.asciiFlaw(keyword, maxLength: maxLength) == Self.referenceReason(keyword, maxLength: maxLength),
                        "\(Array(keyword.utf8)) \(maxLength)")
            }
        }
        // Non-ASCII keywords take the general path.
        for keyword in ["café", "e\u{301}", "\u{85}", "\u{212A}", "x\u{2028}y"] {
            #expect(SuggestionDecoder.asciiFlaw(keyword, maxLength: 100) == nil)
        }
    }

    @Test func trimmingIsFoundationsTrimming() {
        var texts: [String] = []
        for b in 0..<128 {
            let c = String(decoding: [UInt8(b)], as: UTF8.self)
            texts += [c, c + "x", "x" + c, c + "x" + c, c + c]
        }
        texts += ["\u{A0}x", "x\u{A0}", "\u{85}x\u{2028}", "\u{3000}x ", " x\u{200B}", "\r\n x \r\n", "é", " é ", "\u{FEFF}x"]
        for text in texts {
            #expect(SuggestionDecoder.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.unicodeScalars))")
        }
    }

    /// The answers, each decoded as it is (the flat reader) and with a number added (so `JSONSerialization` reads it).
    static let answers: [String] = [
        #"{"keywords": ["rocket", "Rocket", "ROCKET ", "launch", "<b>", "a\tb", "Mars", "", "  "], "titles": ["A", " B ", "", "C", "D\nE"], "emoji": " 🚀 "}"#,
        "{\"keywords\": [\"café\", \"cafe\u{301}\", \"CAFÉ\", \"e\u{301}cole\", \"\u{212A}elvin\", \"kelvin\"], \"titles\": [\"x\"], \"emoji\": \"ab\"}",
        #"{"keywords": ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17", "k18", "k1", "K17", "k19"], "titles": [], "emoji": "🎬"}"#,
        #"{"keywords": "rocket", "titles": "A", "emoji": ["🚀"]}"#,
        #"{"keywords": [], "titles": ["A", "B", "C"], "emoji": ""}"#,
        #"{"titles": ["A", "B", "C"]}"#,
        #"{"keywords": ["launch pad", "LAUNCH  PAD", "pad.", "crew", "crew\r\n"], "titles": ["One", "Two", "Three"], "emoji": "1"}"#,
    ]

    static let transcript = "Welcome to the launch pad. The rocket crew said café and école; \u{212A}elvin k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13 k14 k15 k16 k17 k18 k19 k20."

    @Test(arguments: answers)
    func flatAndGeneralAnswersDecodeAlike(_ answer: String) throws {
        let general = try #require(answer.firstIndex(of: "{")).utf16Offset(in: answer)
        var withNumber = answer
        withNumber.insert(contentsOf: #""n": 1, "#, at: String.Index(utf16Offset: general + 1, in: answer))
        #expect(FlatJSONObject.parse(Array(answer.utf8)[...]) != nil)
        #expect(FlatJSONObject.parse(Array(withNumber.utf8)[...]) == nil)
        for maxKeywords in [0, 1, 10, 17, 40] {
            let decoder = SuggestionDecoder(maxKeywords: maxKeywords, maxKeywordLength: 6)
            let flat = decoder.decode(answer, transcript: Self.transcript)
            let parsed = decoder.decode(withNumber, transcript: Self.transcript)
            #expect(flat == parsed, "\(answer)")
        }
    }

    @Test func keywordValidationIsTheReferenceValidation() throws {
        for answer in Self.answers {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
            guard let items = object["keywords"] as? [Any], !items.isEmpty else { continue }
            for maxKeywords in [1, 10, 17, 40] {
                let decoder = SuggestionDecoder(maxKeywords: maxKeywords, maxKeywordLength: 6)
                var dropped: [DroppedKeyword] = []
                let outcome = decoder.validateKeywords(.other(items), transcript: Self.transcript, dropped: &dropped)
                let reference = Self.referenceKeywords(items, transcript: Self.transcript, maxKeywords: maxKeywords, maxLength: 6)
                #expect(outcome == reference.outcome, "\(answer)")
                #expect(dropped == reference.dropped, "\(answer)")
            }
        }
    }

    /// The keyword validation written the plain way: every check general, a `Set` for duplicates.
    static func referenceKeywords(_ items: [Any], transcript: String, maxKeywords: Int, maxLength: Int) -> (outcome: ActionOutcome<[String]>, dropped: [DroppedKeyword]) {
        let haystack = ReferenceWholeWordMatcher(transcript)
        var kept: [String] = []
        var seen: Set<String> = []
        var dropped: [DroppedKeyword] = []
        for item in items {
            guard let raw = item as? String else {
                dropped.append(DroppedKeyword(keyword: SuggestionDecoder.describe(item), reason: "not text"))
                continue
            }
            let keyword = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let folded = keyword.lowercased()
            let general = referenceReason(keyword, maxLength: maxLength)
            let reason: String?
            if keyword.isEmpty {
                reason = "empty"
            } else if general != "" {
                reason = general
            } else if seen.contains(folded) {
                reason = "duplicate"
            } else if !haystack.containsWholeWord(keyword) {
                reason = "not in the transcript"
            } else if kept.count >= maxKeywords {
                reason = "more than \(maxKeywords) keywords"
            } else {
                reason = nil
            }
            if let reason {
                dropped.append(DroppedKeyword(keyword: keyword, reason: reason))
            } else {
                kept.append(keyword)
                seen.insert(folded)
            }
        }
        if kept.isEmpty {
            let list = dropped.map { "\(SuggestionDecoder.quote($0.keyword)) (\($0.reason))" }.joined(separator: ", ")
            return (.failed("No suggested keyword is usable: \(list)."), dropped)
        }
        return (.applied(kept), dropped)
    }

    @Test func asciiNeedlesMatchAsTheReferenceMatches() {
        let texts = ["K\u{212A}k kelvin \u{212A}elvin KELVIN", "a\r\nb a\nb", "rocket\u{301} rocket ROCKET_ rocket1 rocket", "ab\u{AD}cd abcd",
                     "Straße strasse STRASSE", "x y  x y", "ǅ dž DŽ", "launch… launch—pad launch pad"]
        let phrases = ["k", "K", "kelvin", "elvin", "a\nb", "a\r\nb", "b", "rocket", "ROCKET", "abcd", "strasse", "x y", "x  y", "dž",
                       "launch", "launch pad", "pad", "\n", " "]
        for text in texts {
            let matcher = WholeWordMatcher(text)
            let reference = ReferenceWholeWordMatcher(text)
            for phrase in phrases {
                #expect(matcher.utf8Ranges(of: phrase) == reference.utf8Ranges(of: phrase), "\(phrase) in \(text)")
            }
        }
    }
}
