import Foundation
import Testing
@testable import Captions

/// `Cue.forEachRun` is the one walk over a cue's runs: an SRT cue not built
/// yet is walked on its source bytes, any other cue on its runs. Whichever
/// way a cue is stored, its runs, outlines, readable text and the emphasis
/// found in it must be the same.
@Suite struct CueRunWalkTests {
    /// Cue texts whose markup SRT and WebVTT read alike (`<b>`, `<i>`, `<u>`,
    /// line breaks, no character references, no `<` outside a tag).
    static let sharedMarkup: [String] = [
        "Plain line",
        "The <b>rocket</b> is on the <i>launch pad</i>.",
        "first line\nsecond <u>line</u>",
        "<b>bold <i>and italic</i></b> plain\r\n<i>rocket</i>launch",
        "café — déjà vu… naïve 🎬",
        "  spaced  \n\t tabbed\t",
        "<b>open without close\nstill bold</b> not",
        "un</b>balanced <i>x</i></i> y",
        "<i>rock</i>et rocket<b>s</b>",
    ]

    /// The cue as SRT and as WebVTT, each read from its own document.
    static func both(_ text: String) throws -> (srt: Cue, vtt: Cue) {
        let crlf = text.contains("\r\n")
        let nl = crlf ? "\r\n" : "\n"
        let srt = try CaptionDocument.read(SourceText.decode(bytes: Array("1\(nl)00:00:01,000 --> 00:00:02,000\(nl)\(text)\(nl)\(nl)".utf8)), hint: .srt)
        let vtt = try CaptionDocument.read(SourceText.decode(bytes: Array("WEBVTT\(nl)\(nl)00:00:01.000 --> 00:00:02.000\(nl)\(text)\(nl)".utf8)), hint: .vtt)
        return (try #require(srt.cues.first), try #require(vtt.cues.first))
    }

    /// The cue with its runs built, so nothing is walked on the source bytes.
    static func built(_ cue: Cue) -> Cue {
        var cue = cue
        cue.runs = cue.runs
        return cue
    }

    static func readable(_ cue: Cue) -> [UInt8] {
        var out: [UInt8] = []
        cue.appendReadableText(to: &out, lineBreak: 0x20)
        return out
    }

    /// Outlines with their source ranges counted from the start of the cue text.
    static func relativeOutlines(_ cue: Cue) -> [RunOutline] {
        cue.runOutlines().map { outline in
            var o = outline
            o.source = (o.source.lowerBound - cue.textRange.lowerBound)..<(o.source.upperBound - cue.textRange.lowerBound)
            return o
        }
    }

    /// The outline with the style of a markup run left out: an SRT tag run
    /// carries the style after it, a WebVTT one the style around it (what
    /// either reader has always done; no writer or matcher reads it).
    static func textStyle(_ outline: RunOutline) -> RunOutline {
        var o = outline
        if o.kind == .markup { o.style = [] }
        return o
    }

    @Test(arguments: sharedMarkup)
    func anSRTCueAndAWebVTTCueWithTheSameMarkupWalkTheSame(_ text: String) throws {
        let (srt, vtt) = try Self.both(text)
        #expect(srt.runs.map(\.kind) == vtt.runs.map(\.kind))
        #expect(srt.runs.map(\.text) == vtt.runs.map(\.text))
        #expect(Self.relativeOutlines(srt).map(Self.textStyle) == Self.relativeOutlines(vtt).map(Self.textStyle))
        #expect(Self.readable(srt) == Self.readable(vtt))
        #expect(srt.plainText == vtt.plainText)
        #expect(srt.plainText == text.replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: #"</?[biu]>"#, with: "", options: .regularExpression))
    }

    /// SRT text with invalid UTF-8 cut by markup, by line ends and by blank
    /// lines, after a first cue of valid UTF-8 long enough that the file is
    /// read as UTF-8 (invalid bytes kept) rather than as Windows-1252.
    static let damagedSRT: [[UInt8]] = damagedCues.map { Array("0\n00:00:00,000 --> 00:00:00,500\n\(String(repeating: "é", count: 80))\n\n".utf8) + $0 }
    static let damagedCues: [[UInt8]] = [
        [0x31, 0x0A] + Array("00:00:01,000 --> 00:00:02,000\n".utf8) + [0x61, 0xC3, 0x3C, 0x69, 0x3E, 0xA9, 0x62, 0x0A, 0xFF, 0xE2, 0x82, 0x0A, 0x0A],
        Array("1\r\n00:00:01,000 --> 00:00:02,000\r\n".utf8) + [0xE2, 0x80] + Array("<i>".utf8) + [0x99] + Array("</i>ok{\\an8}".utf8) + [0xC3]
            + Array("\r\n  \t\r\n".utf8) + [0xF0, 0x9F] + Array("\r".utf8) + [0x8E, 0xAC] + Array(" tail <b>b</b> < x {y}\r\n\r\n".utf8),
        [0x31, 0x0A] + Array("00:00:01,000 --> 00:00:02,000\n".utf8) + [0xED, 0xA0, 0x80, 0xE0, 0x80, 0xAF, 0xF4, 0x90, 0x80, 0x80, 0xF0, 0x9F, 0x8E, 0xAC, 0x0A],
    ]

    static func fixtures(_ folder: String, _ suffix: String) throws -> [CaptionDocument] {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent("valid/\(folder)")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(suffix) }.sorted()
        return try names.map { try CaptionDocument.read(Data(contentsOf: root.appendingPathComponent($0)), hint: nil) }
    }

    static func documents() throws -> [CaptionDocument] {
        var documents = try damagedSRT.map { try CaptionDocument.read(SourceText.decode(bytes: $0), hint: .srt) }
        #expect(documents.allSatisfy { $0.source.encoding == .utf8 && !$0.source.bytes.withUnsafeBufferPointer(UTF8Repair.isValid) })
        documents += try sharedMarkup.flatMap { text -> [CaptionDocument] in
            let (srt, vtt) = (Array("1\n00:00:01,000 --> 00:00:02,000\n\(text)\n".utf8), Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\(text)\n".utf8))
            return [try CaptionDocument.read(SourceText.decode(bytes: srt), hint: .srt), try CaptionDocument.read(SourceText.decode(bytes: vtt), hint: .vtt)]
        }
        documents += try fixtures("srt", ".srt") + fixtures("vtt", ".vtt") + fixtures("ttml", ".ttml")
        return documents
    }

    @Test func aCueWalksTheSameStoredOrBuilt() throws {
        var cues = 0, lazySRT = 0
        for document in try Self.documents() {
            for cue in document.cues {
                let built = Self.built(cue)
                if let lazy = cue.lazyRuns, case .srt = lazy.builder { lazySRT += 1 }
                #expect(cue.runOutlines() == built.runOutlines(), "\(document.format) line \(cue.line)")
                #expect(Self.readable(cue) == Self.readable(built), "\(document.format) line \(cue.line)")
                #expect(cue.plainText == built.plainText, "\(document.format) line \(cue.line)")
                // The walk gives the runs themselves.
                var walked: [TextRun] = []
                cue.forEachRun { walked.append(TextRun($0)) }
                #expect(walked == built.runs, "\(document.format) line \(cue.line)")
                cues += 1
            }
        }
        #expect(cues > 100 && lazySRT > 50)
    }

    /// The document's readable text leaves whole SRT lines to be repaired
    /// once at the end when the separators are ASCII (its one fast path):
    /// it must read as the built cues' text, each repaired alone, joined.
    @Test(arguments: [(UInt8(0x0A), UInt8(0x20)), (0x0A, 0x0A), (0xFF, 0x20), (0x0A, 0x80), (0x80, 0x0A)])
    func documentReadableTextIsTheBuiltCuesJoined(_ separators: (cue: UInt8, line: UInt8)) throws {
        for document in try Self.documents() {
            var out: [UInt8] = []
            for (i, cue) in document.cues.enumerated() {
                if i > 0 { out.append(separators.cue) }
                Self.built(cue).appendReadableText(to: &out, lineBreak: separators.line)
            }
            #expect(document.readableText(cueSeparator: separators.cue, lineBreak: separators.line) == String(decoding: out, as: UTF8.self),
                    "\(document.format) \(separators)")
        }
    }

    static let keywordSets: [[String]] = [
        ["rocket"], ["launch pad", "rocket"], ["line", "bold"], ["café", "naïve"], ["the", "a", "is", "on"], ["ok", "tail", "b"],
        ["x"], ["rock", "et", "rocket"], ["spaced", "tabbed"], ["still bold", "not"],
    ]

    /// Emphasis on cues as read (pre-checked and, for SRT, walked on the
    /// source bytes) and on the same cues built: the same edits, and the
    /// same bytes written, each document by its own cues.
    @Test(arguments: keywordSets)
    func emphasisGivesTheSameBytesStoredOrBuilt(_ keywords: [String]) throws {
        let emphasis = KeywordEmphasis(keywords: keywords)
        var found = 0
        for document in try Self.documents() {
            var built = document
            built.cues = document.cues.map(Self.built)
            let fromSource = emphasis.apply(to: document.cues)
            let fromRuns = emphasis.apply(to: built.cues)
            #expect(fromSource == fromRuns, "\(keywords) in \(document.format)")
            #expect(try document.writeBytes(edits: fromSource.edits) == built.writeBytes(edits: fromRuns.edits),
                    "\(keywords) in \(document.format)")
            found += fromSource.occurrences
        }
        #expect(found > 0)
    }
}
