import Testing
@testable import Words

/// Whole-word matching by the one rule: what the decoder keeps, what emphasis
/// finds (the cases of every script are in CaptionAssistantTests'
/// `WholeWordRuleTests`, which hold the decoder and emphasis to them).
@Suite struct WholeWordsTests {
    @Test func eachPhraseIsLookedForOnItsOwn() {
        #expect(WholeWords.found(["launch pad", "launch", "pad", "moon"], in: "the launch pad") == [true, true, true, false])
    }

    @Test func occurrencesAreCountedWithTheFirstWordOfEach() {
        let found = WholeWords.occurrences(["arc-en-ciel", "Arc", "ciel bleu", "lune"], in: "Un arc-en-ciel. ARC-EN-CIEL, ciel bleu")
        #expect(found.map(\.count) == [2, 2, 1, 0])
        #expect(found.map(\.firstWord) == [1, 1, 7, nil])
    }

    @Test func withinLineComparesWordsAndIgnoresWhatIsBetween() {
        let lines = "Welcome back, everyone, to the show!\nToday: rockets"
        #expect(WholeWords.found(["welcome back everyone", "Back, everyone!", "everyone to", "show today", "Rockets"],
                                 in: lines, separators: .anyWithinLine) == [true, true, true, false, true])
    }

    @Test func aCopyIsAWholeLineOrARunOfEnoughWordsOfOne() {
        let lines = "Welcome back, everyone, to the show!\nPhotosynthesis\nToday: rockets and moons"
        let phrases = ["welcome back everyone", "Photosynthesis", "rockets", "Rockets and", "show today", "Today rockets and moons", "moons",
                       "to the show photosynthesis", "to the show photosynthesis today"]
        #expect(WholeWords.copiesALine(phrases, of: lines, minimumWords: 3, minimumWordsAcrossLines: 5)
                == [true, true, false, false, false, true, false, false, true])
    }

    @Test func comparisonKeysFollowTheRule() {
        #expect(WholeWords.comparisonKey("Toast") == WholeWords.comparisonKey("toast"))
        #expect(WholeWords.comparisonKey("launch  pad") == WholeWords.comparisonKey("Launch\tPad"))
        #expect(WholeWords.comparisonKey("launch pad") != WholeWords.comparisonKey("launchpad"))
        #expect(WholeWords.comparisonKey("real-time") != WholeWords.comparisonKey("real time"))
        #expect(WholeWords.comparisonKey("!!!") == nil)
    }

    /// The pre-check on text ICU must cut (scripts without spaces, Thai, a
    /// three-byte character anywhere): no where no keyword's first word is in
    /// the text lower-cased whole, and never no where the matcher finds a match.
    @Test func thePreCheckPassesOverTextOfEveryScriptWithoutAKeywordsFirstWord() {
        let keywords = ["ラーメン", "東京タワー", "İstanbul", "ΟΔΟΣ", "Straße"]
        let matcher = KeywordMatcher(keywords)
        var scratch = KeywordMatcher.Scratch()
        func mayMatch(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { matcher.mayMatch($0, scratch: &scratch) }
        }
        let texts = ["今日は東京の新しいラーメン店を紹介します", "東京タワーに行きました", "İSTANBUL’da 東", "η οδοσ 東京", "ΟΔΟΣ 東",
                     "STRASSE 東", "die straße 東", "このスープはとても濃厚です", "สวัสดีครับ", "東京 istanbul", "ラーメ ン"]
        for text in texts where WholeWords.found(keywords, in: text).contains(true) {
            #expect(mayMatch(text), "\(text)")
        }
        #expect(mayMatch("今日は東京の新しいラーメン店を紹介します"))
        #expect(mayMatch("η οδοσ 東京"))
        #expect(!mayMatch("このスープはとても濃厚です"))
        #expect(!mayMatch("สวัสดีครับ"))
        #expect(!mayMatch("ラーメ ン"))
    }

    /// ASCII text is passed over by its bytes when no first word is in it
    /// lower-cased (`FirstWordTable.asciiHoldsNoFirstWord`), and never where
    /// the matcher finds a match: random texts and keywords, some non-ASCII
    /// (a keyword's Kelvin sign is a "k"), some single letters (always scanned).
    @Test func theASCIIPreCheckNeverPassesOverAMatch() {
        var rng = SplitMix64(state: 34)
        let pieces = ["rocket", "Rocket's", "ROCKETS", "launch", "pad", "launch-pad", "km", "KM", "kM", "t", "eng", "engine", "<i>", "</i>",
                      "café", "a", "I", " ", "  ", "\r\n", "\n", ",", ".", "'", "-", "_", "2", "x2", "s"]
        let keywordSets = [["rocket"], ["launch pad", "engine"], ["\u{212A}m", "café"], ["a", "rocket"], ["rocket's"], ["pad", "Engine", "t2"],
                           (0..<40).map { "word\($0)" } + ["rocket"]]
        var passedOver = 0
        for keywords in keywordSets {
            let matcher = KeywordMatcher(keywords)
            var scratch = KeywordMatcher.Scratch()
            for _ in 0..<300 {
                let text = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
                var bytes = text
                let may = bytes.withUTF8 { matcher.mayMatch($0, scratch: &scratch) }
                if WholeWords.found(keywords, in: text).contains(true) { #expect(may, "\(keywords) \(text)") }
                if !may { passedOver += 1 }
            }
        }
        #expect(passedOver > 100)
    }

    @Test func whiteSpaceIsTrimmedFromPartsOfAMatch() {
        let bytes = Array(" \u{A0}real-time \u{3000}".utf8)
        bytes.withUnsafeBufferPointer { p in
            let trimmed = KeywordMatcher.trimmingWhiteSpace(p, 0..<p.count)
            #expect(Array(p[trimmed]) == Array("real-time".utf8))
            #expect(KeywordMatcher.trimmingWhiteSpace(p, 0..<3).isEmpty)
        }
    }
}
