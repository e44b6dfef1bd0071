import Foundation
import Testing
import TestSupport
@testable import Captions

/// Inputs found by adversarial testing, generated here: no
/// recursion on input depth, bounded namespace cost, SRT conversions that read
/// back as the same cues, exact `losses`, and warnings capped per kind.
@Suite(.mayBlock) struct AdversarialInputTests {
    static func ttml(head: String = "", _ body: String) -> Data {
        Data((#"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">"# + head
              + "<body><div>" + body + "</div></body></tt>\n").utf8)
    }

    // MARK: A style chain as deep as the input likes

    @Test func sixtyThousandChainedStylesResolveWithoutRecursion() throws {
        let n = 60_000
        var styles = #"<style xml:id="s\#(n)" tts:fontStyle="italic"/>"#
        for i in 0..<n { styles += #"<style xml:id="s\#(i)" style="s\#(i + 1)"/>"# }
        let doc = try CaptionDocument.read(Self.ttml(head: "<head><styling>" + styles + "</styling></head>",
                                                     #"<p begin="0s" end="1s" style="s0">Hello</p>"#), hint: .ttml)
        #expect(doc.cues.count == 1)
        // The italic at the far end of the chain reaches the paragraph.
        #expect(doc.cues[0].runs.first?.style == .italic)
    }

    @Test func aStyleLoopIsStillCutWithAWarning() throws {
        let doc = try CaptionDocument.read(Self.ttml(
            head: #"<head><styling><style xml:id="a" style="b" tts:fontWeight="bold"/><style xml:id="b" style="a"/></styling></head>"#,
                      #"<p begin="0s" end="1s" style="a">Hi</p>"#), hint: .ttml)
        #expect(doc.cues[0].runs.first?.style == .bold)
        #expect(doc.warnings.contains { $0.message.contains("refers back to itself") })
    }

    // MARK: Namespaces and attributes

    @Test(.timeLimit(.minutes(1)))
    func fiftyThousandNamespaceDeclarationsAreRefusedClearly() throws {
        let declarations = (0..<50_000).map { #" xmlns:n\#($0)="urn:x\#($0)""# }.joined()
        let data = Data((#"<tt xmlns="http://www.w3.org/ns/ttml""# + declarations
                         + #"><body><div><p begin="0s" end="1s">Hello</p></div></body></tt>"#).utf8)
        let error = try #require(throws: CaptionError.self) { try CaptionDocument.read(data, hint: .ttml) }
        #expect(error.code == .tooLarge)
        #expect(error.line == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func hundredThousandAttributesOnOneParagraphAreRefusedBeforeLibxml2() throws {
        let attributes = (0..<100_000).map { #" a\#($0)="v""# }.joined()
        let error = try #require(throws: CaptionError.self) {
            try CaptionDocument.read(Self.ttml(#"<p begin="0s" end="1s""# + attributes + ">Hello</p>"), hint: .ttml)
        }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("attributes"))
    }

    @Test func manyNamespacesInScopeStillResolveByTheInnermostBinding() throws {
        // Over the few bindings that are searched one by one: the prefix index must
        // give the innermost binding, and a shadowed styling prefix must not count.
        let many = (0..<200).map { #" xmlns:n\#($0)="urn:x\#($0)""# }.joined()
        let text = #"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:s="http://www.w3.org/ns/ttml#styling""# + many
            + #"><body><div><p begin="0s" end="1s" s:fontWeight="bold">one</p>"#
            + #"<p begin="1s" end="2s" xmlns:s="urn:not-styling" s:fontWeight="bold">two</p></div></body></tt>"#
        let doc = try CaptionDocument.read(Data(text.utf8), hint: .ttml)
        #expect(doc.cues.map { $0.runs.first?.style } == [.bold, []])
        // Emphasis in the second cue must declare its own styling prefix, not use the shadowed one.
        let out = String(decoding: try doc.write(edits: [1: CueEdit(emphasis: [.init(run: 0, utf8: 0..<3)])]), as: UTF8.self)
        #expect(out.contains(#"<span tts:fontWeight="bold">two</span>"#))
        #expect(try CaptionDocument.read(Data(out.utf8), hint: .ttml).cues[1].runs.first?.style == .bold)
    }

    @Test func moreNamespacesInScopeThanAnyDocumentNeedsAreRefused() throws {
        // Nested, so that no one tag has too many attributes.
        let nested = (0..<2).map { k in "<span " + (0..<200).map { #"xmlns:n\#(k)_\#($0)="urn:x""# }.joined(separator: " ") + ">" }.joined()
        let error = try #require(throws: CaptionError.self) {
            try CaptionDocument.read(Self.ttml(#"<p begin="0s" end="1s">"# + nested + "x" + String(repeating: "</span>", count: 2) + "</p>"), hint: .ttml)
        }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("namespace declarations"))
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

    // MARK: Warnings capped per kind

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
