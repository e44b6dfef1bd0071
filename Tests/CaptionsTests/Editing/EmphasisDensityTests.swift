@testable import Captions
import Testing
import TestSupport
@testable import CaptionAssistant

/// The emphasis density selects among the occurrences emphasis finds, in
/// file order, and counts those it leaves plain.
@Suite struct EmphasisDensityTests {
    static let cues = [
        makeCue(["The rocket and the rocket crew: rocket, launch, launch."]),
        makeCue(["A rocket again, then the launch."]),
    ]
    static let keywords = KeywordEmphasis(keywords: ["rocket", "launch"])

    @Test func allEmphasisesEveryOccurrence() {
        let result = Self.keywords.apply(to: Self.cues)
        #expect(result.counts == [4, 3] && result.left == [0, 0])
        #expect(result == Self.keywords.apply(to: Self.cues, density: .all))
    }

    @Test func firstInCueKeepsEachKeywordsFirstOccurrenceInEachCue() {
        let result = Self.keywords.apply(to: Self.cues, density: EmphasisDensity(mode: .firstInCue))
        #expect(emphasised(Self.cues[0], result.edits[0]) == ["rocket", "launch"])
        #expect(emphasised(Self.cues[1], result.edits[1]) == ["rocket", "launch"])
        #expect(result.counts == [2, 2] && result.left == [2, 1])
        #expect(result.occurrences + result.occurrencesLeft == 7)
    }

    @Test func firstKeepsEachKeywordsFirstOccurrenceInTheFile() {
        let result = Self.keywords.apply(to: Self.cues, density: EmphasisDensity(mode: .first))
        #expect(emphasised(Self.cues[0], result.edits[0]) == ["rocket", "launch"])
        #expect(result.edits[1] == nil)
        #expect(result.counts == [1, 1] && result.left == [3, 2])
    }

    @Test func aCapPerCueKeepsTheFirstOnesTheModeKeeps() {
        let one = Self.keywords.apply(to: Self.cues, density: EmphasisDensity(perCue: 1))
        #expect(emphasised(Self.cues[0], one.edits[0]) == ["rocket"])
        #expect(emphasised(Self.cues[1], one.edits[1]) == ["rocket"])
        #expect(one.counts == [2, 0] && one.left == [2, 3])
        let three = Self.keywords.apply(to: Self.cues, density: EmphasisDensity(mode: .firstInCue, perCue: 3))
        #expect(three.counts == [2, 2])
        #expect(EmphasisDensity(perCue: 0).perCue == 1)
        #expect(EmphasisDensity.all.keepsEverything && !EmphasisDensity(perCue: 9).keepsEverything)
    }

    /// A keyword all of whose occurrences the cap left plain is still one
    /// the captions hold: it is listed, not dropped as not found.
    @Test func theReportCountsWhatWasLeftAndListsKeywordsFoundButLeftPlain() async throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\nrocket launch, rocket launch\n\n2\n00:00:03,000 --> 00:00:04,000\nrocket launch\n"
        let answer = #"{"keywords": ["rocket", "launch"], "titles": ["First title", "Second title", "Third title"], "emoji": "🚀"}"#
        var configuration = fakeConfiguration(model: ScriptedAssistantModel(answers: [answer]))
        configuration.settings.emphasis = EmphasisDensity(perCue: 1)
        let outcome = await FileProcessor(configuration: configuration).process(Array(srt.utf8), input: "a.srt", hint: .srt) { _ in "a.srt" }
        let action = outcome.report.actions[0]
        #expect(action.keywords == ["rocket", "launch"])
        #expect(action.occurrences == 2 && action.occurrencesLeft == 4)
        #expect(action.dropped == [])
        #expect(String(decoding: try #require(outcome.caption), as: UTF8.self)
                == "1\n00:00:01,000 --> 00:00:02,000\n<b>rocket</b> launch, rocket launch\n\n2\n00:00:03,000 --> 00:00:04,000\n<b>rocket</b> launch 🚀\n")
        let totals = try BatchReport.Totals([outcome.report])
        #expect(totals.keywordOccurrences == 2 && totals.keywordOccurrencesLeft == 4)
        // Every occurrence emphasised: no count of those left, in the action or the totals.
        let all = await FileProcessor(configuration: fakeConfiguration(model: ScriptedAssistantModel(answers: [answer])))
            .process(Array(srt.utf8), input: "a.srt", hint: .srt) { _ in "a.srt" }
        #expect(all.report.actions[0].occurrencesLeft == nil)
        #expect(try BatchReport.Totals([all.report]).keywordOccurrencesLeft == nil)
    }
}
