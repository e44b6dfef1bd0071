@testable import Captions
import Testing

@Suite struct KeywordEmphasisTests {
    @Test func matchesWholeWordsOnlyCaseInsensitively() {
        let cue = makeCue(["AI said the ai is AIRBORNE, not ai-ready."])
        let result = KeywordEmphasis(keywords: ["ai"]).apply(to: [cue])
        #expect(emphasised(cue, result.edits[0]) == ["AI", "ai", "ai"])
        #expect(result.counts == [3])
        #expect(result.occurrences == 3)
    }

    @Test func unicodeLettersAreWordCharacters() {
        let cue = makeCue(["Un CAFÉ, deux cafés, trois café."])
        let result = KeywordEmphasis(keywords: ["café"]).apply(to: [cue])
        #expect(emphasised(cue, result.edits[0]) == ["CAFÉ", "café"])
        // "naïve" must not be found inside "naïveté"; the accent is a letter, not a boundary.
        let second = makeCue(["naïveté and naïve"])
        #expect(emphasised(second, KeywordEmphasis(keywords: ["NAÏVE"]).apply(to: [second]).edits[0]) == ["naïve"])
    }

    @Test func offsetsAreUTF8BytesAfterMultibyteText() throws {
        let cue = makeCue(["Ünïcödé 🚀 rocket"])
        let edit = try #require(KeywordEmphasis(keywords: ["rocket"]).apply(to: [cue]).edits[0])
        let text = "Ünïcödé 🚀 "
        #expect(edit.emphasis == [CueEdit.RunRange(run: 0, utf8: text.utf8.count..<text.utf8.count + 6)])
    }

    @Test func neverMatchesThroughATag() {
        // "rock<i>et</i>" reads as "rocket", but the word is cut by a tag: no match, and "rock" is not whole either.
        let cue = makeCue(["rock", "<i>", "et", "</i>", " launch"])
        let result = KeywordEmphasis(keywords: ["rocket", "rock", "et", "launch"]).apply(to: [cue])
        #expect(emphasised(cue, result.edits[0]) == ["launch"])
        #expect(result.counts == [0, 0, 0, 1])
    }

    @Test func aLineBreakSeparatesWords() {
        let cue = makeCue(["the rocket", "\n", "launch pad"])
        let result = KeywordEmphasis(keywords: ["rocket", "launch"]).apply(to: [cue])
        #expect(emphasised(cue, result.edits[0]) == ["rocket", "launch"])
        #expect(KeywordEmphasis(keywords: ["rocketlaunch"]).apply(to: [cue]).occurrences == 0)
    }

    /// A phrase may cross a line break inside a cue (`real-time⏎analytics`):
    /// each line's part is emphasised, white space at the line's end left
    /// out, and it counts once. Not across markup, not across cues.
    @Test func aPhraseMayCrossALineBreakInsideACue() throws {
        let cue = makeCue(["we love real-time ", "\n", "analytics"])
        let result = KeywordEmphasis(keywords: ["Real-Time Analytics"]).apply(to: [cue])
        let edit = try #require(result.edits[0])
        #expect(emphasised(cue, edit) == ["real-time", "analytics"])
        #expect(edit.emphasis.map(\.run) == [0, 2])
        #expect(result.counts == [1])
        let tagged = makeCue(["real-time ", "<i>", "analytics", "</i>"])
        #expect(KeywordEmphasis(keywords: ["real-time analytics"]).apply(to: [tagged]).occurrences == 0)
        let apart = [makeCue(["real-time"]), makeCue(["analytics"])]
        #expect(KeywordEmphasis(keywords: ["real-time analytics"]).apply(to: apart).occurrences == 0)
    }

    @Test func neverInsideBoldText() {
        let cue = makeCue(["rocket ", "<b>", "rocket", "</b>", " rocket"], bold: [2])
        let result = KeywordEmphasis(keywords: ["rocket"]).apply(to: [cue])
        #expect(result.edits[0]?.emphasis.map(\.run) == [0, 4])
        #expect(result.occurrences == 2)
    }

    @Test func longestKeywordWinsAndMatchesDoNotOverlap() {
        let cue = makeCue(["The rocket launch, then another rocket."])
        let result = KeywordEmphasis(keywords: ["rocket", "rocket launch", "launch"]).apply(to: [cue])
        #expect(emphasised(cue, result.edits[0]) == ["rocket launch", "rocket"])
        #expect(result.counts == [1, 1, 0])
    }

    @Test func phrasesNeedTheSameSeparatorWhiteSpaceAside() {
        let cue = makeCue(["rocket  launch and rocket-launch and Rocket Launch"])
        let result = KeywordEmphasis(keywords: ["rocket launch"]).apply(to: [cue])
        #expect(emphasised(cue, result.edits[0]) == ["rocket  launch", "Rocket Launch"])
    }

    /// Words in every script, as the one word rule cuts them.
    @Test func wordsOfScriptsWrittenWithoutSpacesAreEmphasised() {
        let cue = makeCue(["このラーメンはスープがとても濃厚です"])
        let result = KeywordEmphasis(keywords: ["ラーメン", "スープ", "ラー"]).apply(to: [cue])
        #expect(emphasised(cue, result.edits[0]) == ["ラーメン", "スープ"])
        #expect(result.counts == [1, 1, 0])
    }

    @Test func keywordPunctuationAtTheEdgesIsIgnored() {
        let cue = makeCue(["Launch day."])
        #expect(emphasised(cue, KeywordEmphasis(keywords: ["“launch”"]).apply(to: [cue]).edits[0]) == ["Launch"])
        #expect(KeywordEmphasis(keywords: ["--"]).apply(to: [cue]).edits.isEmpty)
    }

    @Test func manyKeywordsAreFoundInOnePass() {
        let keywords = (0..<2000).map { "word\($0)" }
        let cues = (0..<50).map { makeCue(["say word\($0 * 37) and word\($0 * 37)x then WORD\($0 * 37)"]) }
        let result = KeywordEmphasis(keywords: keywords).apply(to: cues)
        #expect(result.occurrences == 100)
        #expect(result.edits.count == 50)
        for i in 0..<50 { #expect(result.counts[i * 37] == 2) }
    }

    @Test func markupAndEmptyRunsAreSkipped() {
        let cue = makeCue(["<font color=\"red\">", "", "rocket", "</font>"])
        #expect(KeywordEmphasis(keywords: ["red", "rocket"]).apply(to: [cue]).counts == [0, 1])
    }

    @Test func digitsAreWordCharacters() {
        let cue = makeCue(["Apollo 11 and Apollo 110"])
        #expect(emphasised(cue, KeywordEmphasis(keywords: ["apollo 11"]).apply(to: [cue]).edits[0]) == ["Apollo 11"])
    }
}
