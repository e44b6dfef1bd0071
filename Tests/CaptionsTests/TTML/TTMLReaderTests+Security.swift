import Foundation
import Testing
@testable import Captions

/// Hostile XML: entity expansion, external entities and external DTDs are
/// refused before any parser expands or fetches anything. (How fast they are
/// refused is measured by the benchmark, not asserted here.)
@Suite struct TTMLSecurityTests {
    typealias S = TTMLTestSupport

    static let billionLaughs = """
    <?xml version="1.0"?>
    <!DOCTYPE tt [
      <!ENTITY lol "lol">
      <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
      <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
      <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
      <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
      <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
      <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
      <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
      <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
      <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
    ]>
    <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">&lol9;</p></div></body></tt>
    """

    static let externalEntity = """
    <?xml version="1.0"?>
    <!DOCTYPE tt [<!ENTITY x SYSTEM "file:///etc/passwd">]>
    <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">&x;</p></div></body></tt>
    """

    static let externalDTD = """
    <?xml version="1.0"?>
    <!DOCTYPE tt SYSTEM "http://example.com/x.dtd">
    <tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">hi</p></div></body></tt>
    """

    static let parameterEntity = """
    <!DOCTYPE tt [<!ENTITY % remote SYSTEM "file:///etc/passwd"> %remote;]>
    <tt xmlns="http://www.w3.org/ns/ttml"><body/></tt>
    """

    @Test(arguments: [
        ("billion laughs", billionLaughs, 3), ("external entity", externalEntity, 2),
        ("external DTD", externalDTD, 2), ("parameter entity", parameterEntity, 1),
    ])
    func hostileDocumentTypesAreRejected(_ name: String, _ text: String, _ line: Int) throws {
        let error = try #require(throws: CaptionError.self) { try S.read(text) }
        #expect(error.code == .forbiddenDocumentType, "\(name)")
        #expect(error.line == line, "\(name)")
        #expect(!(error.errorDescription ?? "").contains("root:"))
        #expect(!(error.errorDescription ?? "").contains("lollol"))
    }

    @Test func libxml2AloneNeitherExpandsNorFetches() throws {
        // Past the DOCTYPE guard, libxml2's own settings are the second line of defence:
        // no entity substitution, no DTD loading, a loader that refuses everything.
        for text in [Self.externalEntity, Self.billionLaughs] {
            let canonical = (try? XMLDocument.canonicalForm(of: Array(text.utf8))).map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(!canonical.contains("root:"))
            #expect(!canonical.contains("lollollol"))
        }
        // The streaming check rejects references to entities it was never allowed to declare.
        #expect(throws: CaptionError.self) { try XMLDocument.checkWellFormed(Array(Self.externalEntity.utf8)) }
        #expect(throws: CaptionError.self) { try XMLDocument.checkWellFormed(Array(Self.billionLaughs.utf8)) }
    }

    @Test func undeclaredEntityIsMalformed() throws {
        let error = try #require(throws: CaptionError.self) {
            try S.read(S.document(body: #"<div><p begin="0s" end="1s">&nbsp;</p></div>"#))
        }
        #expect(error.code == .malformedXML)
        #expect(error.line == 4)
    }

    @Test func harmlessDoctypeIsAllowed() throws {
        let text = "<!DOCTYPE tt [<!-- <!ENTITY in a comment> --><!ELEMENT tt ANY>]>\n<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"0s\" end=\"1s\">ok</p></div></body></tt>"
        let doc = try S.read(text)
        #expect(doc.cues[0].plainText == "ok")
        #expect(try doc.write() == Data(text.utf8))
    }

    @Test func deepNestingIsRefused() throws {
        let depth = 300_000
        var text = #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">"#
        text += String(repeating: "<span>", count: depth) + "x" + String(repeating: "</span>", count: depth)
        text += "</p></div></body></tt>"
        do {
            let doc = try S.read(text)
            Issue.record("a document nested \(depth) deep was read (\(doc.cues.count) cues)")
        } catch let error as CaptionError {
            #expect(error.code == .tooLarge || error.code == .malformedXML)
        }
    }

    @Test func concurrentReadsAreIndependent() async throws {
        let good = S.document(body: #"<div><p begin="0s" end="1s">fine</p></div>"#)
        let bad = "<tt xmlns=\"http://www.w3.org/ns/ttml\">\n<body><div></p></body></tt>"
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask {
                    if i % 2 == 0 { return try S.read(good).cues.first?.plainText == "fine" }
                    do { _ = try S.read(bad); return false } catch let e as CaptionError { return e.code == .malformedXML && e.line == 2 }
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}
