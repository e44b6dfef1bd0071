import Foundation
import Testing
@testable import Captions

/// Where appended text (the emoji) goes: after the last visible character,
/// keeping the style of the line it ends (see `AppendPoint`).
@Suite struct AppendPointTests {
    /// The document's last cue with ` 🎬` appended, written in its own format.
    private func appended(_ text: String, _ format: CaptionFormat) throws -> String {
        let doc = try CaptionDocument.read(Data(text.utf8), hint: format)
        let out = try doc.write(edits: [doc.cues.count - 1: CueEdit(appendedText: " 🎬")])
        return String(decoding: out, as: UTF8.self)
    }

    private func srt(_ cueText: String) -> String { "1\n00:00:01,000 --> 00:00:02,000\n\(cueText)\n" }
    private func vtt(_ cueText: String) -> String { "WEBVTT\n\n00:01.000 --> 00:02.000\n\(cueText)\n" }

    @Test(arguments: [
        // A pair around the whole line keeps the emoji inside.
        ("<i>Off screen.</i>", "<i>Off screen. 🎬</i>"),
        ("<font color=\"#ffff00\">Yellow line</font>", "<font color=\"#ffff00\">Yellow line 🎬</font>"),
        ("{\\an8}<font color=\"#ffff00\">Top line</font>  ", "{\\an8}<font color=\"#ffff00\">Top line 🎬</font>  "),
        ("<i>one\ntwo</i>", "<i>one\ntwo 🎬</i>"),
        ("<b><i>both</i></b>", "<b><i>both 🎬</i></b>"),
        ("<i>unclosed italic", "<i>unclosed italic 🎬"),
        // A pair around a word or phrase of the line is closed first.
        ("We saw <i>Jaws</i>", "We saw <i>Jaws</i> 🎬"),
        ("<i>We saw <b>Jaws</b></i>", "<i>We saw <b>Jaws</b> 🎬</i>"),
        ("- <i>Hello?</i>", "- <i>Hello?</i> 🎬"),
        ("<i>first line</i>\nthen <i>Jaws</i>", "<i>first line</i>\nthen <i>Jaws</i> 🎬"),
        // Text after the last closing tag, markup that is not a closing tag, spaces.
        ("<i>Hi</i>.", "<i>Hi</i>. 🎬"),
        ("Top{\\an8}", "Top 🎬{\\an8}"),
        ("dragon.   ", "dragon. 🎬   "),
        ("<i>text </i>", "<i>text 🎬 </i>"),
    ])
    func srtKeepsTheStyleOfTheLastLine(_ text: String, _ expected: String) throws {
        #expect(try appended(srt(text), .srt) == srt(expected))
    }

    @Test(arguments: [
        ("<c.yellow>Yellow line</c>", "<c.yellow>Yellow line 🎬</c>"),
        ("<i.narrator>Long ago</i>", "<i.narrator>Long ago 🎬</i>"),
        // A voice names a speaker: it is not styling.
        ("<v Roger>Hello</v>", "<v Roger>Hello</v> 🎬"),
        ("<v Roger>Hello", "<v Roger>Hello 🎬"),
        ("<v Roger><i>Hello there</i></v>", "<v Roger><i>Hello there 🎬</i></v>"),
        ("<c.yellow><v Roger>Hello</v></c>", "<c.yellow><v Roger>Hello</v> 🎬</c>"),
        ("<v Roger>Hello <c.yellow>there</c></v>", "<v Roger>Hello <c.yellow>there</c></v> 🎬"),
        // A ruby annotation never takes the emoji.
        ("<ruby>漢<rt>kan</rt></ruby>", "<ruby>漢<rt>kan</rt></ruby> 🎬"),
        ("<lang en>playground</lang>", "<lang en>playground</lang> 🎬"),
        ("<i>A &amp; B</i>", "<i>A &amp; B 🎬</i>"),
        ("<i>caf&eacute;</i> ", "<i>caf&eacute; 🎬</i> "),
        ("word <00:00:01.500><c>last</c>", "word <00:00:01.500><c>last</c> 🎬"),
        // A cut-off closing tag would swallow text put after it.
        ("We saw <i>Jaws</i", "We saw <i>Jaws 🎬</i"),
    ])
    func webVTTKeepsTheStyleOfTheLastLine(_ text: String, _ expected: String) throws {
        #expect(try appended(vtt(text), .vtt) == vtt(expected))
    }

    @Test func ttmlPutsItInTheSpanOfTheLastText() throws {
        // EBU-TT-D: the caption box's background is on the spans.
        let body = """
              <div><p begin="0s" end="2s"><span style="bg">It was</span><br/><span style="bg">affected.</span>
              </p></div>
            """
        let out = try appended(TTMLTestSupport.document(body: body), .ttml)
        #expect(out.contains("<span style=\"bg\">affected. 🎬</span>\n  </p>"))
        let nested = """
              <div><p begin="0s" end="2s"><span style="bg">Now <span tts:fontStyle="italic">go!</span></span>  </p></div>
            """
        #expect(try appended(TTMLTestSupport.document(body: nested), .ttml)
            .contains("<span style=\"bg\">Now <span tts:fontStyle=\"italic\">go! 🎬</span></span>  </p>"))
        // Text after the last span is the last visible text.
        let after = """
              <div><p begin="0s" end="2s"><span tts:color="yellow">ANN:</span> we are live.</p></div>
            """
        #expect(try appended(TTMLTestSupport.document(body: after), .ttml).contains("</span> we are live. 🎬</p>"))
    }

    @Test func ttmlInsideCDATAClosesTheSectionAroundIt() throws {
        let body = """
              <div><p begin="0s" end="2s"><span style="bg"><![CDATA[a < b]]></span></p></div>
            """
        let out = try appended(TTMLTestSupport.document(body: body), .ttml)
        #expect(out.contains("<span style=\"bg\"><![CDATA[a < b]]> 🎬<![CDATA[]]></span>"))
        let again = try TTMLTestSupport.read(out)
        #expect(again.cues.last?.plainText == "a < b 🎬")
    }

    @Test func aConvertedFileShowsTheEmojiWithTheSameStyle() throws {
        let italic = try CaptionDocument.read(Data(srt("<i>Off screen.</i>").utf8), hint: .srt)
        let vttOut = try italic.converted(to: .vtt, edits: [0: CueEdit(appendedText: " 🎬")])
        #expect(String(decoding: vttOut.data, as: UTF8.self).hasSuffix("<i>Off screen. 🎬</i>\n"))
        let title = try CaptionDocument.read(Data(srt("We saw <i>Jaws</i>").utf8), hint: .srt)
        let titleOut = try title.converted(to: .vtt, edits: [0: CueEdit(emphasis: [.init(run: 2, utf8: 0..<4)], appendedText: " 🎬")])
        #expect(String(decoding: titleOut.data, as: UTF8.self).hasSuffix("We saw <b><i>Jaws</i></b> 🎬\n")
            || String(decoding: titleOut.data, as: UTF8.self).hasSuffix("We saw <i><b>Jaws</b></i> 🎬\n"))
        let body = """
              <div><p begin="0s" end="2s"><span tts:fontStyle="italic">Far away.</span>
              </p></div>
            """
        let ttml = try TTMLTestSupport.read(TTMLTestSupport.document(body: body))
        let srtOut = try ttml.converted(to: .srt, edits: [0: CueEdit(appendedText: " 🎬")])
        #expect(String(decoding: srtOut.data, as: UTF8.self) == "1\n00:00:00,000 --> 00:00:02,000\n<i>Far away. 🎬</i>\n\n")
    }

    @Test func aCueWithNoVisibleTextFallsBackOnItsTextRange() throws {
        #expect(AppendPoint.find { RunView.forEach(in: [], $0) } == nil)
        #expect(AppendPoint.visibleEnd(of: 0..<9, in: Array("dragon.  ".utf8)) == 7)
        #expect(AppendPoint.visibleEnd(of: 0..<3, in: Array("   ".utf8)) == 0)
        #expect(try appended(srt("<i></i>"), .srt) == srt("<i></i> 🎬"))
    }
}
