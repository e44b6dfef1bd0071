import Foundation
import Testing
@testable import Assistant

/// The inputs at the edges of `CharacterSteps`' quick paths: simple non-ASCII
/// scalars stepped without the standard library, and eight ASCII bytes
/// counted at once. Each must give exactly what the standard library gives.
extension CharacterStepsTests {
    /// Every simple scalar (U+00A0–U+02FF, U+2010–U+2027), and the scalars right outside those ranges.
    static let simpleScalars: [Unicode.Scalar] = (Array(0x9E...0x301) + Array(0x200B...0x202A)).compactMap { Unicode.Scalar(UInt32($0)) }

    /// Neighbours that can join a scalar into a cluster, or that stand alone.
    static let neighbours: [String] = ["a", "Z", "1", " ", "\r", "\n", "\r\n", "\u{301}", "\u{200D}", "\u{903}", "\u{600}",
                                       "\u{1F1FA}", "\u{1100}", "é", "…", "\u{AD}", "\u{2028}", "👍", "\u{1F3FB}", "\u{FE0F}"]

    static func steps(_ text: String) -> [Int] {
        CharacterSteps.withBytes(text) { p, text -> [Int] in
            var lengths: [Int] = []
            var i = 0
            while i < p.count {
                let end = CharacterSteps.end(of: i, in: p, text: text)
                lengths.append(end - i)
                i = end
            }
            return lengths
        }
    }

    @Test func simpleScalarsStepAsTheStandardLibraryClusters() {
        for scalar in Self.simpleScalars {
            let s = String(Character(scalar))
            for other in Self.neighbours {
                for text in [s + other, other + s, "x" + s + other + "y", s + s + other, other + s + s + "é", s + "\r\n" + s] {
                    #expect(Self.steps(text) == Array(text).map { $0.utf8.count }, "\(scalar.value) next to \(other.unicodeScalars.map(\.value))")
                }
            }
        }
        // Runs of simple scalars alone.
        let all = String(String.UnicodeScalarView(Self.simpleScalars))
        #expect(Self.steps(all) == Array(all).map { $0.utf8.count })
    }

    /// Texts that put CR LF, combining marks and non-ASCII bytes at every offset of an eight-byte block.
    static var blockTexts: [String] {
        var texts: [String] = []
        for offset in 0..<10 {
            let pad = String(repeating: "a", count: offset)
            for inner in ["\r\n", "\r", "e\u{301}", "é", "…", "\u{1F1FA}\u{1F1F8}", "<<<", ">>>", "\u{AD}x", "ǅ"] {
                texts.append(pad + inner + "bcdefghijklmnopq" + inner + "rstuvwxyz 0123456789")
            }
        }
        return texts
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 3_000])
    func promptCountsAgreeWithTheReferenceAtEveryOffsetOfAnEightByteBlock(_ cap: Int) {
        for text in Self.blockTexts + [Self.blockTexts.joined(separator: "\n")] {
            let prompt = PromptBuilder(maxCharacters: cap).build(transcript: text)
            // The cap in Characters, then back to a word boundary (PromptBuilderTests check that rule on its own).
            let prefix = String(text.prefix(cap))
            let cut = PromptBuilder.wordBoundaryCut(prefix, in: text) ?? prefix
            let sent = PromptBuilder.defuseDelimiters(cut)
            #expect(prompt.characters == text.count, "\(text)")
            #expect(prompt.transcript == sent, "\(text)")
            #expect(prompt.sentCharacters == sent.count)
            #expect(prompt.truncated == (cut.count < text.count))
        }
    }
}
