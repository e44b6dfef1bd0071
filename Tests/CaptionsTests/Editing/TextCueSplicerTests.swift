import Testing
@testable import Captions

/// The splicing writer reuses its arrays across cues, visits edited cues in
/// key order and maps all-ASCII SRT runs' offsets to themselves. Its output
/// must equal a plain splice worked out from each cue's built runs, the
/// format's offset mapper and a full sort of the insertions.
@Suite struct TextCueSplicerTests {
    /// The splice done the simple way: runs built, every offset through the mapper.
    static func reference(_ edits: [Int: CueEdit], _ document: CaptionDocument,
                          map: (ArraySlice<UInt8>, Int) -> Int, escape: (String) -> [UInt8]) -> [UInt8] {
        let src = document.source.bytes
        var out: [UInt8] = []
        var copied = 0
        for index in edits.keys.sorted() where document.cues.indices.contains(index) {
            guard let edit = edits[index], !edit.isEmpty else { continue }
            let cue = document.cues[index]
            let runs = cue.runs
            var inserts: [(at: Int, bytes: [UInt8], order: Int)] = []
            for (n, range) in edit.emphasis.enumerated() where runs.indices.contains(range.run) {
                let run = runs[range.run]
                guard run.kind == .text else { continue }
                let raw = src[run.source]
                inserts.append((run.source.lowerBound + map(raw, range.utf8.upperBound), Array("</b>".utf8), 2 * n))
                inserts.append((run.source.lowerBound + map(raw, range.utf8.lowerBound), Array("<b>".utf8), 2 * n + 1))
            }
            if let extra = edit.appendedText, !extra.isEmpty {
                // After the last visible character: trailing spaces, tabs and line breaks stay after the appended text.
                var end = cue.textRange.upperBound
                while end > cue.textRange.lowerBound, [0x20, 0x09, 0x0A, 0x0D].contains(src[end - 1]) { end -= 1 }
                inserts.append((end, escape(extra), Int.max))
            }
            inserts.sort { $0.at != $1.at ? $0.at < $1.at : $0.order < $1.order }
            for ins in inserts where ins.at >= copied {
                out += src[copied..<ins.at]
                out += ins.bytes
                copied = ins.at
            }
        }
        out += src[copied...]
        return out
    }

    /// A small deterministic generator, so that a failure can be replayed.
    struct Mix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
    }

    /// Emphasis ranges on random runs (text or not, some past the run's end,
    /// some overlapping, in any order), and appended text on the last cue.
    static func edits(for document: CaptionDocument, seed: UInt64) -> [Int: CueEdit] {
        var mix = Mix(state: seed)
        var edits: [Int: CueEdit] = [:]
        for index in document.cues.indices where mix.next(3) != 0 {
            let runs = document.cues[index].runs
            var ranges: [CueEdit.RunRange] = []
            for _ in 0..<mix.next(4) {
                let run = mix.next(runs.count + 1)
                let length = runs.indices.contains(run) ? runs[run].text.utf8.count : 3
                let a = mix.next(length + 2), b = a + mix.next(length + 2 - a)
                ranges.append(CueEdit.RunRange(run: run, utf8: a..<b))
            }
            edits[index] = CueEdit(emphasis: ranges)
        }
        if let last = document.cues.indices.last { edits[last, default: CueEdit()].appendedText = " 🎬" }
        edits[document.cues.count + 3] = CueEdit(emphasis: [CueEdit.RunRange(run: 0, utf8: 0..<1)])
        return edits
    }

    static let srtCues: [[UInt8]] = [
        Array("plain ascii line\nand a second one".utf8), Array("<i>italic</i> and <b>bold</b> {\\an8}text".utf8),
        Array("crlf line\r\nnext line\r\n  \r\nafter blank".utf8), Array("cr only\rsecond\rthird".utf8),
        Array("café déjà vu… “quoted” naïve".utf8), Array("<font color=\"red\">é</font>x<u>y</u>".utf8),
        [0x62, 0x61, 0x64, 0x20, 0xFF, 0x20, 0x75, 0x74, 0x66, 0x38, 0x20, 0xC3, 0x28, 0x20, 0x65, 0x6E, 0x64],
        Array("a".utf8), Array("<b>".utf8), Array("x < y { z".utf8),
    ]

    static func srt(_ cues: [[UInt8]], lineEnd: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (k, text) in cues.enumerated() {
            out += Array("\(k + 1)".utf8) + lineEnd + Array("00:00:0\(k % 10),000 --> 00:00:0\(k % 10),500".utf8) + lineEnd
            out += text + lineEnd + lineEnd
        }
        return out
    }

    @Test(arguments: [Array("\n".utf8), Array("\r\n".utf8)])
    func srtSpliceMatchesReference(_ lineEnd: [UInt8]) throws {
        // Enough valid multi-byte text that the invalid bytes stay as UTF-8 with repairs.
        let filler = Array(repeating: Array("ééééé ààààà ".utf8), count: 4).joined()
        let bytes = Self.srt(Self.srtCues + [Array(filler)], lineEnd: lineEnd)
        let document = try CaptionDocument.read(SourceText.decode(bytes: bytes), hint: .srt)
        #expect(document.source.encoding == .utf8)
        for seed in 1...200 as ClosedRange<UInt64> {
            let edits = Self.edits(for: document, seed: seed)
            let expected = Self.reference(edits, document, map: SRTWriter.rawOffset, escape: { Array($0.utf8) })
            #expect(try document.writeBytes(edits: edits) == expected, "seed \(seed)")
        }
    }

    @Test func webVTTSpliceMatchesReference() throws {
        let text = "WEBVTT\n\n00:01.000 --> 00:02.000\nR&amp;D &lt;b&gt; <i>caf&eacute;</i> ok\n\n"
            + "00:03.000 --> 00:04.000\n<b>bold</b> &#x72;ocket\nsecond line\n\n"
        let document = try CaptionDocument.read(SourceText.decode(bytes: Array(text.utf8)), hint: .vtt)
        for seed in 1...200 as ClosedRange<UInt64> {
            // Emphasis only: WebVTT adjusts appended text before splicing.
            let edits = Self.edits(for: document, seed: seed).mapValues { CueEdit(emphasis: $0.emphasis) }
            let expected = Self.reference(edits, document, map: { WebVTTEntities.rawOffset($0, plainOffset: $1) },
                                          escape: WebVTTWriter.escape)
            #expect(try document.writeBytes(edits: edits) == expected, "seed \(seed)")
        }
    }
}
