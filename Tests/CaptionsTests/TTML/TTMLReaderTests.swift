import Foundation
import Testing
@testable import Captions

@Suite struct TTMLReaderTests {
    typealias S = TTMLTestSupport

    @Test func prefixedDocumentReadsLikeADefaultNamespaceOne() throws {
        let prefixed = """
        <tt:tt xmlns:tt="http://www.w3.org/ns/ttml" xmlns:s="http://www.w3.org/ns/ttml#styling" xml:lang="de">
        <tt:body><tt:div><tt:p xml:id="a" begin="1s" end="2s">Guten <tt:span s:fontStyle="italic">Tag</tt:span><tt:br/>Welt</tt:p></tt:div></tt:body></tt:tt>
        """
        let plain = """
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="de">
        <body><div><p xml:id="a" begin="1s" end="2s">Guten <span tts:fontStyle="italic">Tag</span><br/>Welt</p></div></body></tt>
        """
        for text in [prefixed, plain] {
            let doc = try S.read(text)
            let cue = try #require(doc.cues.first)
            #expect(cue.identifier == "a")
            #expect(cue.plainText == "Guten Tag\nWelt")
            #expect(cue.runs.map(\.kind) == [.text, .text, .lineBreak, .text])
            #expect(cue.runs[1].style == .italic)
            #expect(cue.runs[0].style == [])
            #expect(cue.start == S.time(1) && cue.end == S.time(2))
        }
    }

    @Test func prefixesAreNotTrusted() throws {
        // "tts" bound to something else, and a span in a foreign namespace: neither counts.
        let text = """
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="urn:not-styling" xmlns:x="urn:other" xmlns:st="http://www.w3.org/ns/ttml#styling">
        <body><div><p begin="0s" end="1s"><span tts:fontWeight="bold">a</span> <span st:fontWeight="bold">b</span><x:span>hidden</x:span></p></div></body></tt>
        """
        let cue = try #require(try S.read(text).cues.first)
        #expect(cue.plainText == "a b")
        #expect(cue.runs.first?.style == [])
        #expect(cue.runs.last?.style == .bold)
    }

    @Test(arguments: ["http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1"])
    func legacyDFXPNamespaces(_ uri: String) throws {
        let text = """
        <tt xmlns="\(uri)" xmlns:tts="\(uri)#styling"><head><styling><style id="b" tts:fontWeight="bold"/></styling></head>
        <body><div><p begin="0.5s" end="1s" style="b">Hello</p></div></body></tt>
        """
        let cue = try #require(try S.read(text).cues.first)
        #expect(cue.plainText == "Hello")
        #expect(cue.runs[0].style == .bold)
        #expect(cue.start == S.time(1, 2))
    }

    @Test func whitespaceIsCollapsedAndTrimmedButRawRangesStayExact() throws {
        let text = S.document(body: "<div><p begin=\"0s\" end=\"1s\">\n    Hello,\n    <span>big</span>   <span> world</span> \n  <br/>\n   next &amp; line  \n</p></div>")
        let doc = try S.read(text)
        let cue = try #require(doc.cues.first)
        #expect(cue.plainText == "Hello, big world\nnext & line")
        for run in cue.runs where run.kind == .text {
            let raw = String(decoding: doc.source.bytes[run.source], as: UTF8.self)
            #expect(!raw.contains("<"))
        }
        // The text range is the p's content: from after its start tag to its end tag.
        let content = String(decoding: doc.source.bytes[cue.textRange], as: UTF8.self)
        #expect(content.hasPrefix("\n    Hello,"))
        #expect(content.hasSuffix("line  \n"))
    }

    @Test func xmlSpacePreserveKeepsWhitespace() throws {
        let text = S.document(body: "<div><p begin=\"0s\" end=\"1s\" xml:space=\"preserve\">  two  spaces\r\nline</p></div>")
        #expect(try S.read(text).cues[0].plainText == "  two  spaces\nline")
    }

    @Test func entitiesCDATAAndCommentsInText() throws {
        let text = S.document(body: #"<div><p begin="0s" end="1s">caf&#233; &lt;3 <!-- note --><![CDATA[a<b]]> &#x1F3AC;</p></div>"#)
        #expect(try S.read(text).cues[0].plainText == "café <3 a<b 🎬")
    }

    @Test func referentialChainedRegionAndInlineStyles() throws {
        let text = """
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">
        <head>
          <styling>
            <style xml:id="base" tts:fontStyle="italic"/>
            <style xml:id="strong" style="base" tts:fontWeight="bold"/>
            <style xml:id="plain" tts:fontWeight="normal" tts:fontStyle="normal"/>
            <style xml:id="under" tts:textDecoration="underline lineThrough"/>
          </styling>
          <layout><region xml:id="r"><style tts:textDecoration="underline"/></region></layout>
        </head>
        <body><div>
          <p begin="0s" end="1s" style="strong">a<span style="plain">b</span><span tts:fontWeight="normal">c</span></p>
          <p begin="0s" end="1s" region="r">d<span style="under">e</span><span tts:textDecoration="noUnderline">f</span></p>
          <p begin="0s" end="1s" style="base under">g</p>
        </div></body></tt>
        """
        let cues = try S.read(text).cues
        #expect(cues[0].runs.map(\.style) == [[.bold, .italic], [], [.italic]])
        #expect(cues[1].runs.map(\.style) == [.underline, [.underline, .strikethrough], []])
        #expect(cues[2].runs.map(\.style) == [[.italic, .underline, .strikethrough]])
    }

    @Test func styleLoopsAndUnknownStylesWarn() throws {
        let text = """
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">
        <head><styling><style xml:id="a" style="b"/><style xml:id="b" style="a" tts:fontWeight="bold"/></styling></head>
        <body><div><p begin="0s" end="1s" style="a missing">x</p></div></body></tt>
        """
        let doc = try S.read(text)
        #expect(doc.cues.count == 1)
        #expect(doc.warnings.contains { $0.message.contains("loop") })
        #expect(doc.warnings.contains { $0.message.contains("missing") })
    }

    @Test func metadataAndForeignElementsAreNotCueText() throws {
        let text = S.document(body: #"<div><metadata><p>not a cue</p></metadata><p begin="0s" end="1s">shown<metadata>hidden</metadata></p></div>"#)
        let doc = try S.read(text)
        #expect(doc.cues.count == 1)
        #expect(doc.cues[0].plainText == "shown")
    }

    @Test func malformedXMLGivesLineAndColumn() throws {
        let text = "<tt xmlns=\"http://www.w3.org/ns/ttml\">\n<body>\n  <div><p begin=\"0s\">oops</div>\n</body></tt>"
        let error = try #require(throws: CaptionError.self) { try S.read(text) }
        #expect(error.code == .malformedXML)
        #expect(error.line == 3)
        #expect(error.column != nil)
        #expect(error.errorDescription?.contains("line 3") == true)
    }

    @Test func unboundPrefixIsANamespaceError() throws {
        let error = try #require(throws: CaptionError.self) { try S.read("<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><x:p/></body></tt>") }
        #expect(error.code == .malformedXML)
        #expect(error.message.contains("namespace"))
    }

    @Test(arguments: ["<tt><body/></tt>", "<tt xmlns=\"http://example.com/ttml\"><body/></tt>", "<x:tt xmlns:x=\"urn:x\"/>"])
    func rootMustBeTTInATTMLNamespace(_ text: String) throws {
        let error = try #require(throws: CaptionError.self) { try S.read(text) }
        #expect(error.code == .notTTML)
    }

    @Test func declaredEncodingIsIgnoredForUTF8Bytes() throws {
        // SourceText hands over UTF-8; the declaration keeps saying what the file was.
        for declared in ["UTF-16", "ISO-8859-1"] {
            let text = "<?xml version=\"1.0\" encoding=\"\(declared)\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"0s\" end=\"1s\">Zoë</p></div></body></tt>"
            let doc = try TTMLReader.read(SourceText(utf8: text))
            #expect(doc.cues[0].plainText == "Zoë")
        }
    }

    @Test func utf16FileWithByteOrderMarkReads() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"0s\" end=\"1s\">Zoë ♪</p></div></body></tt>\n"
        var data = Data([0xFF, 0xFE])
        for unit in text.utf16 { data.append(UInt8(unit & 0xFF)); data.append(UInt8(unit >> 8)) }
        let doc = try CaptionDocument.read(data)
        #expect(doc.cues[0].plainText == "Zoë ♪")
        #expect(try doc.write() == data)
    }

    @Test func cueLinesAreThoseOfTheirParagraphs() throws {
        let doc = try S.read(S.document(body: "<div>\n<p begin=\"0s\" end=\"1s\">a</p>\n\n<p begin=\"1s\" end=\"2s\">b</p></div>"))
        #expect(doc.cues.map(\.line) == [5, 7])
    }

    @Test func emptyAndSelfClosingParagraphsAreCues() throws {
        let doc = try S.read(S.document(body: #"<div><p begin="0s" end="1s"/><p begin="1s" end="2s">  </p></div>"#))
        #expect(doc.cues.count == 2)
        #expect(doc.cues.allSatisfy { $0.runs.isEmpty })
    }

    @Test func runsAreRebuiltTheSameEveryTimeAndOnAnyThread() async throws {
        let text = S.document(body: """
        <div><p begin="0s" end="1s" xml:space="preserve"> a  <span tts:fontStyle="italic">b</span></p>
        <p begin="1s" end="2s">c &amp; <span tts:fontWeight="bold">d<br/>e</span></p></div>
        """)
        let doc = try S.read(text)
        let first = doc.cues.map(\.runs)
        #expect(first[0].map(\.text) == [" a  ", "b"])
        #expect(first[1].map(\.text) == ["c & ", "d", "\n", "e"])
        #expect(first[1].map(\.style) == [[], .bold, .bold, .bold])
        let cues = doc.cues
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 { group.addTask { cues.map(\.runs) == first } }
            for try await same in group { #expect(same) }
        }
        #expect(doc.cues == cues)
    }
}
