import Foundation
import Testing
@testable import Captions

@Suite struct TTMLFixtureTests {
    typealias S = TTMLTestSupport

    static let valid = ["prefixed-ebu-tt-d.ttml", "default-namespace.ttml", "dfxp-2006-10.dfxp", "dfxp-2006-04.xml",
                        "imsc1-styles-regions-metadata.ttml", "crlf.ttml", "utf16le-bom.ttml", "frames-2997.ttml",
                        "ticks-netflix.ttml", "seq-containers.ttml"]

    private func load(_ folder: String, _ name: String) throws -> Data {
        try Data(contentsOf: S.fixtures.appendingPathComponent(folder).appendingPathComponent("ttml").appendingPathComponent(name))
    }

    @Test(arguments: valid)
    func readsAndWritesBackUnchanged(_ name: String) throws {
        let data = try load("valid", name)
        let doc = try CaptionDocument.read(data)
        #expect(doc.format == .ttml)
        #expect(!doc.cues.isEmpty)
        #expect(try doc.write() == data)
        #expect(try doc.write(edits: [0: CueEdit()]) == data)
    }

    @Test(arguments: valid)
    func editedFixtureKeepsEverythingElse(_ name: String) throws {
        let data = try load("valid", name)
        let doc = try CaptionDocument.read(data)
        let last = doc.cues.count - 1
        let firstRun = try #require(doc.cues[0].runs.firstIndex { $0.kind == .text })
        let word = doc.cues[0].runs[firstRun].text.utf8.prefix { $0 != 0x20 && $0 != 0x2C }.count
        var edits: [Int: CueEdit] = [0: CueEdit(emphasis: [CueEdit.RunRange(run: firstRun, utf8: 0..<word)])]
        edits[last, default: CueEdit()].appendedText = " 🎬"
        let output = try doc.write(edits: edits)
        let again = try CaptionDocument.read(output)
        #expect(again.source.encoding == doc.source.encoding)
        #expect(again.source.hasByteOrderMark == doc.source.hasByteOrderMark)
        #expect(again.cues.count == doc.cues.count)
        #expect(again.cues[last].plainText == doc.cues[last].plainText + " 🎬")
        #expect(again.cues[0].runs.first { $0.kind == .text }?.style.contains(.bold) == true)
        for (a, b) in zip(again.cues, doc.cues) {
            #expect(a.start == b.start && a.end == b.end && a.identifier == b.identifier)
        }
        // Bytes before the first cue's text are untouched (apart from a namespace declaration on the root).
        let before = doc.cues[0].textRange.lowerBound
        let rewritten = Array(again.source.bytes)
        if doc.warnings.isEmpty, rewritten.count > before {
            let prefix = String(decoding: rewritten[..<before], as: UTF8.self)
            let original = String(decoding: doc.source.bytes[..<before], as: UTF8.self)
            #expect(prefix == original || prefix.contains("xmlns:tts=\"http://www.w3.org/ns/ttml#styling\""))
        }
    }

    @Test func fixtureTimesAreExact() throws {
        let ntsc = try CaptionDocument.read(try load("valid", "frames-2997.ttml"))
        // 1 s + 15 frames at 30000/1001 fps; end: 2 s + 0.5 frame.
        #expect(ntsc.cues[0].start == S.time(30000 + 15 * 1001, 30000))
        #expect(ntsc.cues[0].end == S.time(2 * 60000 + 1001, 60000))
        let ticks = try CaptionDocument.read(try load("valid", "ticks-netflix.ttml"))
        #expect(ticks.cues.map(\.start) == [S.time(22708, 1000), S.time(25002, 1000)])
        #expect(ticks.cues[1].runs[0].style == .italic)
        let dfxp = try CaptionDocument.read(try load("valid", "dfxp-2006-10.dfxp"))
        #expect(dfxp.cues[0].start == S.time(1).adding(S.time(5, 25))!)
        #expect(dfxp.cues[0].plainText == "The flight director\ngives the go.")
        #expect(dfxp.cues[0].runs[0].style == .bold)
        let imsc = try CaptionDocument.read(try load("valid", "imsc1-styles-regions-metadata.ttml"))
        #expect(imsc.cues.map(\.plainText) == ["It began quietly,\nas these things do.", "[Engines roar]", "Then everything changed."])
        #expect(imsc.cues[0].runs[1].style == .italic)
        #expect(imsc.cues[2].start == S.time(120 * 1001, 24000))
        #expect(imsc.cues[2].end == S.time(168 * 1001, 24000))
        let ebu = try CaptionDocument.read(try load("valid", "prefixed-ebu-tt-d.ttml"))
        #expect(ebu.cues.map(\.plainText) == ["Welcome to the launch\nof the rocket.", "Ten, nine, eight…"])
        #expect(ebu.cues[0].runs.last?.style == .italic)
        let crlf = try CaptionDocument.read(try load("valid", "crlf.ttml"))
        #expect(crlf.cues[0].plainText == "Windows line endings inside")
        #expect(crlf.cues.map(\.line) == [5, 7])
        let utf16 = try CaptionDocument.read(try load("valid", "utf16le-bom.ttml"))
        #expect(utf16.source.encoding == .utf16LittleEndian)
        #expect(utf16.cues.map(\.plainText) == ["ロケットの打ち上げ", "Zoë & 🎬"])
    }

    @Test(arguments: [
        ("billion-laughs.ttml", CaptionError.Code.forbiddenDocumentType, 3),
        ("xxe-file.ttml", .forbiddenDocumentType, 2),
        ("external-dtd.ttml", .forbiddenDocumentType, 2),
        ("mismatched-tag.ttml", .malformedXML, 5),
        ("undeclared-entity.ttml", .malformedXML, 3),
        ("wrong-root-namespace.ttml", .notTTML, 2),
    ])
    func invalidFixturesFailWithTheirError(_ name: String, _ code: CaptionError.Code, _ line: Int) throws {
        let data = try load("invalid", name)
        let error = try #require(throws: CaptionError.self) { try CaptionDocument.read(data, hint: .ttml) }
        #expect(error.code == code)
        #expect(error.line == line)
        #expect(!error.message.contains("root:"))
    }
}

extension TTMLFixtureTests {
    @Test func seqContainersFixture() throws {
        let doc = try CaptionDocument.read(try Data(contentsOf: S.fixtures.appendingPathComponent("valid/ttml/seq-containers.ttml")))
        #expect(doc.cues.map(\.start) == [S.time(1), S.time(7, 2), S.time(6)])
        #expect(doc.cues.map(\.end) == [S.time(3), S.time(5), S.time(7)])
    }
}
