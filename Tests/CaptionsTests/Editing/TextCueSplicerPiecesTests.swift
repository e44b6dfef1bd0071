import Testing
@testable import Captions

/// The splice handed on in pieces as it is made (`TextCueSplicer.apply(_:to:chunk:into:)`,
/// `CaptionDocument.write(edits:options:into:)`): the source between edited
/// cues straight from the source, the edited cues gathered up to `chunk`
/// bytes. Whatever the size of a piece, the bytes must be the whole splice's.
@Suite struct TextCueSplicerPiecesTests {
    static func pieces(_ body: ((UnsafeBufferPointer<UInt8>) -> Bool) throws -> Bool) rethrows -> (bytes: [UInt8], count: Int, done: Bool) {
        var bytes: [UInt8] = [], count = 0
        let done = try body { bytes += $0; count += 1; return true }
        return (bytes, count, done)
    }

    @Test(arguments: [1, 7, 64, 1 << 18])
    func aSpliceInPiecesIsTheWholeOne(_ chunk: Int) throws {
        let filler = Array(repeating: Array("ééééé ààààà ".utf8), count: 4).joined()
        let srt = try CaptionDocument.read(SourceText.decode(bytes: TextCueSplicerTests.srt(TextCueSplicerTests.srtCues + [Array(filler)], lineEnd: Array("\r\n".utf8))), hint: .srt)
        let vtt = try CaptionDocument.read(SourceText.decode(bytes: Array("WEBVTT\n\n00:01.000 --> 00:02.000\nR&amp;D &lt;b&gt; <i>caf&eacute;</i> ok\n\n00:03.000 --> 00:04.000\n<b>bold</b> &#x72;ocket\nsecond line\n\n".utf8)), hint: .vtt)
        for seed in 1...100 as ClosedRange<UInt64> {
            let edits = TextCueSplicerTests.edits(for: srt, seed: seed)
            let srtPieces = Self.pieces { SRTWriter.splicer.apply(edits, to: srt, chunk: chunk, into: $0) }
            let srtWhole = try srt.writeBytes(edits: edits)
            #expect(srtPieces.done && srtPieces.bytes == srtWhole, "seed \(seed)")
            let vttEdits = TextCueSplicerTests.edits(for: vtt, seed: seed)
            let vttPieces = try Self.pieces { try vtt.write(edits: vttEdits, into: $0) }
            let vttWhole = try vtt.writeBytes(edits: vttEdits)
            #expect(vttPieces.done && vttPieces.bytes == vttWhole, "seed \(seed)")
        }
        // Small pieces: the edited cues are handed on between cues, not held to the end.
        let edits = TextCueSplicerTests.edits(for: srt, seed: 1)
        #expect(Self.pieces { SRTWriter.splicer.apply(edits, to: srt, chunk: chunk, into: $0) }.count > (chunk < 64 ? 3 : 0))
    }

    /// A file smaller than a piece, edited in its first cue, is handed on in one piece: the source after the last edit goes with it.
    @Test func aSmallSpliceIsOnePiece() throws {
        let document = try CaptionDocument.read(SourceText.decode(bytes: Array("1\r\n00:00:01,000 --> 00:00:02,000\r\nhello world\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nagain\r\n\r\n".utf8)), hint: .srt)
        let edits = [0: CueEdit(emphasis: [CueEdit.RunRange(run: 0, utf8: 0..<5)], appendedText: " 🎬")]
        let made = try Self.pieces { try document.write(edits: edits, into: $0) }
        #expect(made.done && made.count == 1)
        #expect(made.bytes == (try document.writeBytes(edits: edits)))
    }

    @Test func aSinkThatRefusesStopsTheWrite() throws {
        let document = try CaptionDocument.read(SourceText.decode(bytes: Array("1\n00:00:01,000 --> 00:00:02,000\nhello world\n\n2\n00:00:03,000 --> 00:00:04,000\nagain\n".utf8)), hint: .srt)
        let edits = [0: CueEdit(emphasis: [CueEdit.RunRange(run: 0, utf8: 0..<5)]), 1: CueEdit(appendedText: " 🎬")]
        var calls = 0
        let finished = try document.write(edits: edits) { _ in calls += 1; return false }
        #expect(!finished)
        #expect(calls == 1)
    }

    @Test(arguments: [1, 7, 64, 1 << 18])
    func aTTMLSpliceInPiecesIsTheWholeOne(_ chunk: Int) throws {
        let documents = try CueRunWalkTests.fixtures("ttml", ".ttml") + [CaptionDocument.read(SourceText.decode(bytes: Array(
            #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s"><![CDATA[a <b> c]]> and more</p><p begin="2s" end="3s"/><p begin="3s" end="4s">last one</p></div></body></tt>"#.utf8)), hint: .ttml)]
        var pieces = 0
        for document in documents {
            for seed in 1...30 as ClosedRange<UInt64> {
                let edits = TextCueSplicerTests.edits(for: document, seed: seed)
                // The splice itself is UTF-8 (a UTF-16 file is encoded after it).
                let utf8 = try document.writeUTF8(edits: edits)
                var reserved = 0
                let made = try Self.pieces { try TTMLWriter.apply(edits, to: document, chunk: chunk, reserve: { reserved = $0 }, into: $0) }
                #expect(made.done && made.bytes == utf8, "\(document.cues.first?.line ?? 0) seed \(seed)")
                #expect(reserved >= utf8.count)
                pieces += made.count
                let whole = try document.writeBytes(edits: edits)
                let written = try Self.pieces { try document.write(edits: edits, into: $0) }
                #expect(written.done && written.bytes == whole)
            }
        }
        #expect(pieces > documents.count * 30 * (chunk < 64 ? 2 : 1) - 1)
    }

    @Test func whatIsNotSplicedInPiecesIsHandedOnWhole() throws {
        // A byte-order mark comes first; an output with a prolog edit (a language declared) comes in one piece.
        let bom = try CaptionDocument.read(SourceText.decode(bytes: [0xEF, 0xBB, 0xBF] + Array("1\n00:00:01,000 --> 00:00:02,000\nhello world\n".utf8)), hint: .srt)
        let edits = [0: CueEdit(emphasis: [CueEdit.RunRange(run: 0, utf8: 0..<5)])]
        #expect(bom.writesAsMade(edits: edits))
        let bomPieces = try TextCueSplicerPiecesTests.pieces { try bom.write(edits: edits, into: $0) }
        let bomWhole = try bom.writeBytes(edits: edits)
        #expect(bomPieces.bytes == bomWhole && bomPieces.bytes.starts(with: [0xEF, 0xBB, 0xBF, 0x31]))
        let vtt = try CaptionDocument.read(SourceText.decode(bytes: Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello world\n".utf8)), hint: .vtt)
        let french = WriteOptions(language: "fr")
        #expect(!vtt.writesAsMade(edits: edits, options: french))
        let vttPieces = try TextCueSplicerPiecesTests.pieces { try vtt.write(edits: edits, options: french, into: $0) }
        let vttWhole = try vtt.writeBytes(edits: edits, options: french)
        let vttPlain = try vtt.writeBytes(edits: edits)
        #expect(vttPieces.count == 1 && vttPieces.bytes == vttWhole && vttWhole != vttPlain)
        #expect(!bom.writesAsMade(edits: [:]))
    }
}
