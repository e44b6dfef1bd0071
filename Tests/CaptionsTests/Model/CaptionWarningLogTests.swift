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
        let source = try SourceText.decode(Data(bytes))
        // Every value is the same kind (its number set aside): 20 kept, then the count.
        #expect(source.warnings.count == CaptionWarningLog.perKind + 1)
        #expect(source.warnings.last?.message == "49980 more warnings like “invalid UTF-32 value 0xe9e9e9e9 replaced with U+FFFD” were left out")
    }

    @Test func linesOfInvalidUTF8AreCappedAndCounted() throws {
        // With a byte-order mark, so the file is read as (damaged) UTF-8.
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF, 0x61, 0x0A] + (0..<100).flatMap { _ in [0xFF, 0x0A] as [UInt8] }
        let source = try SourceText.decode(bytes: bytes)
        #expect(source.warnings.count == CaptionWarningLog.perKind + 2)
        #expect(source.warnings.prefix(CaptionWarningLog.perKind).map(\.line) == Array(2...21))
        #expect(source.warnings.contains { $0.message == "100 invalid UTF-8 bytes in all, on 100 lines" })
        #expect(source.warnings.last?.message.hasPrefix("80 more warnings like “invalid UTF-8 bytes") == true)
    }

    @Test func warningKindsSetNumbersAndQuotedValuesAside() {
        #expect(CaptionWarning.kind(of: "cue number 7 is not in sequence (expected 5)")
                == CaptionWarning.kind(of: "cue number 12 is not in sequence (expected 11)"))
        #expect(CaptionWarning.kind(of: #"cue number "a" is not a number"#) == CaptionWarning.kind(of: #"cue number "bb" is not a number"#))
        #expect(CaptionWarning.kind(of: "cue has no text") != CaptionWarning.kind(of: "cue has no cue number"))
        // A number runs on through the letters after its first digit (hexadecimal values, "3rd").
        #expect(CaptionWarning.kind(of: "value 0xe9e9 replaced") == CaptionWarning.kind(of: "value 0x1f replaced"))
        #expect(CaptionWarning.kind(of: "value 0xe9e9 replaced") == "value # replaced")
        #expect(CaptionWarning.kind(of: "U+FFFD stays") == "U+FFFD stays")
    }

    @Test func theLogKeepsTwentyOfAKindThenCountsTheRest() {
        var log = CaptionWarningLog()
        for i in 0..<50 { log.warn(i, "cue number \(i) is odd") }
        log.warn(99, "other")
        let kept = log.finish()
        #expect(kept.count == CaptionWarningLog.perKind + 2)
        #expect(kept[CaptionWarningLog.perKind].message == "other")
        #expect(kept.last?.message == "30 more warnings like “cue number 0 is odd” were left out")
    }

    @Test func theLogKeepsAtMostItsLimitWhateverTheKinds() {
        var log = CaptionWarningLog()
        // Kinds a number cannot set together: one per letter pair.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for a in letters { for b in letters { for c in letters.prefix(3) { log.warn(1, "element <\(a)\(b)\(c)> is unknown") } } }
        let kept = log.finish()
        #expect(kept.count == CaptionWarningLog.limit + 1)
        #expect(kept.last?.message == "\(26 * 26 * 3 - CaptionWarningLog.limit) more warnings were left out (a document keeps at most \(CaptionWarningLog.limit))")
    }

    @Test func ttmlTimingWarningsAreCappedByKind() throws {
        let p = String(repeating: "<p begin=\"x\" end=\"2s\">a</p>", count: 100)
        let doc = try CaptionDocument.read(Data("<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div>\(p)</div></body></tt>".utf8))
        let timing = doc.warnings.filter { $0.message.hasPrefix("begin on <p> ignored") }
        #expect(timing.count == CaptionWarningLog.perKind)
        #expect(doc.warnings.contains { $0.message.hasPrefix("80 more warnings like “begin on <p> ignored") })
    }
}
