import Foundation
import Testing
@testable import Captions

/// Inputs that crashed a fuzz target (`scripts/fuzz.sh`), kept as they were
/// found, each with what it must do now. The fuzz targets' oracle is repeated
/// here: read, write back unchanged, write with a small edit, read that again.
@Suite struct FuzzRegressionTests {
    /// The edit the fuzz targets make: bold on the first word of the first
    /// cue's first plain run, and text appended to the last cue.
    static func smallEdit(_ document: CaptionDocument) -> [Int: CueEdit] {
        var edits: [Int: CueEdit] = [:]
        for (i, cue) in document.cues.enumerated() {
            guard let r = cue.runs.firstIndex(where: { $0.kind == .text && !$0.style.contains(.bold) }) else { continue }
            let word = cue.runs[r].text.utf8.prefix { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }.count
            if word > 0 { edits[i] = CueEdit(emphasis: [.init(run: r, utf8: 0..<word)]) }
            break
        }
        if !document.cues.isEmpty { edits[document.cues.count - 1, default: CueEdit()].appendedText = " [fuzz]" }
        return edits
    }

    /// Reads, writes back unchanged and edited, and reads the edited output again.
    static func roundTrip(_ raw: [UInt8], hint: CaptionFormat) throws -> (CaptionDocument, Data) {
        let data = Data(raw)
        let document = try CaptionDocument.read(data, hint: hint)
        #expect(document.format == hint)
        #expect(try document.write() == data)
        let edited = try document.write(edits: smallEdit(document))
        let again = try CaptionDocument.read(edited, hint: hint)
        #expect(again.cues.count == document.cues.count)
        return (document, edited)
    }

    /// srt-crash-4d9e967d: invalid UTF-8 at the start of a cue's text becomes
    /// U+FFFD (3 bytes) in the run's text, so the emphasis offsets (in the text)
    /// ran past the raw bytes and the splicer trapped on an out-of-range slice.
    @Test func emphasisAfterInvalidUTF8InSRT() throws {
        let found: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("1\n0000:00:01,000 --> 00:00:02,000\n".utf8)
            + [UInt8](repeating: 0xFF, count: 21) + Array(" 0:0:01*:00:01,00".utf8)
        let (document, edited) = try Self.roundTrip(found, hint: .srt)
        #expect(document.source.encoding == .utf8)
        #expect(!document.warnings.isEmpty)
        // The bold wraps exactly the 21 invalid bytes, which are kept as they came.
        let expected: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("1\n0000:00:01,000 --> 00:00:02,000\n<b>".utf8)
            + [UInt8](repeating: 0xFF, count: 21) + Array("</b> 0:0:01*:00:01,00 [fuzz]".utf8)
        #expect([UInt8](edited) == expected)
    }

    /// The same with a cut multi-byte sequence inside a word, and enough valid
    /// accents around it that the file is still read as (damaged) UTF-8.
    @Test func emphasisAcrossACutSequenceInSRT() throws {
        let raw: [UInt8] = Array("1\n00:00:01,000 --> 00:00:02,000\nZoë".utf8) + [0xE2, 0x82]
            + Array("déjà vu — naïve café ♪ üö\n".utf8)
        let (_, edited) = try Self.roundTrip(raw, hint: .srt)
        let expected: [UInt8] = Array("1\n00:00:01,000 --> 00:00:02,000\n<b>Zoë".utf8) + [0xE2, 0x82]
            + Array("déjà</b> vu — naïve café ♪ üö [fuzz]\n".utf8)
        #expect([UInt8](edited) == expected)
    }

    @Test func repairedOffsetMapsTextOffsetsToRawOffsets() {
        let raw: ArraySlice<UInt8> = [0x61, 0xFF, 0x62, 0xE2, 0x82, 0x63, 0xC3, 0xA9][...]
        // Text: "a" FFFD "b" FFFD "c" "é" → UTF-8 offsets 0 1 4 5 8 9 11.
        let pairs = [(0, 0), (1, 1), (4, 2), (5, 3), (8, 5), (9, 6), (11, 8), (99, 8)]
        for (plain, expected) in pairs {
            #expect(TextCueSplicer.repairedOffset(raw, plain) == expected, "text offset \(plain)")
        }
        #expect(String(decoding: raw, as: UTF8.self).utf8.count == 11)
    }
}
