import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct TranscriptTests {
    @Test func oneCuePerLineWithoutMarkup() throws {
        let document = try CaptionDocument.read(Data(sampleSRT.utf8), hint: .srt)
        #expect(Transcript.text(of: document) == "The rocket is on the pad.\nLaunch control: the rocket is ready for launch.")
    }

    /// Cue texts of every kind the cut meets: ASCII, combining marks, kana
    /// and kanji, emoji sequences, a damaged byte, markup, long and short cues.
    static let cueTexts = [
        "The rocket is on the pad.", "Launch control: the <i>rocket</i> is ready", "cafe\u{301} de\u{301}ja\u{300} vu",
        "東京タワーに行きました。", "👨‍👩‍👧 family 🇫🇷 flag", "a", "",
        String(repeating: "word ", count: 40) + "end", "<<<TRANSCRIPT look-alike >>>", "x\u{301}\u{302}\u{303}\u{304}y",
    ]

    /// An SRT file of `count` cues taken from `cueTexts` in turn, starting at `offset`.
    static func document(cues count: Int, offset: Int) throws -> CaptionDocument {
        var srt = ""
        for i in 0..<count {
            srt += "\(i + 1)\n00:00:\(String(format: "%02d", i % 60)),000 --> 00:00:\(String(format: "%02d", i % 60)),500\n"
            srt += cueTexts[(i + offset) % cueTexts.count] + "\n\n"
        }
        return try CaptionDocument.read(Data(srt.utf8), hint: .srt)
    }

    /// The part a model call gets (`Transcript.part`) builds the same prompt as
    /// the whole transcript, for caps that fall anywhere: in the first cue, in a
    /// long one, at the very end, past the end.
    @Test(arguments: [0, 1, 3, 7, 24, 25, 26, 60, 199, 200, 450, 1_000, 3_000, 100_000])
    func thePartBuildsThePromptTheWholeTranscriptBuilds(cap: Int) throws {
        for (count, offset) in [(1, 0), (3, 7), (10, 0), (40, 3), (200, 5)] {
            let document = try Self.document(cues: count, offset: offset)
            let whole = Transcript.text(of: document)
            let part = Transcript.part(of: document, characters: cap)
            #expect(whole.hasPrefix(part.start))
            #expect(part.characters == whole.count)
            #expect((part.whole == nil) == (part.start == whole))
            #expect(part.whole?() ?? whole == whole)
            let builder = PromptBuilder(maxCharacters: cap)
            #expect(builder.build(part) == builder.build(transcript: whole), "\(count) cues, cap \(cap)")
            #expect(builder.cut(Transcript.start(of: document, characters: cap)).text == builder.cut(whole).text)
            // Only what the cut needs is made: at most twice the bytes of its characters, and a cue.
            let needed = whole.prefix(cap + 1).utf8.count
            if part.whole != nil { #expect(part.start.utf8.count <= 2 * needed + 2 * 210) }
        }
    }

    @Test func theCharactersFromACueOnAreTheRestOfTheText() throws {
        let document = try Self.document(cues: 3_000, offset: 1)
        let whole = Transcript.text(of: document)
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3_000)
        for first in [0, 1, 999, 2_999] {
            let head = first == 0 ? 0 : lines[0..<first].joined(separator: "\n").count + 1
            #expect(head + document.spokenTextCharacters(from: first) == whole.count, "from cue \(first)")
        }
        #expect(document.spokenTextCharacters(from: 3_000) == 0)
    }
}
