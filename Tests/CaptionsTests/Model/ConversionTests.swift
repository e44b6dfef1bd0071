import Foundation
import Testing
@testable import Captions

/// Converting between formats (`--to`): what is written reads back as the
/// same cues, and `losses` lists exactly what could not be carried over.
@Suite struct ConversionTests {
    static func ttml(head: String = "", _ body: String) -> Data {
        Data((#"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">"# + head
              + "<body><div>" + body + "</div></body></tt>\n").utf8)
    }

    // MARK: TTML to SRT reads back as the same cues

    static func srtCues(_ data: Data) throws -> [Cue] { try CaptionDocument.read(data, hint: .srt).cues }

    @Test func leadingAndDoubleLineBreaksNeverPutABlankLineInAnSRTCue() throws {
        let doc = try CaptionDocument.read(Self.ttml(
            #"<p begin="0s" end="1s"><br/>after a break</p>"#
            + #"<p begin="1s" end="2s">one<br/><br/>two</p>"#
            + #"<p begin="2s" end="3s" xml:space="preserve">kept"# + "\n\n" + #"lines</p>"#), hint: .ttml)
        let conversion = try doc.converted(to: .srt)
        let text = String(decoding: conversion.data, as: UTF8.self)
        #expect(text == "1\n00:00:00,000 --> 00:00:01,000\nafter a break\n\n2\n00:00:01,000 --> 00:00:02,000\none\ntwo\n\n3\n00:00:02,000 --> 00:00:03,000\nkept\nlines\n\n")
        #expect(try Self.srtCues(conversion.data).count == 3)
        #expect(conversion.losses.contains { $0.contains("empty line") })
    }

    @Test func escapedTagTextDoesNotBecomeSRTMarkup() throws {
        let doc = try CaptionDocument.read(Self.ttml(#"<p begin="0s" end="1s">&lt;i&gt;not italic&lt;/i&gt; and {\an8}</p>"#), hint: .ttml)
        let conversion = try doc.converted(to: .srt)
        let cues = try Self.srtCues(conversion.data)
        #expect(cues.count == 1)
        #expect(cues[0].runs.allSatisfy { $0.kind == .text && $0.style.isEmpty })
        #expect(cues[0].runs.map(\.text).joined() == "‹i>not italic‹/i> and ｛\\an8}")
        #expect(conversion.losses.contains { $0.contains("'<'") })
        #expect(conversion.losses.contains { $0.contains("'{'") })
    }

    @Test func aTextLineThatLooksLikeATimingLineDoesNotStartANewSRTCue() throws {
        let doc = try CaptionDocument.read(Self.ttml(
            #"<p begin="0s" end="1s">2<br/>00:00:05,000 --> 00:00:06,000<br/>fake cue</p><p begin="1s" end="2s">next</p>"#), hint: .ttml)
        let conversion = try doc.converted(to: .srt)
        let cues = try Self.srtCues(conversion.data)
        #expect(cues.count == 2)
        #expect(cues[0].runs.filter { $0.kind == .text }.map(\.text) == ["2", "00:00:05,000 --› 00:00:06,000", "fake cue"])
        #expect(conversion.losses.contains { $0.contains("'-->'") })
    }

    @Test(arguments: [CaptionFormat.srt, .vtt])
    func aParagraphWithNoEndTimeIsNotAZeroLengthCue(_ target: CaptionFormat) throws {
        let doc = try CaptionDocument.read(Self.ttml(#"<p begin="1s" end="2s">first</p><p begin="3s">no end</p>"#), hint: .ttml)
        let conversion = try doc.converted(to: target)
        let cues = try CaptionDocument.read(conversion.data, hint: target).cues
        #expect(cues.count == 2)
        #expect(cues[1].start == CaptionTime(milliseconds: 3000))
        #expect(cues[1].end == CaptionTime(milliseconds: 8000))
        #expect(conversion.losses.contains { $0.contains("no end time") })
    }

    // MARK: Losses are exact

    @Test func srtWithOnlyItalicsLosesNothingToTTML() throws {
        let doc = try CaptionDocument.read(Data("1\n00:00:01,000 --> 00:00:02,000\n<i>Hello</i> <b>there</b>\n".utf8), hint: .srt)
        let conversion = try doc.converted(to: .ttml)
        #expect(conversion.losses == ["SRT cue numbers are not kept (TTML paragraphs are not numbered)"])
        let back = try CaptionDocument.read(conversion.data, hint: .ttml)
        #expect(back.cues[0].runs.map(\.style) == [.italic, [], .bold])
    }

    @Test func repeatedSpacesSurviveWebVTTToTTML() throws {
        let doc = try CaptionDocument.read(Data("WEBVTT\n\n00:01.000 --> 00:02.000\nTwo  spaces and\n  an indent\n".utf8), hint: .vtt)
        let conversion = try doc.converted(to: .ttml)
        #expect(conversion.losses.isEmpty)
        let back = try CaptionDocument.read(conversion.data, hint: .ttml)
        #expect(back.cues[0].runs.filter { $0.kind == .text }.map(\.text) == ["Two  spaces and", "  an indent"])
    }

    @Test(arguments: [CaptionFormat.srt, .ttml])
    func webVTTBlocksVoicesAndRubyAreListed(_ target: CaptionFormat) throws {
        let vtt = "WEBVTT\nKind: captions\n\nSTYLE\n::cue { color: red }\n\nREGION\nid:r1\n\nNOTE a comment\n\n"
            + "00:01.000 --> 00:02.000\n<v Bob>Hello</v> <ruby>kan<rt>kanji</rt></ruby>\n"
        let doc = try CaptionDocument.read(Data(vtt.utf8), hint: .vtt)
        let conversion = try doc.converted(to: target)
        let losses = conversion.losses.joined(separator: "\n")
        for expected in ["header lines", "STYLE blocks", "REGION definitions", "NOTE comments", "ruby readings"] {
            #expect(losses.contains(expected), "\(expected) missing from \(conversion.losses)")
        }
        #expect(losses.contains(target == .srt ? "(rt, ruby, v)" : "speaker names (Bob)"))
        let back = try CaptionDocument.read(conversion.data, hint: target)
        #expect(back.cues[0].runs.filter { $0.kind == .text }.map(\.text).joined() == "Hello kan(kanji)")
    }

    @Test(arguments: [CaptionFormat.srt, .vtt])
    func ttmlColourRegionsAndMetadataAreListed(_ target: CaptionFormat) throws {
        let doc = try CaptionDocument.read(Data(("""
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttm="http://www.w3.org/ns/ttml#metadata">
            <head><metadata><ttm:title>T</ttm:title></metadata><layout><region xml:id="r" tts:origin="0% 80%"/></layout></head>
            <body region="r"><div><p begin="0s" end="1s"><span tts:color="red">Red</span></p></div></body></tt>
            """).utf8), hint: .ttml)
        let losses = try doc.converted(to: target).losses
        #expect(losses.contains { $0.contains("tts:color") && $0.contains("tts:origin") })
        #expect(losses.contains { $0.contains("regions") })
        #expect(losses.contains { $0.contains("metadata") })
        // A plain document loses none of these.
        let plain = try CaptionDocument.read(Self.ttml(#"<p begin="0s" end="1s"><span tts:fontStyle="italic">Hi</span></p>"#), hint: .ttml)
        #expect(try plain.converted(to: target).losses.isEmpty)
    }
}
