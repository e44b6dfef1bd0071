import Foundation
import Testing
@testable import Captions

private func fixture(_ path: String) throws -> Data {
    let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return try Data(contentsOf: root.appendingPathComponent(path))
}

@Suite("SRT writer")
struct SRTWriterTests {
    /// Emphasis on "robot" (cue 1) and "night" (cue 2, after an italic tag) plus an appended emoji.
    private func edits(for doc: CaptionDocument) throws -> [Int: CueEdit] {
        let first = try #require(doc.cues.first), last = try #require(doc.cues.last)
        #expect(first.runs.count == 1 && first.runs[0].text == "The robot said hello")
        #expect(last.runs.count == 6 && last.runs[3].text == " night")
        return [
            0: CueEdit(emphasis: [.init(run: 0, utf8: 4..<9)]),
            doc.cues.count - 1: CueEdit(emphasis: [.init(run: 3, utf8: 1..<6)], appendedText: " 🎬"),
        ]
    }

    @Test(arguments: [("emoji_edit_lf.srt", "\n"), ("emoji_edit_crlf.srt", "\r\n")])
    func emphasisAndEmojiAreSplicedIn(_ name: String, _ eol: String) throws {
        let doc = try CaptionDocument.read(fixture("valid/srt/\(name)"), hint: .srt)
        let out = try doc.write(edits: edits(for: doc))
        let expected = ["1", "00:00:01,000 --> 00:00:02,000", "The <b>robot</b> said hello", "",
                        "2", "00:00:03,000 --> 00:00:04,000", "<i>Good</i> <b>night</b>", "see you 🎬", ""]
            .joined(separator: eol)
        #expect(out == Data(expected.utf8))
        // Read back: the new bold runs are there.
        let again = try CaptionDocument.read(out, hint: .srt)
        #expect(again.cues[0].runs.contains { $0.text == "robot" && $0.style == .bold })
        #expect(again.cues[1].plainText == "Good night\nsee you 🎬")
    }

    @Test func emojiWithoutFinalNewlineAndInOtherEncodings() throws {
        let plain = try CaptionDocument.read(fixture("valid/srt/no_final_newline.srt"), hint: .srt)
        let out = try plain.write(edits: [1: CueEdit(appendedText: " 🎬")])
        #expect(out == Data("1\n00:00:01,000 --> 00:00:02,000\nFirst\n\n2\n00:00:03,000 --> 00:00:04,000\nLast line 🎬".utf8))

        let wide = try CaptionDocument.read(fixture("valid/srt/utf16le_bom.srt"), hint: .srt)
        let wideOut = try wide.write(edits: [0: CueEdit(emphasis: [.init(run: 0, utf8: 0..<6)], appendedText: " 🎬")])
        let text = "1\r\n00:00:01,000 --> 00:00:02,000\r\n<b>Übung</b> — naïve 日本 🎬\r\n"
        #expect(wideOut == Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!)
    }

    @Test func emphasisAfterInvalidUTF8LandsOnTheRawBytes() throws {
        let data = try fixture("valid/srt/damaged_utf8.srt")
        let doc = try CaptionDocument.read(data, hint: .srt)
        let text = doc.cues[0].runs[0].text
        let at = try #require(text.utf8.firstRange(of: "robot".utf8))
        let lo = text.utf8.distance(from: text.utf8.startIndex, to: at.lowerBound)
        let out = try doc.write(edits: [0: CueEdit(emphasis: [.init(run: 0, utf8: lo..<(lo + 5))], appendedText: " 🎬")])
        var expected = Array("1\n00:00:01,000 --> 00:00:02,000\nCafé naïve ü ö ä ".utf8)
        expected += [0xFF] + Array(" <b>robot</b> 🎬\n".utf8)
        #expect(out == Data(expected))
    }

    @Test func noEditsMeansTheSameBytes() throws {
        let data = try fixture("valid/srt/mixed_endings.srt")
        let doc = try CaptionDocument.read(data, hint: .srt)
        #expect(try doc.write(edits: [0: CueEdit()]) == data)
        #expect(try SRTWriter.apply([0: CueEdit(appendedText: "!")], to: doc) ==
                Array("1\n00:00:01,000 --> 00:00:02,000\r\nA\rB!\n\r\n2\r00:00:03,000 --> 00:00:04,000\rC\r\n".utf8))
    }
}

@Suite("SRT conversion")
struct SRTRenderTests {
    private func run(_ kind: TextRun.Kind, _ text: String, _ style: TextStyle = []) -> TextRun {
        TextRun(kind: kind, text: text, style: style, source: 0..<0)
    }

    @Test func webVTTCuesRenderAsNumberedSRT() throws {
        let a = Cue(identifier: "intro", start: try #require(CaptionTime(numerator: 1, denominator: 3)),
                    end: try #require(CaptionTime(numerator: 4001, denominator: 2000)),
                    settings: "position:10% align:start", line: 3,
                    runs: [run(.markup, "<v Bob>"), run(.text, "Hello "), run(.markup, "<b>", .bold), run(.text, "big", .bold),
                           run(.markup, "</b>"), run(.text, " world"), run(.markup, "</v>"), run(.lineBreak, "\n"),
                           run(.markup, "<c.yellow>"), run(.text, "yellow"), run(.markup, "</c>"),
                           run(.markup, "<00:00:01.500>"), run(.text, "later")],
                    textRange: 0..<0)
        let b = Cue(start: CaptionTime(milliseconds: 360_000_000), end: CaptionTime(milliseconds: 360_000_001),
                    line: 9, runs: [run(.text, "x", [.underline, .strikethrough]), run(.text, " y", .italic)], textRange: 0..<0)
        var losses: [String] = []
        let out = SRTWriter.render([a, b], from: .vtt, losses: &losses)
        let expected = "1\n00:00:00,333 --> 00:00:02,001\nHello <b>big</b> world\nyellowlater\n\n"
            + "2\n100:00:00,000 --> 100:00:00,001\n<u><s>x</s></u><i> y</i>\n\n"
        #expect(String(decoding: out, as: UTF8.self) == expected)
        #expect(losses == [
            "WebVTT cue settings (position, line, align) were dropped",
            "WebVTT cue identifiers were dropped (SRT cues are numbered 1, 2, 3…)",
            "3 WebVTT tags with no SRT equivalent (c, timestamp, v) were dropped",
        ])
    }

    @Test func stylesCloseAtLineBreaksAndNestProperly() {
        let cue = Cue(start: .zero, end: CaptionTime(milliseconds: 1000), line: 1,
                      runs: [run(.text, "a", .bold), run(.text, "b", [.bold, .italic]), run(.text, "c", .italic),
                             run(.lineBreak, "\n"), run(.text, "d", .italic), run(.text, "e\nf")],
                      textRange: 0..<0)
        var losses: [String] = []
        let out = SRTWriter.render([cue], from: .ttml, losses: &losses)
        #expect(String(decoding: out, as: UTF8.self) == "1\n00:00:00,000 --> 00:00:01,000\n<b>a<i>b</i></b><i>c</i>\n<i>d</i>e\nf\n\n")
        #expect(losses.isEmpty)
    }

    @Test func editedCuesConvertWithEmphasis() throws {
        let doc = try CaptionDocument.read(Data("1\r\n00:00:01,000 --> 00:00:02,000\r\nThe robot said\r\n".utf8), hint: .srt)
        let edited = doc.cues[0].applying(CueEdit(emphasis: [.init(run: 0, utf8: 4..<9)], appendedText: " 🎬"))
        var losses: [String] = []
        let out = SRTWriter.render([edited], from: .vtt, losses: &losses)
        #expect(String(decoding: out, as: UTF8.self) == "1\n00:00:01,000 --> 00:00:02,000\nThe <b>robot</b> said 🎬\n\n")
        #expect(losses.isEmpty)
    }

    @Test func srtMarkupSurvivesRenderingFromSRT() throws {
        let doc = try CaptionDocument.read(fixture("valid/srt/font_tags.srt"), hint: .srt)
        var losses: [String] = []
        let out = SRTWriter.render(doc.cues, from: .srt, losses: &losses)
        let expected = "1\n00:00:01,000 --> 00:00:02,000\n<font color=\"#ff0000\">Red</font> and <b>bold <i>both</i></b>\n"
            + "<u>under</u> <s>struck</s> 2<3 <c.yellow>odd</c>\n\n"
            + "2\n00:00:03,000 --> 00:00:04,000\n<i>unclosed italic</i>\n<i>still italic</i>\n\n"
        #expect(String(decoding: out, as: UTF8.self) == expected)
        #expect(losses.isEmpty)
        // And it reads back to the same text and styles.
        let again = try SRTReader.read(SourceText(utf8: String(decoding: out, as: UTF8.self)))
        #expect(again.cues.map(\.plainText) == doc.cues.map(\.plainText))
    }

    @Test func emptyInputAndNegativeTimes() {
        var losses: [String] = []
        #expect(SRTWriter.render([], from: .vtt, losses: &losses).isEmpty)
        let cue = Cue(start: CaptionTime(milliseconds: -500), end: CaptionTime(milliseconds: 10), line: 1, runs: [], textRange: 0..<0)
        let out = SRTWriter.render([cue], from: .ttml, losses: &losses)
        #expect(String(decoding: out, as: UTF8.self) == "1\n00:00:00,000 --> 00:00:00,010\n\n\n")
        #expect(losses == ["negative cue times were written as 00:00:00,000"])
    }
}
