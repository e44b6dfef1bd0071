import Testing
@testable import Captions
import Words

/// Emphasis looks for speaker labels, descriptions and credits only in the
/// lines a match lies in (`KeywordEmphasis.lines(around:_:)`): the parts
/// `CueLineParts` finds in those lines alone must be the parts of the whole
/// cue text that lie in them, for any cue text.
@Suite struct KeywordEmphasisLinesTests {
    @Test func thePartsOfALineAreFoundInItAlone() {
        var rng = SplitMix64(state: 35)
        let pieces = ["MAN: ", "Sarah: ", ">> ", "- ", "– ", "[door creaks]", "(LAUGHS)", "(sighs)", "(an aside)", "♪", "♪ ", "la la",
                      "Subtitles by ", "www.", "AllSubs.org", "://", "rocket", " launch", "pad", " ", "\n", "\n", ":", "(", "]", "é", "DR. NOVAK: "]
        var withParts = 0
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 1...14, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
            var copy = text
            copy.withUTF8 { p in
                let all = CueLineParts.parts(in: p)
                if !all.isEmpty { withParts += 1 }
                let a = Int.random(in: 0..<max(p.count, 1), using: &rng)
                let range = a..<min(p.count, a + Int.random(in: 1...12, using: &rng))
                let lines = KeywordEmphasis.lines(around: range, p)
                #expect(lines.lowerBound <= range.lowerBound && range.upperBound <= lines.upperBound, "\(text) \(range)")
                #expect(lines.lowerBound == 0 || p[lines.lowerBound - 1] == 0x0A, "\(text) \(range)")
                #expect(lines.upperBound == p.count || p[lines.upperBound] == 0x0A, "\(text) \(range)")
                let alone = CueLineParts.parts(in: UnsafeBufferPointer(rebasing: p[lines])).map {
                    CueLineParts.Part(kind: $0.kind, range: $0.range.lowerBound + lines.lowerBound..<$0.range.upperBound + lines.lowerBound)
                }
                let inLines = all.filter { lines.contains($0.range.lowerBound) }
                #expect(alone == inLines, "\(text) \(range)")
            }
        }
        #expect(withParts > 1_000)
    }
}
