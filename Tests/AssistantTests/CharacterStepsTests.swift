import Testing
@testable import Assistant

/// The UTF-8 fast paths must give exactly what the `Character`-by-`Character`
/// definitions give; these tests compare them with straightforward reference
/// versions (the code the fast paths replaced) on text chosen to trip them up.
@Suite struct CharacterStepsTests {
    static let tricky: [String] = [
        "", "a", "ab", "Rocket rocket ROCKET", "e\u{301}cole", "cafe\u{301} Café CAFÉ", "a\r\nb\r\n", "\r\n\u{301}x",
        "\r", "x\r", "\u{1F1FA}\u{1F1F8}\u{1F1EB}\u{1F1F7}\u{1F1E9}", "👨‍👩‍👧 family", "\u{600}1 \u{600}a", "\u{915}\u{94D}\u{937}",
        "K\u{212A}k kelvin \u{212A}elvin", "ΣΑΣ σας", "İstanbul istanbul", "Straße STRASSE", "ﬁne fine", "ǅemal Ǆemal",
        "x\u{200D}y", "\u{1100}\u{1161}\u{11A8}\u{1100}", "a\u{308}\u{301}b", "rocket_launch 123 _x_", "\u{37E}; \u{1FEF}`",
        "Привет привет мир", "日本語のテキスト", "tab\there\u{0B}\u{0C}end", "  leading and trailing  ", "<<<TRANSCRIPT\nx",
        "a\u{301}", "\u{301}a", "ab\u{301}", "déjà vu… — ♪ music ♪", "\u{FEFF}bom", "x\u{E0001}y",
    ]

    @Test(arguments: tricky)
    func stepsFollowTheStandardLibrarysClusters(_ text: String) {
        let expected = Array(text).map { $0.utf8.count }
        #expect(FastPathTests.steps(text) == expected)
    }

    /// Every pair of tricky texts, and every text against every word in them.
    static var phrases: [String] {
        var words = Set(tricky.flatMap { $0.split(separator: " ").map(String.init) })
        words.formUnion(["k", "K", "elvin", "kelvin", ";", "`", "i̇stanbul", "istanbul", "σας", "ςας", "fine", "rocket", "e\u{301}", "é", "b", "x", "_x_", "123"])
        return words.sorted()
    }

    @Test(arguments: tricky)
    func wholeWordMatchingAgreesWithTheReference(_ text: String) {
        let matcher = WholeWordMatcher(text)
        let reference = ReferenceWholeWordMatcher(text)
        for phrase in Self.phrases + Self.tricky {
            #expect(matcher.utf8Ranges(of: phrase) == reference.utf8Ranges(of: phrase), "\(phrase) in \(text)")
            #expect(matcher.containsWholeWord(phrase) == reference.containsWholeWord(phrase), "\(phrase) in \(text)")
        }
    }

    @Test(arguments: [0, 1, 2, 3, 5, 8, 40, 3_000])
    func promptCountsAgreeWithTheReference(_ cap: Int) {
        for text in Self.tricky + [Self.tricky.joined(separator: "\n")] {
            let prompt = PromptBuilder(maxCharacters: cap).build(transcript: text)
            // The cap in Characters, then back to a word boundary (PromptBuilderTests check that rule on its own).
            let prefix = String(text.prefix(cap))
            let cut = PromptBuilder.wordBoundaryCut(prefix, in: text) ?? prefix
            let sent = PromptBuilder.defuseDelimiters(cut)
            #expect(prompt.sentTranscript == sent)
            #expect(prompt.characters == text.count)
            #expect(prompt.sentCharacters == sent.count)
            #expect(prompt.truncated == (cut.count < text.count))
            #expect(Prompt.transcript(in: prompt.text) == sent)
        }
    }
}

/// The whole-word matcher written the plain way: an array of `Character`s, each lower-cased.
struct ReferenceWholeWordMatcher {
    let characters: [Character]
    let folded: [String]
    let utf8Starts: [Int]

    init(_ text: String) {
        characters = Array(text)
        folded = characters.map { $0.lowercased() }
        var starts: [Int] = []
        var offset = 0
        for c in characters { starts.append(offset); offset += c.utf8.count }
        starts.append(offset)
        utf8Starts = starts
    }

    func containsWholeWord(_ phrase: String) -> Bool { !ranges(of: phrase, limit: 1).isEmpty }
    func utf8Ranges(of phrase: String) -> [Range<Int>] {
        ranges(of: phrase, limit: Int.max).map { utf8Starts[$0.lowerBound]..<utf8Starts[$0.upperBound] }
    }

    private func ranges(of phrase: String, limit: Int) -> [Range<Int>] {
        let needle = phrase.map { $0.lowercased() }
        guard let head = needle.first, needle.count <= folded.count else { return [] }
        var found: [Range<Int>] = []
        var start = 0
        while start + needle.count <= folded.count, found.count < limit {
            let end = start + needle.count
            if folded[start] == head, folded[start..<end].elementsEqual(needle),
               !WholeWordMatcher.isWordCharacter(start > 0 ? characters[start - 1] : nil),
               !WholeWordMatcher.isWordCharacter(end < characters.count ? characters[end] : nil) {
                found.append(start..<end)
                start = end
            } else {
                start += 1
            }
        }
        return found
    }
}
