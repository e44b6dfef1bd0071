import Foundation
import Testing
import Captions
@testable import Assistant
import Words
import JSON

/// `SuggestionDecoder` against reference versions written the plain way: its
/// ASCII keyword checks, its ASCII needles and its answer writer must give
/// exactly what the general code gives, on input chosen to trip them up.
@Suite struct SuggestionDecoderReferenceTests {
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

    @Test func answersAreTheJoinedFormAndFoundationReadsThemBack() throws {
        let lists: [[String]] = [[], ["one"], ["a\"b", "back\\slash", "tab\tx", "\u{1}", "déjà vu…"], ["", " ", "🎬", "{\"x\": 1}"]]
        for keywords in lists {
            for titles in lists {
                for emoji in ["🎬", "", "\"", "\n"] {
                    func string(_ text: String) -> String { JSONValue.string(text).oneLine(spaced: true) }
                    func list(_ items: [String]) -> String { "[" + items.map(string).joined(separator: ", ") + "]" }
                    let joined = #"{"keywords": \#(list(keywords)), "titles": \#(list(titles)), "emoji": \#(string(emoji))}"#
                    let encoded = SuggestionDecoder.answer(keywords: keywords, titles: titles, emoji: emoji)
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

    /// The answers, each decoded as it is and with an unknown field added (which changes nothing).
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
    func anUnknownFieldChangesNoDecision(_ answer: String) throws {
        let general = try #require(answer.firstIndex(of: "{")).utf16Offset(in: answer)
        var withNumber = answer
        withNumber.insert(contentsOf: #""n": 1, "#, at: String.Index(utf16Offset: general + 1, in: answer))
        for maxKeywords in [0, 1, 10, 17, 40] {
            let decoder = SuggestionDecoder(maxKeywords: maxKeywords, maxKeywordLength: 6)
            let flat = decoder.decode(answer, transcript: Self.transcript)
            let parsed = decoder.decode(withNumber, transcript: Self.transcript)
            #expect(flat == parsed, "\(answer)")
        }
    }

    @Test func keywordValidationIsTheReferenceValidation() throws {
        for answer in Self.answers {
            let object = try #require(JSONValue.parse(Array(answer.utf8)))
            guard case .array(let items)? = object["keywords"], !items.isEmpty else { continue }
            for maxKeywords in [1, 10, 17, 40] {
                let decoder = SuggestionDecoder(maxKeywords: maxKeywords, maxKeywordLength: 6)
                var dropped: [DroppedKeyword] = []
                let outcome = decoder.validateKeywords(.array(items), transcript: Self.transcript, dropped: &dropped)
                let reference = Self.referenceKeywords(items, transcript: Self.transcript, maxKeywords: maxKeywords, maxLength: 6)
                #expect(outcome == reference.outcome, "\(answer)")
                #expect(dropped == reference.dropped, "\(answer)")
            }
        }
    }

    /// The keyword validation written the plain way: every check general, a
    /// `Set` for duplicates, the transcript searched once for each keyword.
    static func referenceKeywords(_ items: [JSONValue], transcript: String, maxKeywords: Int, maxLength: Int) -> (outcome: ActionOutcome<[String]>, dropped: [DroppedKeyword]) {
        var kept: [String] = []
        var seen: Set<String> = []
        var dropped: [DroppedKeyword] = []
        for item in items {
            guard case .string(let raw) = item else {
                dropped.append(DroppedKeyword(keyword: SuggestionDecoder.describe(item), reason: "not text"))
                continue
            }
            let keyword = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let folded = WholeWords.comparisonKey(keyword) ?? keyword.lowercased()
            let general = referenceReason(keyword, maxLength: maxLength)
            let reason: String?
            if keyword.isEmpty {
                reason = "empty"
            } else if general != "" {
                reason = general
            } else if seen.contains(folded) {
                reason = "duplicate"
            } else if !WholeWords.contains(keyword, in: transcript) {
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
        // Kept as the gate shows server text, and listed up to its bounds (the rest counted in one entry).
        dropped = dropped.map { DroppedKeyword(keyword: ServerTextGate.shown($0.keyword), reason: $0.reason) }
        var listed: [DroppedKeyword] = []
        var bytes = 0
        for entry in dropped.prefix(ServerTextGate.listedItems) {
            let size = entry.keyword.utf8.count + 1 + entry.reason.utf8.count
            guard bytes + size <= ServerTextGate.listBytes else { break }
            listed.append(entry)
            bytes += size
        }
        let more = dropped.count - listed.count
        if more > 0 { listed.append(DroppedKeyword(keyword: "…", reason: "\(more) more keyword\(more == 1 ? "" : "s") dropped, not listed")) }
        if kept.isEmpty {
            let list = ServerTextGate.list(dropped.map { "\(SuggestionDecoder.quote($0.keyword)) (\($0.reason))" }, separator: ", ")
            return (.failed("No suggested keyword is usable: \(list)."), listed)
        }
        return (.applied(kept), listed)
    }
}
