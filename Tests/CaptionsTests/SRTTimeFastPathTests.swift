import Testing
@testable import Captions

/// The usual `HH:MM:SS,mmm` time is read at once; every other form goes the
/// digit-by-digit way. Both must read (or refuse) each time as before.
@Suite struct SRTTimeFastPathTests {
    static let cases: [(String, Int64?)] = [
        ("01:02:03,456", 3_723_456), ("00:00:00,000", 0), ("99:59:59,999", 359_999_999), ("1:02:03,456", 3_723_456),
        ("001:02:03,456", 3_723_456), ("01:02:03,45", 3_723_450), ("01:02:03,4567", nil), ("01:60:03,456", nil),
        ("01:02:60,456", nil), ("01:59:59,999", 7_199_999), ("0a:02:03,456", nil), ("01:02:03;456", nil), ("01:2:03,456", 3_723_456),
    ]

    @Test func timesReadAsBefore() throws {
        for (time, expected) in Self.cases {
            let text = "1\n\(time) --> \(time) X:1\nText\n"
            let document = try? CaptionDocument.read(SourceText.decode(bytes: Array(text.utf8)), hint: .srt)
            if let expected {
                let cue = try #require(document?.cues.first, "\(time)")
                #expect(cue.start == CaptionTime(milliseconds: expected), "\(time)")
                #expect(cue.end == CaptionTime(milliseconds: expected), "\(time)")
                #expect(cue.settings == "X:1")
            } else {
                #expect(document?.cues.isEmpty ?? true, "\(time)")
            }
        }
        // A dot before the milliseconds still reads, with its note.
        let dotted = try CaptionDocument.read(SourceText.decode(bytes: Array("1\n00:00:01.500 --> 00:00:02,000\nA\n".utf8)), hint: .srt)
        #expect(dotted.cues.first?.start == CaptionTime(milliseconds: 1500))
        #expect(dotted.warnings.contains { $0.message.contains("'.' instead of ','") })
    }

    @Test func reducedTimesAreTheSame() {
        for ms: Int64 in [0, 1, 2, 5, 8, 10, 125, 250, 500, 999, 1000, 1001, 3_723_456, -1, -8, -1000, .max, .min + 1] {
            let t = CaptionTime(milliseconds: ms)
            #expect(CaptionTime(numerator: ms, denominator: 1000) == t, "\(ms)")
        }
    }
}

/// `SRTWriter.rawOffset` takes ASCII text one byte per byte; it must agree
/// with decoding scalar by scalar (invalid bytes read as U+FFFD, 3 bytes).
@Suite struct SRTRawOffsetTests {
    static func reference(_ raw: ArraySlice<UInt8>, _ plainOffset: Int) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = raw.makeIterator()
        var plain = 0, consumed = 0
        while plain < plainOffset {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): plain += scalar.count; consumed += scalar.count
            case .error(let length): plain += 3; consumed += length
            case .emptyInput: return consumed
            }
        }
        return consumed
    }

    @Test func asciiAndDamagedTextMapAsByDecoding() {
        let samples: [[UInt8]] = [Array("plain text".utf8), Array("café déjà".utf8), [0x61, 0xFF, 0x62, 0xE2, 0x82, 0x63], [], [0xC3], Array("ab".utf8) + [0x80, 0x80]]
        for bytes in samples {
            let padded = [0x7A, 0x7A] + bytes
            let raw = padded[2...]
            for offset in -1...(bytes.count + 4) {
                #expect(SRTWriter.rawOffset(raw, offset) == Self.reference(raw, offset), "\(bytes) at \(offset)")
            }
        }
    }
}
