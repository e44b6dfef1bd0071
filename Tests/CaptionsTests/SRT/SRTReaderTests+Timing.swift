import Testing
@testable import Captions

/// SRT timestamps: the usual `HH:MM:SS,mmm` is read at once, every other form
/// digit by digit; each form in the table reads to its milliseconds or is
/// refused.
@Suite struct SRTTimestampTests {
    static let cases: [(String, Int64?)] = [
        ("01:02:03,456", 3_723_456), ("00:00:00,000", 0), ("99:59:59,999", 359_999_999), ("1:02:03,456", 3_723_456),
        ("001:02:03,456", 3_723_456), ("01:02:03,45", 3_723_450), ("01:02:03,4567", nil), ("01:60:03,456", nil),
        ("01:02:60,456", nil), ("01:59:59,999", 7_199_999), ("0a:02:03,456", nil), ("01:02:03;456", nil), ("01:2:03,456", 3_723_456),
    ]

    @Test func eachFormReadsToItsMillisecondsOrIsRefused() throws {
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
}
