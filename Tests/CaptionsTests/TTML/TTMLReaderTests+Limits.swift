import Foundation
import Testing
import TestSupport
@testable import Captions

/// TTML as deep or as wide as the input likes, generated here: a style chain
/// is followed without recursion, and namespace declarations and attributes
/// cost a bounded amount before a clear refusal.
@Suite(.mayBlock) struct TTMLLimitsTests {
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
}
