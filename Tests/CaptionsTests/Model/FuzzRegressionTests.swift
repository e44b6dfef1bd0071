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

    /// vtt-crash-7cf793f3 (Windows-1252, NULs and references in one run): the
    /// run's text and raw bytes had the same length by chance (a NUL is 1 byte
    /// for U+FFFD's 3, a reference 4 to 6 bytes for 1 to 3), so the splicer took
    /// text offsets for raw ones and closed the bold inside a character; writing
    /// it back in Windows-1252 then threw on the U+FFFD that made.
    @Test func emphasisWhenRawAndTextLengthsMatchByChanceInVTT() throws {
        let found: [UInt8] = [
            0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0A, 0x0A, 0x30, 0x30, 0x3A, 0x30, 0x30, 0x30, 0x30, 0x30,
            0x0A, 0x54, 0x6F, 0x6D, 0x20, 0x26, 0x61, 0x6D, 0x70, 0x3B, 0x20, 0x4A, 0x65, 0x72, 0x72, 0x79,
            0x20, 0x26, 0x6C, 0x74, 0x3B, 0x33, 0x20, 0x26, 0x67, 0x74, 0x3B, 0x33, 0x20, 0x26, 0x67, 0x74,
            0x3B, 0x20, 0x61, 0x6C, 0x6C, 0x0A, 0x0A, 0x30, 0x30, 0x3A, 0x30, 0x30, 0x3A, 0x30, 0x32, 0x2E,
            0x30, 0x30, 0x30, 0x20, 0x2D, 0x2D, 0x3E, 0x20, 0x30, 0x30, 0x3A, 0x30, 0x30, 0x3A, 0x30, 0x33,
            0x2E, 0x30, 0x30, 0x30, 0x0A, 0x6E, 0x6F, 0x6E, 0x26, 0x53, 0x65, 0x71, 0x75, 0x65, 0x6E, 0x63,
            0x6E, 0x62, 0x73, 0x70, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5A, 0x3B, 0x62, 0x72, 0x65,
            0x61, 0x6B, 0x69, 0x6E, 0x67, 0x26, 0x6C, 0x72, 0x6D, 0x3B, 0x20, 0x26, 0x72, 0x6C, 0x6D, 0xC5,
            0x9C, 0x9E, 0x99, 0xD9, 0xDC, 0xCD, 0xC4, 0x33, 0x3B, 0x20, 0x26, 0x23, 0x78, 0x45, 0x39, 0x3B,
            0x74, 0x26, 0x65, 0x61, 0x63, 0x75, 0x74, 0x65, 0x3B, 0x20, 0x26, 0x71, 0x75, 0x6F, 0x70, 0x3B,
            0x71, 0x3B, 0x0A, 0x0A, 0x30, 0x7D, 0x30, 0x3B, 0x30, 0x30, 0x3A, 0x30, 0x33, 0x2E, 0x30, 0x30,
            0x30, 0x20, 0x2D, 0x2D, 0x3E, 0x20, 0x30, 0x30, 0x3A, 0x30, 0x30, 0x3A, 0x30, 0x34, 0x2E, 0x20,
            0x2D, 0xDB, 0xC1, 0xDF, 0xCF, 0xCF, 0xC5, 0xCF, 0xCF, 0x3A, 0x30, 0x32, 0x2E, 0x30, 0x2E, 0x75,
            0x6F, 0x74, 0x3B, 0x20, 0x26, 0x61, 0x70, 0x6F, 0xEF, 0xEF, 0xEF, 0x30, 0x20, 0x2D, 0xDB, 0xC1,
            0xDF, 0xCF, 0xCF, 0x2E, 0x30, 0x2E, 0x6F, 0x30,
        ]
        let (document, edited) = try Self.roundTrip(found, hint: .vtt)
        #expect(document.source.encoding == .windows1252)
        let text = String(decoding: edited, as: UTF8.self)  // Windows-1252 bytes 0x80+ read as U+FFFD here; ASCII is enough
        #expect(text.contains("\n<b>non&Sequencnbsp\u{1}\0\0\0\0\0\0Z;breaking&lrm;</b> &rlm"))
    }

    /// The same mix cut down: two NULs (+4 bytes as text) balance one `&amp;` (-4).
    @Test func emphasisEndsAfterAReferenceInVTT() throws {
        let raw = Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nTom&amp;Jerry says\0\0 hi\n".utf8)
        let (document, edited) = try Self.roundTrip(raw, hint: .vtt)
        let run = try #require(document.cues.first?.runs.first)
        #expect(run.text.utf8.count == run.source.count)
        #expect([UInt8](edited) == Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<b>Tom&amp;Jerry</b> says\0\0 hi [fuzz]\n".utf8))
    }
}
