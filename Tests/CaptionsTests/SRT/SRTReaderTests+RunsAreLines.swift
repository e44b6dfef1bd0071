import Testing
@testable import Captions

/// `SRTReader.runsAreLines` says when an SRT cue's bytes as written are what
/// its runs read, and `appendLineOutlines` outlines those runs from the bytes
/// alone (the fast path of keyword emphasis): both against the one rule,
/// `forEachRun`, on random cue texts.
@Suite struct SRTRunsAreLinesTests {
    /// SplitMix64: the same texts on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func linesAreWhatTheRunsRead() throws {
        var rng = Seeded(state: 35)
        let pieces: [[UInt8]] = ["rocket", "Launch", " ", "  ", "\t", "\n", "\n", "\n \n", "\r\n", "\r", "<i>", "</i>", "<b>", "</b>", "<", ">",
                                 "{\\i1}", "{", "}", "&amp;", "é", "déjà vu", "東京", "♪", "- ", "MAN:", "[laughs]", "0", "."].map { Array($0.utf8) }
            + [[0xFF], [0xC3], [0xE2, 0x80]]
        var lines = 0, others = 0
        for _ in 0..<400 {
            var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
            // Enough valid multi-byte text that the file is read as UTF-8 with its invalid bytes kept.
            bytes += Array(repeating: Array("é café naïve déjà ".utf8), count: 8).joined()
            bytes += Array("\n\n2\n00:00:03,000 --> 00:00:04,000\n".utf8)
            let count = Int.random(in: 1...14, using: &rng)
            for _ in 0..<count { bytes += pieces.randomElement(using: &rng) ?? [] }
            bytes += Array("\n\n3\n00:00:05,000 --> 00:00:06,000\nend\n".utf8)
            let document = try CaptionDocument.read(SourceText.decode(bytes: bytes), hint: .srt)
            for cue in document.cues {
                var readable: [UInt8] = []
                cue.appendReadableText(to: &readable, lineBreak: 0x0A)
                // Walked by the rule itself (`runOutlines()` takes the lines' shortcut).
                var outlines: [RunOutline] = []
                cue.forEachRun { outlines.append(RunOutline(kind: $0.kind, style: $0.style, source: $0.source)) }
                #expect(cue.runOutlines() == outlines, "\(bytes)")
                let checked = cue.withSourceText { raw, runsAreLines -> Bool in
                    guard runsAreLines() else { return false }
                    #expect(Array(raw) == readable, "\(bytes)")
                    var fromLines: [RunOutline] = []
                    Cue.appendLineOutlines(of: raw, offset: cue.textRange.lowerBound, to: &fromLines)
                    #expect(fromLines == outlines, "\(bytes)")
                    return true
                }
                if checked == true { lines += 1 } else { others += 1 }
            }
        }
        // Both answers given often: the check is no constant.
        #expect(lines > 400 && others > 100)
    }

    @Test func markupCarriageReturnsInvalidBytesAndAFinalLineFeedAreNoLines() {
        func lines(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { SRTReader.runsAreLines($0) } }
        #expect(lines(Array("rocket launch\nright now, déjà vu 東京 &amp;".utf8)))
        #expect(lines([]))
        #expect(!lines(Array("rocket <i>launch</i>".utf8)))
        #expect(!lines(Array("rocket launch pad {\\i1}".utf8)))
        #expect(!lines(Array("rocket launch pad\r\nright".utf8)))
        #expect(!lines(Array("rocket launch pad\n".utf8)))
        #expect(!lines(Array("rocket launch pad".utf8) + [0xC3]))
    }
}
