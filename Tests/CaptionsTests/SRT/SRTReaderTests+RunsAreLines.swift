import Testing
@testable import Captions

/// `SRTReader.lineEnds` says when an SRT cue's runs are its lines as
/// written, `appendLineOutlines` outlines those runs from the bytes alone
/// and `appendReadableLines` gives their text, `readableLength` where a byte
/// lands in it (the fast paths of keyword emphasis and the splicer): all
/// against the one rule, `forEachRun`, on random cue texts.
@Suite struct SRTRunsAreLinesTests {
    @Test func linesAreWhatTheRunsRead() throws {
        var rng = SplitMix64(state: 35)
        let pieces: [[UInt8]] = ["rocket", "Launch", " ", "  ", "\t", "\n", "\n", "\n \n", "\r\n", "\r", "<i>", "</i>", "<b>", "</b>", "<", ">",
                                 "{\\i1}", "{", "}", "&amp;", "é", "déjà vu", "東京", "♪", "- ", "MAN:", "[laughs]", "0", "."].map { Array($0.utf8) }
            + [[0xFF], [0xC3], [0xE2, 0x80]]
        var lines = 0, others = 0, returns = 0
        for _ in 0..<400 {
            var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
            // Enough valid multi-byte text that the file is read as UTF-8 with its invalid bytes kept.
            bytes += Array(repeating: Array("é café naïve déjà ".utf8), count: 8).joined()
            bytes += Array("\n\n2\n00:00:03,000 --> 00:00:04,000\n".utf8)
            // Half of the cues with their line feeds written as CR LF; half of the cues without markup or invalid bytes.
            let crlf = Bool.random(using: &rng)
            let pool = Bool.random(using: &rng) ? pieces.filter { !$0.contains(0x3C) && !$0.contains(0x7B) && String(validating: $0, as: UTF8.self) != nil } : pieces
            let count = Int.random(in: 1...14, using: &rng)
            for _ in 0..<count {
                let piece = pool.randomElement(using: &rng) ?? []
                bytes += crlf ? piece.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] } : piece
            }
            bytes += Array("\n\n3\n00:00:05,000 --> 00:00:06,000\nend\n".utf8)
            let document = try CaptionDocument.read(SourceText.decode(bytes: bytes), hint: .srt)
            for cue in document.cues {
                var readable: [UInt8] = []
                cue.appendReadableText(to: &readable, lineBreak: 0x0A)
                // Walked by the rule itself (`runOutlines()` takes the lines' shortcut).
                var outlines: [RunOutline] = []
                cue.forEachRun { outlines.append(RunOutline(kind: $0.kind, style: $0.style, source: $0.source)) }
                #expect(cue.runOutlines() == outlines, "\(bytes)")
                let checked = cue.withSourceText { raw, lineEnds -> Bool in
                    guard let ends = lineEnds() else { return false }
                    var lines: [UInt8] = []
                    Cue.appendReadableLines(of: raw, to: &lines)
                    #expect(lines == readable, "\(bytes)")
                    #expect((ends == .lineFeeds) == (Array(raw) == readable), "\(bytes)")
                    if ends == .carriageReturns { returns += 1 }
                    // Where each byte lands in that text: the length of the text of the bytes before it.
                    for offset in 0...raw.count {
                        var before: [UInt8] = []
                        Cue.appendReadableLines(of: UnsafeBufferPointer(rebasing: raw[..<offset]), to: &before)
                        #expect(SRTReader.readableLength(of: raw, upTo: offset) == before.count, "\(bytes) \(offset)")
                    }
                    var fromLines: [RunOutline] = []
                    Cue.appendLineOutlines(of: raw, offset: cue.textRange.lowerBound, to: &fromLines)
                    #expect(fromLines == outlines, "\(bytes)")
                    return true
                }
                if checked == true { lines += 1 } else { others += 1 }
            }
        }
        // Both answers given often: the check is no constant.
        #expect(lines > 400 && others > 100 && returns > 50, "\(lines) \(others) \(returns)")
    }

    @Test func markupInvalidBytesAndAFinalLineEndAreNoLines() {
        func ends(_ bytes: [UInt8]) -> SRTReader.LineEnds? { bytes.withUnsafeBufferPointer { SRTReader.lineEnds($0) } }
        #expect(ends(Array("rocket launch\nright now, déjà vu 東京 &amp;".utf8)) == .lineFeeds)
        #expect(ends([]) == .lineFeeds)
        #expect(ends(Array("rocket launch pad\r\nright".utf8)) == .carriageReturns)
        #expect(ends(Array("rocket launch pad\rright\nnow".utf8)) == .carriageReturns)
        #expect(ends(Array("rocket <i>launch</i>".utf8)) == nil)
        #expect(ends(Array("rocket launch pad {\\i1}".utf8)) == nil)
        #expect(ends(Array("rocket launch pad\n".utf8)) == nil)
        #expect(ends(Array("rocket launch pad\r".utf8)) == nil)
        #expect(ends(Array("rocket launch pad".utf8) + [0xC3]) == nil)
    }
}
