import Foundation
import Testing
@testable import Captions

@Suite struct TTMLWriterTests {
    typealias S = TTMLTestSupport

    /// Emphasis on `word` (first occurrence) in the text run that contains it.
    private func emphasis(_ cue: Cue, _ word: String) throws -> CueEdit.RunRange {
        for (i, run) in cue.runs.enumerated() where run.kind == .text {
            let utf8 = Array(run.text.utf8), w = Array(word.utf8)
            guard utf8.count >= w.count else { continue }
            for start in 0...(utf8.count - w.count) where Array(utf8[start..<(start + w.count)]) == w {
                return CueEdit.RunRange(run: i, utf8: start..<(start + w.count))
            }
        }
        throw CaptionError(.unsupported, message: "\(word) not found")
    }

    private func string(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    static let rich = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!-- An IMSC1 document with everything a careless writer would lose. -->
    <tt:tt xmlns:tt="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter"
           xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"
           xmlns:ebuttm="urn:ebu:tt:metadata" ttp:timeBase="media" ttp:frameRate="25" xml:lang="en">
      <tt:head>
        <tt:metadata>
          <ttm:title>Episode 1</ttm:title>
          <ebuttm:documentMetadata><ebuttm:documentEbuttVersion>v1.0</ebuttm:documentEbuttVersion></ebuttm:documentMetadata>
        </tt:metadata>
        <tt:styling>
          <tt:style xml:id="s1" tts:fontFamily="proportionalSansSerif" tts:color='#FFFFFF' tts:fontStyle="italic"/>
        </tt:styling>
        <tt:layout>
          <tt:region xml:id="bottom" tts:origin="10% 80%" tts:extent="80% 15%"/>
        </tt:layout>
      </tt:head>
      <tt:body region="bottom">
        <!-- scene 1 -->
        <tt:div>
          <tt:p xml:id="c1" begin="00:00:01:00" end="00:00:02:12" style="s1">The rocket &amp; the
            <tt:span tts:color="yellow">launch</tt:span> pad<tt:br/>are ready.</tt:p>
          <?review checked?>
          <tt:p xml:id="c2" begin="00:00:03:00" end="00:00:04:00">Rocket caf&#233; launch</tt:p>
        </tt:div>
      </tt:body>
    </tt:tt>

    """

    @Test func editedDocumentIsCanonicallyTheInputPlusTheEdits() throws {
        let doc = try S.read(Self.rich)
        #expect(doc.cues.count == 2)
        let c1 = doc.cues[0], c2 = doc.cues[1]
        let edits: [Int: CueEdit] = [
            0: CueEdit(emphasis: [try emphasis(c1, "rocket"), try emphasis(c1, "launch")]),
            1: CueEdit(emphasis: [try emphasis(c2, "café")], appendedText: " 🎬 & <done>"),
        ]
        let output = try doc.write(edits: edits)
        // The expected document, written by hand.
        let expected = Self.rich
            .replacingOccurrences(of: "The rocket &amp;", with: #"The <tt:span tts:fontWeight="bold">rocket</tt:span> &amp;"#)
            .replacingOccurrences(of: #"<tt:span tts:color="yellow">launch</tt:span>"#,
                                  with: #"<tt:span tts:color="yellow"><tt:span tts:fontWeight="bold">launch</tt:span></tt:span>"#)
            .replacingOccurrences(of: "Rocket caf&#233; launch</tt:p>",
                                  with: #"Rocket <tt:span tts:fontWeight="bold">caf&#233;</tt:span> launch 🎬 &amp; &lt;done&gt;</tt:p>"#)
        #expect(expected != Self.rich)
        let canonicalOutput = try XMLDocument.canonicalForm(of: Array(output))
        let canonicalExpected = try XMLDocument.canonicalForm(of: Array(expected.utf8))
        #expect(string(Data(canonicalOutput)) == string(Data(canonicalExpected)))
        // Not only canonically: every byte outside the edits is the input's.
        #expect(string(output) == expected)
        // And it reads back with the emphasis in place.
        let again = try CaptionDocument.read(output)
        #expect(again.cues[1].plainText == "Rocket café launch 🎬 & <done>")
        #expect(again.cues[1].runs.contains { $0.text == "café" && $0.style == .bold })
        #expect(again.cues[0].runs.contains { $0.text == "rocket" && $0.style == [.bold, .italic] })
    }

    @Test func untouchedBytesAreIdentical() throws {
        let doc = try S.read(Self.rich)
        let output = Array(try doc.write(edits: [1: CueEdit(appendedText: " 🎬")]))
        let input = Array(Self.rich.utf8)
        let at = doc.cues[1].textRange.upperBound
        let inserted = Array(" 🎬".utf8)
        #expect(Array(output[..<at]) == Array(input[..<at]))
        #expect(Array(output[at..<(at + inserted.count)]) == inserted)
        #expect(Array(output[(at + inserted.count)...]) == Array(input[at...]))
    }

    @Test func stylingNamespaceIsDeclaredWhenMissing() throws {
        let text = "<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:tts=\"urn:taken\" xml:lang=\"en\">\n<body><div><p begin=\"0s\" end=\"1s\">big news</p></div></body></tt>\n"
        let doc = try S.read(text)
        let output = string(try doc.write(edits: [0: CueEdit(emphasis: [try emphasis(doc.cues[0], "news")])]))
        #expect(output == "<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:tts=\"urn:taken\" xml:lang=\"en\" xmlns:tts2=\"http://www.w3.org/ns/ttml#styling\">\n<body><div><p begin=\"0s\" end=\"1s\">big <span tts2:fontWeight=\"bold\">news</span></p></div></body></tt>\n")
        let again = try S.read(output)
        #expect(again.cues[0].runs.last?.style == .bold)
    }

    @Test func boundStylingPrefixIsReusedWhateverItsName() throws {
        let text = #"<tt xmlns="http://www.w3.org/2006/10/ttaf1" xmlns:style="http://www.w3.org/2006/10/ttaf1#styling"><body><div><p begin="0s" end="1s">big news</p></div></body></tt>"#
        let doc = try S.read(text)
        let output = string(try doc.write(edits: [0: CueEdit(emphasis: [try emphasis(doc.cues[0], "big")])]))
        #expect(output.contains(#"<span style:fontWeight="bold">big</span> news"#))
        #expect(!output.contains("xmlns:tts"))
    }

    @Test func emphasisInsideCollapsedWhitespaceAndEntities() throws {
        let text = S.document(body: "<div><p begin=\"0s\" end=\"1s\">\n   Tom   &amp;\n  Jerry &#x263A;  </p></div>")
        let doc = try S.read(text)
        #expect(doc.cues[0].plainText == "Tom & Jerry ☺")
        let edit = CueEdit(emphasis: [try emphasis(doc.cues[0], "Tom"), try emphasis(doc.cues[0], "Jerry")], appendedText: " 🎬")
        let output = string(try doc.write(edits: [0: edit]))
        // The emoji goes one space after the last visible character; the trailing spaces stay after it.
        #expect(output.contains("\n   <span tts:fontWeight=\"bold\">Tom</span>   &amp;\n  <span tts:fontWeight=\"bold\">Jerry</span> &#x263A; 🎬  </p>"))
        #expect(try S.read(output).cues[0].plainText == "Tom & Jerry ☺ 🎬")
    }

    @Test func emphasisInsideCDATAClosesAndReopensTheSection() throws {
        let text = S.document(body: #"<div><p begin="0s" end="1s"><![CDATA[a <big> launch]]></p></div>"#)
        let doc = try S.read(text)
        let output = string(try doc.write(edits: [0: CueEdit(emphasis: [try emphasis(doc.cues[0], "launch")])]))
        #expect(output.contains(#"<![CDATA[a <big> ]]><span tts:fontWeight="bold"><![CDATA[launch]]></span><![CDATA[]]></p>"#))
        let again = try S.read(output)
        #expect(again.cues[0].plainText == "a <big> launch")
        #expect(again.cues[0].runs.contains { $0.text == "launch" && $0.style == .bold })
    }

    @Test func appendingToAnEmptyElementParagraph() throws {
        let text = S.document(body: #"<div><p begin="0s" end="1s" /></div>"#)
        let doc = try S.read(text)
        let output = string(try doc.write(edits: [0: CueEdit(appendedText: " 🎬")]))
        #expect(output.contains(#"<p begin="0s" end="1s" > 🎬</p></div>"#))
        #expect(try S.read(output).cues[0].plainText == "🎬")
    }

    @Test func namespaceRedeclaredInsideAParagraphIsRespected() throws {
        let text = #"<tt:tt xmlns:tt="http://www.w3.org/ns/ttml"><tt:body><tt:div><tt:p begin="0s" end="1s">one <tt:span xmlns:tt="urn:other">x</tt:span><t2:span xmlns:tt="urn:other" xmlns:t2="http://www.w3.org/ns/ttml">two three</t2:span></tt:p></tt:div></tt:body></tt:tt>"#
        let doc = try S.read(text)
        #expect(doc.cues[0].plainText == "one two three")
        let output = string(try doc.write(edits: [0: CueEdit(emphasis: [try emphasis(doc.cues[0], "one"), try emphasis(doc.cues[0], "three")])]))
        #expect(output.contains(#"<tt:span tts:fontWeight="bold">one</tt:span>"#))
        #expect(output.contains(#"two <t2:span tts:fontWeight="bold">three</t2:span>"#))
        let again = try S.read(output)
        #expect(again.cues[0].runs.filter { $0.style == .bold }.map(\.text) == ["one", "three"])
    }

    @Test func rangesThatSplitACharacterOrOverlapAreSkipped() throws {
        let text = S.document(body: #"<div><p begin="0s" end="1s">caf&#233; bar</p></div>"#)
        let doc = try S.read(text)
        let edits = [0: CueEdit(emphasis: [CueEdit.RunRange(run: 0, utf8: 0..<4), CueEdit.RunRange(run: 0, utf8: 6..<9),
                                           CueEdit.RunRange(run: 0, utf8: 7..<9), CueEdit.RunRange(run: 5, utf8: 0..<1)])]
        let output = try doc.write(edits: edits)
        #expect(string(output) == text.replacingOccurrences(of: "bar</p>", with: #"<span tts:fontWeight="bold">bar</span></p>"#))
    }

    @Test func renderWritesACleanDocument() throws {
        let cues = [
            Cue(identifier: "intro", start: CaptionTime(milliseconds: 1500), end: CaptionTime(milliseconds: 3_723_004), settings: "line:0",
                line: 3, runs: [TextRun(kind: .text, text: "Fish & ", source: 0..<0),
                                TextRun(kind: .text, text: "chips", style: [.bold, .italic], source: 0..<0),
                                TextRun(kind: .lineBreak, text: "\n", source: 0..<0),
                                TextRun(kind: .markup, text: "<v Bob>", source: 0..<0),
                                TextRun(kind: .text, text: "<ok>", style: .underline, source: 0..<0)],
                textRange: 0..<0),
            Cue(identifier: "2 bad", start: .zero, end: CaptionTime(milliseconds: 10), line: 7,
                runs: [TextRun(kind: .text, text: "x", source: 0..<0)], textRange: 0..<0),
        ]
        var losses: [String] = []
        let bytes = TTMLWriter.render(cues, from: .vtt, losses: &losses)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\""))
        #expect(text.contains(#"<p begin="00:00:01.500" end="01:02:03.004" xml:id="intro">Fish &amp; <span tts:fontWeight="bold" tts:fontStyle="italic">chips</span><br/><span tts:textDecoration="underline">&lt;ok&gt;</span></p>"#))
        #expect(text.contains(#"<p begin="00:00:00.000" end="00:00:00.010">x</p>"#))
        #expect(losses.contains { $0.contains("cue settings") })
        #expect(losses.contains { $0.contains("identifiers") })
        #expect(losses.contains { $0.contains("tags") })
        // It reads back.
        let doc = try CaptionDocument.read(Data(bytes))
        #expect(doc.cues.count == 2)
        #expect(doc.cues[0].plainText == "Fish & chips\n<ok>")
        #expect(doc.cues[0].end == CaptionTime(milliseconds: 3_723_004))
        #expect(doc.cues[0].runs[1].style == [.bold, .italic])
    }

    @Test func latin1DeclaredFileIsEditedAndWrittenBackInItsEncoding() throws {
        // A file declared ISO-8859-1 with é and è as single bytes: read as Windows-1252, written back so.
        var latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"0s\" end=\"1s\">caf".utf8)
        latin1 += [0xE9] + Array(" cr".utf8) + [0xE8] + Array("me</p></div></body></tt>\n".utf8)
        let doc = try CaptionDocument.read(Data(latin1))
        #expect(doc.source.encoding == .windows1252)
        #expect(doc.cues[0].plainText == "café crème")
        let output = try doc.write(edits: [0: CueEdit(emphasis: [try emphasis(doc.cues[0], "crème")], appendedText: " !")])
        var expected = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:tts=\"http://www.w3.org/ns/ttml#styling\"><body><div><p begin=\"0s\" end=\"1s\">caf".utf8)
        expected += [0xE9] + Array(" <span tts:fontWeight=\"bold\">cr".utf8) + [0xE8] + Array("me</span> !</p></div></body></tt>\n".utf8)
        #expect([UInt8](output) == expected)
        let again = try CaptionDocument.read(output)
        #expect(again.cues[0].plainText == "café crème !")
        #expect(again.cues[0].runs.contains { $0.text == "crème" && $0.style == .bold })
    }

    @Test func preservedWhitespaceMapsExactly() throws {
        let text = S.document(body: "<div><p begin=\"0s\" end=\"1s\" xml:space=\"preserve\">  a\r\n  big  &amp;  bold</p></div>")
        let doc = try S.read(text)
        #expect(doc.cues[0].plainText == "  a\n  big  &  bold")
        let output = string(try doc.write(edits: [0: CueEdit(emphasis: [try emphasis(doc.cues[0], "big"), try emphasis(doc.cues[0], "bold")])]))
        #expect(output.contains("  a\r\n  <span tts:fontWeight=\"bold\">big</span>  &amp;  <span tts:fontWeight=\"bold\">bold</span></p>"))
    }
}
