import Foundation
import Testing
@testable import Captions

private typealias S = WebVTTTestSupport

@Suite("WebVTT writer")
struct WebVTTWriterTests {
    // MARK: Splicing edits

    @Test func emphasisInsideARunWithAnEntity() throws {
        let doc = try S.valid("emphasis_edit.vtt")
        #expect(doc.cues[0].runs[0].text == "Tom & Jerry")
        let out = try doc.write(edits: [0: CueEdit(emphasis: [.init(run: 0, utf8: 6..<11)])])
        #expect(String(decoding: out, as: UTF8.self) ==
            "WEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\nTom &amp; <b>Jerry</b>\r\n\r\n00:00:02.000 --> 00:00:03.000\r\n<i>Hello world</i>\r\n\r\n00:00:03.000 --> 00:00:04.000\r\nThe end\r\n")
    }

    @Test func emphasisAroundTheEntityItselfAndBeforeIt() throws {
        let doc = try S.valid("emphasis_edit.vtt")
        let out = try doc.write(edits: [0: CueEdit(emphasis: [.init(run: 0, utf8: 0..<3), .init(run: 0, utf8: 4..<5)])])
        #expect(String(decoding: out, as: UTF8.self).contains("\r\n<b>Tom</b> <b>&amp;</b> Jerry\r\n"))
    }

    @Test func emphasisNextToExistingTags() throws {
        let doc = try S.valid("emphasis_edit.vtt")
        #expect(S.describe(doc.cues[1].runs) == ["m:<i>", "t:Hello world+i", "m:</i>+i"])
        let part = try doc.write(edits: [1: CueEdit(emphasis: [.init(run: 1, utf8: 6..<11)])])
        #expect(String(decoding: part, as: UTF8.self).contains("\r\n<i>Hello <b>world</b></i>\r\n"))
        let whole = try doc.write(edits: [1: CueEdit(emphasis: [.init(run: 1, utf8: 0..<11)])])
        #expect(String(decoding: whole, as: UTF8.self).contains("\r\n<i><b>Hello world</b></i>\r\n"))
        // The edited file reads back with the emphasis as a bold run inside the italic one.
        let again = try CaptionDocument.read(whole, hint: .vtt)
        #expect(S.describe(again.cues[1].runs) == ["m:<i>", "m:<b>+i", "t:Hello world+b+i", "m:</b>+b+i", "m:</i>+i"])
    }

    @Test func appendedEmojiGoesBeforeTheCRLF() throws {
        let doc = try S.valid("emphasis_edit.vtt")
        let out = try doc.write(edits: [2: CueEdit(appendedText: " 🎬")])
        let expected = "WEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\nTom &amp; Jerry\r\n\r\n00:00:02.000 --> 00:00:03.000\r\n<i>Hello world</i>\r\n\r\n00:00:03.000 --> 00:00:04.000\r\nThe end 🎬\r\n"
        #expect(out == Data(expected.utf8))
    }

    @Test func appendedTextIsEscapedAndKeptOnOneLine() throws {
        let doc = try S.valid("basic.vtt")
        let out = try doc.write(edits: [0: CueEdit(appendedText: " <3 & -->\nx")])
        #expect(String(decoding: out, as: UTF8.self).contains("\nHello, world. &lt;3 &amp; --&gt; x\n\n"))
        let again = try CaptionDocument.read(out, hint: .vtt)
        #expect(again.cues.count == 2)
        #expect(again.cues[0].plainText == "Hello, world. <3 & --> x")
    }

    @Test func appendingToAnEmptyCueAddsALine() throws {
        let doc = try S.valid("empty_cue.vtt")
        let out = try doc.write(edits: [0: CueEdit(appendedText: " 🎬")])
        #expect(String(decoding: out, as: UTF8.self) ==
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n🎬\n\n00:00:03.000 --> 00:00:04.000\nafter an empty cue\n")
        let atEnd = try S.read("WEBVTT\n\n00:01.000 --> 00:02.000")
        #expect(String(decoding: try atEnd.write(edits: [0: CueEdit(appendedText: " 🎬")]), as: UTF8.self) ==
            "WEBVTT\n\n00:01.000 --> 00:02.000\n🎬")
    }

    @Test func emphasisAndAppendInAUTF16File() throws {
        let doc = try S.valid("utf16le_bom.vtt")
        let out = try doc.write(edits: [0: CueEdit(emphasis: [.init(run: 0, utf8: 0..<4)], appendedText: " 🎬")])
        #expect(Array(out.prefix(2)) == [0xFF, 0xFE])
        let again = try CaptionDocument.read(out, hint: .vtt)
        #expect(again.source.encoding == .utf16LittleEndian)
        #expect(S.describe(again.cues[0].runs) == ["m:<b>", "t:Zoë+b", "m:</b>+b", "t: says ♪ hi 🎬"])
    }

    @Test func offsetsMapThroughEntitiesNulAndBadUTF8() {
        let raw = ArraySlice(Array("a&amp;b&#233;c".utf8) + [0x00, 0xFF] + Array("d".utf8))
        // Plain: "a" "&" "b" "é"(2) "c" U+FFFD(3) U+FFFD(3) "d"
        let expected = [0: 0, 1: 1, 2: 6, 3: 7, 5: 13, 6: 14, 9: 15, 12: 16, 13: 17]
        for (plain, rawOffset) in expected {
            #expect(WebVTTEntities.rawOffset(raw, plainOffset: plain) == rawOffset, "plain \(plain)")
        }
        // A slice that does not start at index 0 maps the same way.
        let shifted = Array("xx".utf8) + Array(raw)
        #expect(WebVTTEntities.rawOffset(shifted[2...], plainOffset: 2) == 6)
    }

    // MARK: Rendering from other formats

    @Test func renderFromSRTDropsMarkupWithOneLossEach() {
        let cues = [
            Cue(identifier: "1", start: CaptionTime(milliseconds: 1000), end: CaptionTime(milliseconds: 2500),
                settings: "X1:10 X2:20 Y1:30 Y2:40", line: 2, runs: [
                    TextRun(kind: .markup, text: "{\\an8}", source: 0..<0),
                    TextRun(kind: .text, text: "Hello ", source: 0..<0),
                    TextRun(kind: .markup, text: "<b>", source: 0..<0),
                    TextRun(kind: .text, text: "bold", style: .bold, source: 0..<0),
                    TextRun(kind: .markup, text: "</b>", style: .bold, source: 0..<0),
                    TextRun(kind: .lineBreak, text: "\n", source: 0..<0),
                    TextRun(kind: .text, text: "a < b & c > d", source: 0..<0),
                ], textRange: 0..<0),
            Cue(identifier: nil, start: CaptionTime(milliseconds: 3000), end: CaptionTime(milliseconds: 4000), line: 6, runs: [
                TextRun(kind: .markup, text: "<font color=\"#ff0000\">", source: 0..<0),
                TextRun(kind: .text, text: "red", style: .italic, source: 0..<0),
                TextRun(kind: .markup, text: "</font>", style: .italic, source: 0..<0),
                TextRun(kind: .text, text: " plain", source: 0..<0),
                TextRun(kind: .markup, text: "{\\i1}", source: 0..<0),
            ], textRange: 0..<0),
        ]
        var losses: [String] = []
        let out = WebVTTWriter.render(cues, from: .srt, losses: &losses)
        #expect(String(decoding: out, as: UTF8.self) ==
            "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nHello <b>bold</b>\na &lt; b &amp; c &gt; d\n\n00:00:03.000 --> 00:00:04.000\n<i>red</i> plain\n")
        #expect(Set(losses) == [
            "SRT coordinates after the end time (X1 X2 Y1 Y2) were dropped",
            "ASS override codes such as {\\an8} were dropped",
            "SRT font colours, sizes and faces were dropped",
        ])
        // What it wrote is WebVTT this reader takes without a warning.
        let again = try? CaptionDocument.read(Data(out), hint: .vtt)
        #expect(again?.warnings.isEmpty == true)
        #expect(again?.cues.map(\.plainText) == ["Hello bold\na < b & c > d", "red plain"])
    }

    @Test func renderStylesFromRunsNestProperly() {
        let cue = Cue(start: .zero, end: CaptionTime(milliseconds: 1000), line: 1, runs: [
            TextRun(kind: .text, text: "a", style: .bold, source: 0..<0),
            TextRun(kind: .text, text: "b", style: [.bold, .italic], source: 0..<0),
            TextRun(kind: .text, text: "c", style: .italic, source: 0..<0),
            TextRun(kind: .text, text: "d", style: [.underline, .strikethrough], source: 0..<0),
        ], textRange: 0..<0)
        var losses: [String] = []
        let out = String(decoding: WebVTTWriter.render([cue], from: .ttml, losses: &losses), as: UTF8.self)
        #expect(out == "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<b>a<i>b</i></b><i>c</i><u>d</u>\n")
        #expect(losses == ["Strikethrough was dropped (WebVTT has no strikethrough tag)"])
    }

    @Test func renderTimesLinesAndIdentifiers() {
        let frames = CaptionTime(numerator: 1001, denominator: 30000)!   // 33.366… ms
        let cues = [
            Cue(identifier: "a-->b", start: CaptionTime(milliseconds: -500), end: frames, line: 1, runs: [
                TextRun(kind: .text, text: "one\n\ntwo", source: 0..<0),
                TextRun(kind: .lineBreak, text: "\n", source: 0..<0),
            ], textRange: 0..<0),
            Cue(identifier: "intro", start: CaptionTime(milliseconds: 100 * 3_600_000), end: CaptionTime(milliseconds: 100 * 3_600_000 + 1),
                settings: "align:start", line: 5, runs: [], textRange: 0..<0),
        ]
        var losses: [String] = []
        let out = String(decoding: WebVTTWriter.render(cues, from: .ttml, losses: &losses), as: UTF8.self)
        #expect(out == "WEBVTT\n\n00:00:00.000 --> 00:00:00.033\none\ntwo\n\nintro\n100:00:00.000 --> 100:00:00.001\n")
        #expect(Set(losses) == [
            "Cue identifiers containing '-->' or a line break were dropped",
            "Negative times were written as 00:00:00.000",
            "Times were rounded to the nearest millisecond",
            "Empty lines inside cue text were removed (a blank line ends a WebVTT cue)",
            "Cue positions were dropped",
        ])
    }

    @Test func renderKeepsSettingsOnlyFromWebVTT() throws {
        let doc = try S.valid("settings.vtt")
        var losses: [String] = []
        let out = String(decoding: WebVTTWriter.render(Array(doc.cues.prefix(1)), from: .vtt, losses: &losses), as: UTF8.self)
        #expect(out == "WEBVTT\n\n00:00:01.000 --> 00:00:02.000 align:start line:0 position:10%,line-left size:50%\ntop left\n")
        #expect(losses.isEmpty)
    }

    @Test func conversionAppliesEditsThroughRuns() throws {
        // converted(to:) renders from the cues with the edit applied to the runs.
        let doc = try S.valid("entities.vtt")
        var losses: [String] = []
        let edited = doc.cues[0].applying(CueEdit(emphasis: [.init(run: 0, utf8: 6..<11)], appendedText: " 🎬"))
        let out = String(decoding: WebVTTWriter.render([edited], from: .srt, losses: &losses), as: UTF8.self)
        #expect(out == "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nTom & <b>Jerry</b> &lt;3 &gt; all 🎬\n".replacingOccurrences(of: "Tom & ", with: "Tom &amp; "))
    }
}

@Suite("WebVTT conversion from SRT files")
struct WebVTTConversionTests {
    @Test func srtWithFontTagsAndASSCodesBecomesCleanWebVTT() throws {
        let fonts = try CaptionDocument.read(WebVTTTestSupport.fixture("valid/srt/font_tags.srt"), hint: .srt)
        let converted = try fonts.converted(to: .vtt)
        let text = String(decoding: converted.data, as: UTF8.self)
        #expect(text.hasPrefix("WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\n"))
        #expect(!text.contains("<font") && !text.contains("<B>") && !text.contains("<s>"))
        #expect(text.contains("&lt;3"))
        #expect(converted.losses.contains("SRT font colours, sizes and faces were dropped"))
        #expect(Set(converted.losses).count == converted.losses.count)
        // The result reads back as WebVTT with the same text and times.
        let back = try CaptionDocument.read(converted.data, hint: .vtt)
        #expect(back.warnings.isEmpty)
        #expect(back.cues.map(\.plainText) == fonts.cues.map(\.plainText))
        #expect(back.cues.map(\.start) == fonts.cues.map(\.start))
        #expect(back.cues.map(\.identifier) == ["1", "2"])

        let ass = try CaptionDocument.read(WebVTTTestSupport.fixture("valid/srt/ass_an8.srt"), hint: .srt)
        let assOut = try ass.converted(to: .vtt)
        #expect(!String(decoding: assOut.data, as: UTF8.self).contains("{\\an8}"))
        #expect(assOut.losses.contains("ASS override codes such as {\\an8} were dropped"))
    }
}
