import Testing
@testable import Captions

/// The tokenizer under the TTML reader: byte ranges, line numbers, and a cut-short tag.
@Suite struct XMLTokenizerTests {
    /// Every token of `text`, as (kind, bytes) pairs, with the attributes of each start tag.
    private func tokens(_ text: String) throws -> [String] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { p in
            let raw = XMLBytes(p)
            var xml = XMLTokenizer(raw)
            var out: [String] = []
            while let token = try xml.next(before: raw.n) {
                switch token {
                case .text(let r): out.append("text:" + raw.string(r))
                case .cdata(let r): out.append("cdata:" + raw.string(r))
                case .endTag(let start): out.append("end@\(start)")
                case .markup(let r): out.append("markup:" + raw.string(r))
                case .startTag(let tag):
                    let attributes = xml.attributes.map { raw.string($0.name) + "=" + raw.string($0.value) }
                    out.append("start:" + raw.string(tag.name) + (tag.selfClosing ? "/" : "")
                               + "[" + attributes.joined(separator: ",") + "]" + raw.string(tag.start..<tag.end))
                }
            }
            return out
        }
    }

    @Test func reportsEachTokenAsTheBytesOfTheDocument() throws {
        let text = "<?xml version=\"1.0\"?><!-- c --><tt:p xml:id='a' begin = \"1s\">A &amp; <![CDATA[<b>]]><br/></tt:p>"
        #expect(try tokens(text) == [
            "markup:<?xml version=\"1.0\"?>",
            "markup:<!-- c -->",
            "start:tt:p[xml:id=a,begin=1s]<tt:p xml:id='a' begin = \"1s\">",
            "text:A &amp; ",
            "cdata:<b>",
            "start:br/[]<br/>",
            "end@\(text.utf8.count - 7)",
        ])
    }

    @Test func skipsADoctypeWithAnInternalSubsetWhole() throws {
        #expect(try tokens("<!DOCTYPE tt [<!-- ] > --> <!ATTLIST p a CDATA \">\">]><tt/>") == [
            "markup:<!DOCTYPE tt [<!-- ] > --> <!ATTLIST p a CDATA \">\">]>",
            "start:tt/[]<tt/>",
        ])
    }

    @Test func countsCRLFAndBareCRAndLFAsOneLineEndEach() {
        let bytes = Array("a\r\nb\rc\nd".utf8)
        bytes.withUnsafeBufferPointer { p in
            var xml = XMLTokenizer(XMLBytes(p))
            #expect(xml.line(at: 0) == 1)
            #expect(xml.line(at: 3) == 2)
            #expect(xml.line(at: 5) == 3)
            #expect(xml.line(at: 7) == 4)
            // Asking about an earlier byte counts again from the start.
            #expect(xml.line(at: 1) == 1)
        }
    }

    @Test func aStartTagCutShortIsMalformedXML() {
        for text in ["<tt a=\"1", "<tt a", "<tt a=1>", "<tt "] {
            #expect(throws: CaptionError.self) { _ = try tokens(text) }
        }
    }

    @Test func textIsCutAtTheLimitAndATagBeforeItIsReadWhole() throws {
        let bytes = Array("ab<x y=\"1\"/>cd".utf8)
        try bytes.withUnsafeBufferPointer { p in
            let raw = XMLBytes(p)
            var xml = XMLTokenizer(raw, from: 1)
            guard case .text(let r)? = try xml.next(before: 5) else { Issue.record("no text"); return }
            #expect(r == 1..<2)
            guard case .startTag(let tag)? = try xml.next(before: 5) else { Issue.record("no tag"); return }
            #expect(tag.end == 12)
            #expect(try xml.next(before: 5) == nil)
        }
    }
}
