import Foundation
import Testing
import TestSupport
@testable import Captions

/// Warnings are capped per kind, so a file with thousands of the same
/// problem gives a short list that says how many were left out.
@Suite(.mayBlock) struct CaptionWarningCapTests {
    @Test func tenThousandBadSRTCuesGiveABoundedWarningList() throws {
        let bad = String(repeating: "x\n00:00:01,000 --> 00:00:02,000\n\n", count: 10_000)
        let doc = try CaptionDocument.read(Data(("1\n00:00:00,000 --> 00:00:01,000\nok\n\n" + bad).utf8), hint: .srt)
        #expect(doc.warnings.count < 200)
        #expect(doc.warnings.contains { $0.message.contains("more warnings like") })
    }

    @Test func utf32WithEightBitTextGivesABoundedWarningList() throws {
        var bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x00]
        for _ in 0..<50_000 { bytes += [0xE9, 0xE9, 0xE9, 0xE9] }
        if let doc = try? CaptionDocument.read(Data(bytes)) {
            #expect(doc.warnings.count <= 2 * CaptionWarning.perKind + 2)
        } else {
            let source = try SourceText.decode(Data(bytes))
            #expect(source.warnings.count <= CaptionWarning.perKind + 2)
            #expect(source.warnings.contains { $0.message.contains("more invalid UTF-32 values") })
        }
    }

    @Test func warningKindsSetNumbersAndQuotedValuesAside() {
        #expect(CaptionWarning.kind(of: "cue number 7 is not in sequence (expected 5)")
                == CaptionWarning.kind(of: "cue number 12 is not in sequence (expected 11)"))
        #expect(CaptionWarning.kind(of: #"cue number "a" is not a number"#) == CaptionWarning.kind(of: #"cue number "bb" is not a number"#))
        #expect(CaptionWarning.kind(of: "cue has no text") != CaptionWarning.kind(of: "cue has no cue number"))
        let many = (0..<50).map { (i: Int) in CaptionWarning(line: i, message: "cue number \(i) is odd") } + [CaptionWarning(line: 99, message: "other")]
        let capped = CaptionWarning.capped(many)
        #expect(capped.count == CaptionWarning.perKind + 2)
        #expect(capped.last?.message == "30 more warnings like “cue number 0 is odd” were left out")
    }
}
