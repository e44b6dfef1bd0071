@testable import Captions
import Testing

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
}
