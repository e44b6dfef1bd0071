import Foundation
import Testing
@testable import Captions

/// Captions as SDH and broadcast captions write them: speaker labels, sound
/// descriptions, music marks and credit lines are never emphasised and are not
/// part of what is said (`CaptionDocument.spokenText`); the same word in the
/// dialogue is. In SRT, WebVTT (voice spans too) and TTML.
@Suite struct SDHPartsEmphasisTests {
    static let srt = """
        1
        00:00:01,000 --> 00:00:03,000
        LITHGOW: The universe began
        with a single point.

        2
        00:00:03,500 --> 00:00:05,000
        MAN: [chuckles] A wrinkly man
        once told me so.

        3
        00:00:05,500 --> 00:00:07,000
        >> MAN: Look at the universe!
        ♪ universe, universe ♪

        4
        00:00:07,500 --> 00:00:09,000
        Downloaded from www.AllSubs.org

        """

    @Test func srtEmphasisSkipsLabelsDescriptionsMusicAndCredits() throws {
        let document = try CaptionDocument.read(Data(Self.srt.utf8), hint: .srt)
        let result = KeywordEmphasis(keywords: ["man", "universe", "LITHGOW", "chuckles", "AllSubs"]).apply(to: document.cues)
        let written = String(decoding: try document.writeBytes(edits: result.edits), as: UTF8.self)
        // Only the dialogue's (and the lyrics') "man" and "universe" are emphasised.
        #expect(result.counts == [1, 4, 0, 0, 0])
        #expect(written.contains("LITHGOW: The <b>universe</b> began"))
        #expect(written.contains("MAN: [chuckles] A wrinkly <b>man</b>"))
        #expect(written.contains(">> MAN: Look at the <b>universe</b>!"))
        #expect(written.contains("♪ <b>universe</b>, <b>universe</b> ♪"))
        #expect(written.contains("Downloaded from www.AllSubs.org"))
        #expect(!written.contains("<b>MAN</b>"))
    }

    @Test func srtSpokenTextLeavesThePartsOut() throws {
        let document = try CaptionDocument.read(Data(Self.srt.utf8), hint: .srt)
        #expect(document.spokenText() == """
            The universe began with a single point.
            A wrinkly man once told me so.
            Look at the universe! universe, universe

            """)
        // The text a viewer reads still has them all.
        #expect(document.readableText().contains("MAN: [chuckles]"))
    }

    static let vtt = """
        WEBVTT

        00:00:01.000 --> 00:00:03.000
        <v Sarah>Sarah, is that you?</v>

        00:00:03.500 --> 00:00:05.000
        <v.loud Narrator>NARRATOR: [thunder] Sarah ran.

        00:00:05.500 --> 00:00:07.000
        - SARAH: Wait!
        - (GASPS) Sarah?

        """

    @Test func webVTTVoiceSpansAndLabels() throws {
        let document = try CaptionDocument.read(Data(Self.vtt.utf8), hint: .vtt)
        let result = KeywordEmphasis(keywords: ["sarah", "narrator", "thunder", "gasps"]).apply(to: document.cues)
        let written = String(decoding: try document.writeBytes(edits: result.edits), as: UTF8.self)
        #expect(result.counts == [3, 0, 0, 0])
        #expect(written.contains("<v Sarah><b>Sarah</b>, is that you?</v>"))
        #expect(written.contains("<v.loud Narrator>NARRATOR: [thunder] <b>Sarah</b> ran."))
        #expect(written.contains("- SARAH: Wait!\n- (GASPS) <b>Sarah</b>?"))
        #expect(document.spokenText() == "Sarah, is that you?\nSarah ran.\nWait! Sarah?")
    }

    static let ttml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" \
        xmlns:ttm="http://www.w3.org/ns/ttml#metadata" xml:lang="en">
          <body><div>
            <p begin="00:00:01.000" end="00:00:03.000" ttm:agent="einstein">EINSTEIN: Imagination is<br/>more important than knowledge.</p>
            <p begin="00:00:03.500" end="00:00:05.000">[APPLAUSE]</p>
            <p begin="00:00:05.500" end="00:00:07.000"><span tts:fontStyle="italic">&gt;&gt; NARRATOR:</span> Einstein smiled.</p>
          </div></body>
        </tt>
        """

    @Test func ttmlLabelsInTextAndSpans() throws {
        let document = try CaptionDocument.read(Data(Self.ttml.utf8), hint: .ttml)
        let result = KeywordEmphasis(keywords: ["einstein", "applause", "narrator", "knowledge"]).apply(to: document.cues)
        let written = String(decoding: try document.writeBytes(edits: result.edits), as: UTF8.self)
        #expect(result.counts == [1, 0, 0, 1])
        #expect(written.contains(">EINSTEIN: Imagination is"))
        #expect(written.contains("<span tts:fontWeight=\"bold\">Einstein</span> smiled."))
        #expect(written.contains("[APPLAUSE]"))
        #expect(document.spokenText() == "Imagination is more important than knowledge.\n\nEinstein smiled.")
    }

    /// A cue without any of these parts is as `readableText` has it, spaces and all.
    @Test func plainCuesAreUnchanged() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nTwo  spaces here\nand a line\n\n"
        let document = try CaptionDocument.read(Data(text.utf8), hint: .srt)
        #expect(document.spokenText() == document.readableText())
    }
}
