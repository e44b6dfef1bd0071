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
        #expect(Self.steps(text) == expected)
    }

    @Test func countsAreTheStandardLibrarys() {
        for text in Self.tricky + [Self.tricky.joined(separator: "\n"), Self.tricky.joined(), String(repeating: "ascii line\r\n", count: 30)] {
            #expect(CharacterSteps.count(text) == text.count, "\(text)")
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
            #expect(prompt.transcript == sent)
            #expect(prompt.characters == text.count)
            #expect(prompt.sentCharacters == sent.count)
            #expect(prompt.truncated == (cut.count < text.count))
            #expect(prompt.request.contains(AssistantPrompt.transcriptStart + "\n" + sent + "\n" + AssistantPrompt.transcriptEnd))
        }
    }
}
