import Testing
@testable import Assistant

@Suite struct WholeWordMatcherTests {
    @Test func matchesWholeWordsOnlyIgnoringCase() {
        let matcher = WholeWordMatcher("Today the rocket team said the AI guidance is ready. Café time.")
        #expect(matcher.containsWholeWord("AI"))
        #expect(matcher.containsWholeWord("ai"))
        #expect(!matcher.containsWholeWord("sai"))
        #expect(!matcher.containsWholeWord("rock"))
        #expect(matcher.containsWholeWord("ROCKET TEAM"))
        #expect(matcher.containsWholeWord("cafe\u{301}"), "a combining accent matches the precomposed é")
        #expect(!matcher.containsWholeWord("Caf"))
        #expect(!matcher.containsWholeWord(""))
        #expect(!WholeWordMatcher("rocket_launch").containsWholeWord("rocket"))
        #expect(!WholeWordMatcher("Straße").containsWholeWord("stra"))
    }

    @Test func utf8RangesPointAtEveryOccurrence() {
        let text = "Élan, élan! AI said: ÉLAN."
        let ranges = WholeWordMatcher(text).utf8Ranges(of: "élan")
        let bytes = Array(text.utf8)
        #expect(ranges.map { String(decoding: bytes[$0], as: UTF8.self) } == ["Élan", "élan", "ÉLAN"])
        #expect(ranges.first == 0..<5)
    }

    @Test func rangesNeverOverlap() {
        #expect(WholeWordMatcher("ha ha ha").utf8Ranges(of: "ha ha") == [0..<5])
    }
}
