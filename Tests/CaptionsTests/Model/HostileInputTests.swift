import Foundation
import Testing
import TestSupport
@testable import Captions

/// Broken, huge and hostile files, built here rather than committed: each must
/// give a clear `CaptionError` for that file or a read (with warnings where
/// something was repaired) — never a trap, a hang or an unexpected error type.
///
/// Whatever reads must also write back, with no edits, exactly the bytes it
/// came from. The full-size memory figures (50 MB line, a million cues) come
/// from `scripts/hostile-memory.sh` on the release build, not from here.
@Suite(.mayBlock) struct HostileInputTests {
    // MARK: Helpers

    /// What reading a file gave: a document, or the per-file error.
    enum Outcome {
        case read(CaptionDocument)
        case refused(CaptionError)

        var document: CaptionDocument? { if case .read(let d) = self { d } else { nil } }
        var error: CaptionError? { if case .refused(let e) = self { e } else { nil } }
    }

    /// Reads `data`; an error that is not a `CaptionError` fails the test.
    /// A read must write back the input exactly; a refusal must say something.
    static func outcome(_ data: Data, hint: CaptionFormat?, sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        do {
            let document = try CaptionDocument.read(data, hint: hint)
            let back = try? document.write()
            #expect(back == data, "reading then writing with no edits changed the bytes", sourceLocation: sourceLocation)
            return .read(document)
        } catch let error as CaptionError {
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
            #expect(error.errorDescription?.isEmpty == false, sourceLocation: sourceLocation)
            return .refused(error)
        } catch {
            Issue.record("expected a CaptionError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
            return .refused(CaptionError(.unsupported, message: "\(error)"))
        }
    }

    static func bytes(_ s: String) -> Data { Data(s.utf8) }

    static let srtCue = "1\n00:00:01,000 --> 00:00:02,000\nHello there\n"
    static let vttCue = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello there\n"
    static let ttmlHead = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        + #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">"#
        + "<body><div>\n"
    static let ttmlTail = "</div></body></tt>\n"
    static let ttmlCue = ttmlHead + #"<p begin="00:00:01.000" end="00:00:02.000">Hello there</p>"# + "\n" + ttmlTail

    // MARK: Empty and binary

    @Test(arguments: [CaptionFormat.srt, .vtt, .ttml, nil])
    func emptyFileIsAnEmptyFileError(_ hint: CaptionFormat?) throws {
        for data in [Data(), Self.bytes("\n\r\n  \t\n"), Data([0xEF, 0xBB, 0xBF]), Data([0xFF, 0xFE])] {
            let error = try #require(Self.outcome(data, hint: hint).error)
            #expect(error.code == .emptyFile)
        }
    }

    @Test(arguments: [CaptionFormat.srt, .vtt, .ttml, nil])
    func nulBytesOnlyIsBinary(_ hint: CaptionFormat?) throws {
        let error = try #require(Self.outcome(Data(count: 4096), hint: hint).error)
        #expect(error.code == .binaryFile)
    }

    @Test func nulBytesInsideCueTextReadOrFailCleanly() throws {
        let srt = Self.bytes("1\n00:00:01,000 --> 00:00:02,000\nHel\0lo\n\n2\n00:00:03,000 --> 00:00:04,000\n\0\0\0\n")
        let vtt = Self.bytes("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHel\0lo\n")
        let ttml = Self.bytes(Self.ttmlHead + "<p begin=\"1s\" end=\"2s\">Hel\0lo</p>" + Self.ttmlTail)
        let srtDoc = try #require(Self.outcome(srt, hint: .srt).document)
        #expect(srtDoc.cues.count == 2)
        let vttDoc = try #require(Self.outcome(vtt, hint: .vtt).document)
        #expect(vttDoc.cues.count == 1)
        // A NUL is not allowed in XML at all: libxml2 refuses the document.
        let error = try #require(Self.outcome(ttml, hint: .ttml).error)
        #expect(error.code == .malformedXML)
    }

    static let notCaptions: [(String, [UInt8])] = [
        ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89]
            + [UInt8](repeating: 0x0A, count: 8) + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }),
        ("JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00]
            + (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 40503 >> 7) } + [0xFF, 0xD9]),
        ("ZIP", Array("PK\u{3}\u{4}\u{14}\0\0\0\u{8}\0".utf8) + (0..<1500).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
            + Array("PK\u{5}\u{6}".utf8) + [UInt8](repeating: 0, count: 18)),
        ("HTML", Array("<!DOCTYPE html>\n<html><head><title>00:00:01,000 --> 00:00:02,000</title></head>\n<body><p>Not captions</p></body></html>\n".utf8)),
        ("JSON", Array("{\"keywords\": [\"a\"], \"time\": \"00:00:01,000 --> 00:00:02,000\",\n \"n\": [1, 2, 3]}\n".utf8)),
    ]

    @Test(arguments: [CaptionFormat.srt, .vtt, .ttml, nil])
    func filesThatAreNotCaptionsAreRefused(_ hint: CaptionFormat?) throws {
        for (name, raw) in Self.notCaptions {
            let result = Self.outcome(Data(raw), hint: hint)
            #expect(result.error != nil, "\(name) renamed .\(hint?.rawValue ?? "?") was read as captions")
        }
    }

    @Test func pngRenamedSRTIsBinary() throws {
        let error = try #require(Self.outcome(Data(Self.notCaptions[0].1), hint: .srt).error)
        #expect(error.code == .binaryFile)
    }

    // MARK: Huge

    /// One cue whose text is a single line of `size` bytes.
    static func giantLine(_ size: Int, prefix: String) -> Data {
        var data = Data(prefix.utf8)
        data.append(Data(repeating: UInt8(ascii: "a"), count: size))
        data.append(contentsOf: Array("\n".utf8))
        return data
    }

    /// Reads of 50 MB in a debug build on a shared 2-core machine take a few
    /// seconds; the time limit only stops a hang.
    @Test(.timeLimit(.minutes(2)), arguments: [CaptionFormat.srt, .vtt, .ttml])
    func fiftyMegabyteTextLineReads(_ format: CaptionFormat) throws {
        let size = 50 << 20
        let prefix = switch format {
        case .srt: "1\n00:00:01,000 --> 00:00:02,000\n"
        case .vtt: "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"
        case .ttml: Self.ttmlHead + "<p begin=\"1s\" end=\"2s\">"
        }
        var data = Self.giantLine(size, prefix: prefix)
        if format == .ttml { data.removeLast(); data.append(Self.bytes("</p>\n" + Self.ttmlTail)) }
        let doc = try #require(Self.outcome(data, hint: format).document)
        #expect(doc.cues.count == 1)
        #expect(doc.cues.first?.textRange.count == size)
    }

    @Test(.timeLimit(.minutes(2)), arguments: [CaptionFormat.srt, nil])
    func fiftyMegabyteLineWithoutTimingIsRefused(_ hint: CaptionFormat?) throws {
        let data = Self.giantLine(50 << 20, prefix: "")
        let error = try #require(Self.outcome(data, hint: hint).error)
        #expect([.noCues, .unrecognizedFormat].contains(error.code), "\(error.code)")
    }

    /// After a good header, a block with no timing line is not a cue: WebVTT
    /// ignores it (with a warning) or refuses the file.
    @Test(.timeLimit(.minutes(2)))
    func fiftyMegabyteVTTBlockWithoutTimingHasNoCues() throws {
        let data = Self.giantLine(50 << 20, prefix: "WEBVTT\n\n")
        switch Self.outcome(data, hint: .vtt) {
        case .read(let doc):
            #expect(doc.cues.isEmpty)
            #expect(!doc.warnings.isEmpty)
        case .refused(let error):
            #expect(error.code == .noCues)
        }
    }

    /// A quarter of a million cues here (about 9 MB); the full million is measured
    /// by `scripts/hostile-memory.sh` in a release build.
    @Test(.timeLimit(.minutes(2)), arguments: [CaptionFormat.srt, .vtt])
    func manyTinyCuesRead(_ format: CaptionFormat) throws {
        let count = 250_000
        var text = format == .vtt ? "WEBVTT\n\n" : ""
        text.reserveCapacity(count * 40)
        let comma = format == .srt ? "," : "."
        for i in 0..<count {
            let s = i / 1000, ms = i % 1000
            let t = "\(s / 3600):\(String(s / 60 % 60).leftPad(2)):\(String(s % 60).leftPad(2))\(comma)\(String(ms).leftPad(3))"
            let stamp = "0" + t
            text += "\(i + 1)\n\(stamp) --> \(stamp)\nx\n\n"
        }
        let doc = try #require(Self.outcome(Self.bytes(text), hint: format).document)
        #expect(doc.cues.count == count)
        #expect(doc.cues.last?.plainText == "x")
    }

    // MARK: Timestamps that overflow

    static let overflowingSRT = [
        "99999999:99:99,999 --> 99999999:99:99,999",
        "9999999999999999999999999999999999999999:00:00,000 --> 00:00:02,000",
        "00:00:01,000 --> 9223372036854775807:00:00,000",
        "00:00:01,000 --> 00:00:00,99999999999999999999999",
        "00:99999999999999999999:00,000 --> 00:00:02,000",
    ]

    @Test(arguments: overflowingSRT)
    func overflowingSRTTimestampIsSkippedWithAWarning(_ timing: String) throws {
        let text = "1\n" + timing + "\nbad\n\n" + "2\n00:00:05,000 --> 00:00:06,000\ngood\n"
        switch Self.outcome(Self.bytes(text), hint: .srt) {
        case .read(let doc):
            #expect(doc.cues.map(\.plainText) == ["good"] || doc.cues.count == 2)
            if doc.cues.count == 1 { #expect(doc.warnings.contains { $0.line == 2 }, "\(doc.warnings)") }
            for cue in doc.cues { #expect(cue.start <= cue.end || doc.warnings.contains { $0.line == cue.line }) }
        case .refused(let error):
            #expect(error.code == .malformedTiming)
            #expect(error.line == 2)
        }
    }

    static let overflowingVTT = [
        "99999999:59:59.999 --> 99999999:59:59.999",
        "99999999:99:99.999 --> 99999999:99:99.999",
        "9999999999999999999999999999999999999999:00:00.000 --> 00:00:02.000",
        "00:00:01.000 --> 9223372036854775807:00:00.000",
        "00:01.000 --> 00:02.99999999999999999999",
    ]

    @Test(arguments: overflowingVTT)
    func overflowingVTTTimestampIsSkippedWithAWarning(_ timing: String) throws {
        let text = "WEBVTT\n\n" + timing + "\nbad\n\n00:00:05.000 --> 00:00:06.000\ngood\n"
        switch Self.outcome(Self.bytes(text), hint: .vtt) {
        case .read(let doc):
            #expect(doc.cues.last?.plainText == "good")
            if doc.cues.count == 1 { #expect(doc.warnings.contains { $0.line == 3 }, "\(doc.warnings)") }
        case .refused(let error):
            #expect(error.code == .malformedTiming)
        }
    }

    static let overflowingTTML = [
        #"begin="9999999999999999999999999999999999999999:00:00.000" end="2s""#,
        #"begin="99999999:99:99.999" end="99999999:99:99.999""#,
        #"begin="1s" end="99999999999999999999999999h""#,
        #"begin="1s" end="9223372036854775807t""#,
        #"begin="1s" dur="9223372036854775807h""#,
        #"begin="0.99999999999999999999999999999s" end="2s""#,
        #"begin="1s" end="10:00:00:99999999999999999999""#,
    ]

    @Test(arguments: overflowingTTML)
    func overflowingTTMLTimeIsAWarningOrAClearError(_ attributes: String) throws {
        let text = Self.ttmlHead + "<p \(attributes)>bad</p>\n<p begin=\"5s\" end=\"6s\">good</p>\n" + Self.ttmlTail
        switch Self.outcome(Self.bytes(text), hint: .ttml) {
        case .read(let doc):
            #expect(doc.cues.last?.plainText == "good")
            if doc.cues.count == 1 { #expect(!doc.warnings.isEmpty) }
        case .refused(let error):
            #expect(error.code == .malformedTiming)
        }
    }

    // MARK: Encodings

    @Test(arguments: [CaptionFormat.srt, .vtt])
    func invalidUTF8InsideUTF8KeepsItsBytesAndWarns(_ format: CaptionFormat) throws {
        let head = format == .srt ? "1\n00:00:01,000 --> 00:00:02,000\n" : "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"
        // Enough good multi-byte characters that the few bad bytes read as damage, not Windows-1252.
        var data = Self.bytes(head + "Zoë déjà vu — naïve café, Ärger über Öl, Größe ñandú ♪ ♫ ")
        data.append(contentsOf: [0xFF, 0xC3, 0x28, 0xE2, 0x82])  // a stray byte, a bad pair, a cut sequence
        data.append(Self.bytes(" ♪ naïve café\n"))
        let doc = try #require(Self.outcome(data, hint: format).document)
        #expect(doc.source.encoding == .utf8)
        #expect(doc.cues.count == 1)
        #expect(doc.warnings.contains { $0.line == 3 || $0.line == 4 }, "\(doc.warnings)")
    }

    @Test(arguments: [CaptionFormat.srt, .vtt, .ttml])
    func utf16WithoutAByteOrderMarkReads(_ format: CaptionFormat) throws {
        let text = format == .srt ? Self.srtCue : format == .vtt ? Self.vttCue
            : Self.ttmlCue.replacingOccurrences(of: "UTF-8", with: "UTF-16")
        for little in [true, false] {
            var data = Data()
            for unit in text.utf16 {
                let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                data.append(contentsOf: little ? pair : pair.reversed())
            }
            switch Self.outcome(data, hint: format) {
            case .read(let doc):
                #expect(doc.source.encoding == (little ? .utf16LittleEndian : .utf16BigEndian))
                #expect(doc.cues.map(\.plainText) == ["Hello there"])
                #expect(!doc.warnings.isEmpty)
            case .refused(let error):
                Issue.record("UTF-16 without a byte-order mark was refused: \(error.localizedDescription)")
            }
        }
    }

    // MARK: Truncated

    @Test func truncatedSRTKeepsTheWholeCues() throws {
        let full = "1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i>\n\n2\n00:00:03,000 --> 00:00:04,000\n<i>World</i>\n"
        for cut in ["1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i>\n\n2\n00:00:03,0",   // mid timing line
                    "1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i>\n\n2\n00:00:03,000 --> 00:00:04,000\n<i",  // mid tag
                    "1\n00:00:01,000 --> 00:00:02,000\n<i>Hel",  // mid cue, mid tag pair
                    "1\n00:00:01,000 --> 00:00:0"] {
            #expect(full.hasPrefix(cut))
            switch Self.outcome(Self.bytes(cut), hint: .srt) {
            case .read(let doc):
                #expect(doc.cues.first?.plainText.hasPrefix("Hel") == true)
            case .refused(let error):
                #expect(cut.count < 40, "a file with a whole first cue was refused: \(error.localizedDescription)")
                #expect([.malformedTiming, .noCues].contains(error.code))
            }
        }
    }

    @Test func truncatedVTTKeepsTheWholeCues() throws {
        for cut in ["WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n\n00:00:03.0",
                    "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello <b>wor",
                    "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello <b"] {
            let doc = try #require(Self.outcome(Self.bytes(cut), hint: .vtt).document)
            #expect(doc.cues.first?.plainText.hasPrefix("Hello") == true)
        }
    }

    @Test func truncatedTTMLIsMalformedXMLWithALine() throws {
        let full = Self.ttmlCue
        for length in [full.utf8.count - 10, full.utf8.count / 2, full.utf8.count - 30] {
            let cut = Data(full.utf8.prefix(length))
            let error = try #require(Self.outcome(cut, hint: .ttml).error)
            #expect(error.code == .malformedXML)
            #expect(error.line != nil)
        }
    }

    // MARK: Deep nesting

    @Test(.timeLimit(.minutes(2)), arguments: [CaptionFormat.srt, .vtt])
    func hundredThousandNestedBoldTagsRead(_ format: CaptionFormat) throws {
        let depth = 100_000
        let head = format == .srt ? "1\n00:00:01,000 --> 00:00:02,000\n" : "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"
        let text = head + String(repeating: "<b>", count: depth) + "deep" + String(repeating: "</b>", count: depth) + "\n"
        let doc = try #require(Self.outcome(Self.bytes(text), hint: format).document)
        #expect(doc.cues.count == 1)
        #expect(doc.cues.first?.plainText == "deep")
        // Unclosed: 100,000 opening tags and no closing ones.
        let open = head + String(repeating: "<b>", count: depth) + "deep\n"
        let doc2 = try #require(Self.outcome(Self.bytes(open), hint: format).document)
        #expect(doc2.cues.first?.plainText == "deep")
    }

    @Test(.timeLimit(.minutes(2)))
    func tenThousandNestedSpansAreRefusedByADepthLimit() throws {
        let depth = 10_000
        let text = Self.ttmlHead + "<p begin=\"1s\" end=\"2s\">" + String(repeating: "<span>", count: depth) + "deep"
            + String(repeating: "</span>", count: depth) + "</p>\n" + Self.ttmlTail
        let error = try #require(Self.outcome(Self.bytes(text), hint: .ttml).error)
        #expect([.malformedXML, .tooLarge].contains(error.code), "\(error.code)")
        #expect(error.line != nil)
    }

    // MARK: XML hostility

    /// A DOCTYPE that declares nothing and loads nothing asks nothing of the
    /// parser: reading it, or refusing every DOCTYPE, are both fine.
    @Test func bareDoctypeReadsOrIsRefused() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE tt>\n"
            + "<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"1s\" end=\"2s\">hi</p></div></body></tt>\n"
        switch Self.outcome(Self.bytes(text), hint: .ttml) {
        case .read(let doc): #expect(doc.cues.map(\.plainText) == ["hi"])
        case .refused(let error): #expect(error.code == .forbiddenDocumentType)
        }
    }

    /// Each DOCTYPE that declares or loads something, with the text of the one
    /// cue (which uses its entity).
    static let doctypes: [(String, String)] = [
        // Billion laughs.
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE tt [\n<!ENTITY a \"aaaaaaaaaa\">\n<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">\n<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">\n<!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">\n<!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\">\n<!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">\n<!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\">\n]>\n", "&h;"),
        // An external entity (XXE).
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE tt [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n", "&xxe;"),
        // An external DTD.
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE tt SYSTEM \"http://example.invalid/tt.dtd\">\n", "hi"),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: doctypes)
    func ttmlWithADoctypeIsRefused(_ prolog: String, _ text: String) throws {
        let body = "<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"1s\" end=\"2s\">\(text)</p></div></body></tt>\n"
        let error = try #require(Self.outcome(Self.bytes(prolog + body), hint: .ttml).error)
        #expect(error.code == .forbiddenDocumentType)
        #expect(!error.message.contains("root:"))
    }
}

/// Short descriptions in failure messages: a document of 50 MB must not be printed.
extension HostileInputTests.Outcome: CustomTestStringConvertible {
    var testDescription: String {
        switch self {
        case .read(let d): "read \(d.format) with \(d.cues.count) cues and \(d.warnings.count) warnings"
        case .refused(let e): "refused (\(e.code)): \(e.localizedDescription)"
        }
    }
}

private extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
