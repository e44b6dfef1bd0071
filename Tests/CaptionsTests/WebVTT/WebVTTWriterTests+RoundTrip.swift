import Foundation
import Testing
@testable import Captions

/// Every valid WebVTT fixture written back unchanged is byte-identical, and
/// small edits touch only the bytes they must.
@Suite("WebVTT round trip")
struct WebVTTRoundTripTests {
    static func files() -> [String] {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("valid/vtt").path)
        else { return [] }
        return names.filter { $0.hasSuffix(".vtt") }.sorted()
    }

    @Test func theFixtureSetIsComplete() {
        #expect(Self.files().count >= 25)
    }

    @Test(arguments: files())
    func unchangedWriteIsByteIdentical(_ name: String) throws {
        let data = try WebVTTTestSupport.fixture("valid/vtt/" + name)
        let doc = try CaptionDocument.read(data, hint: .vtt)
        #expect(!doc.cues.isEmpty)
        #expect(try doc.write() == data)
        #expect(try doc.write(edits: [0: CueEdit()]) == data)
    }

    @Test(arguments: files())
    func editsChangeOnlyWhatTheyMust(_ name: String) throws {
        let data = try WebVTTTestSupport.fixture("valid/vtt/" + name)
        let doc = try CaptionDocument.read(data, hint: .vtt)
        // A cue whose text ends inside an unclosed tag hides anything appended (players do too).
        guard !doc.warnings.contains(where: { $0.message.contains("never closed") }) else { return }
        let last = doc.cues.count - 1
        var edits: [Int: CueEdit] = [last: CueEdit(appendedText: " 🎬")]
        let firstText = doc.cues.indices.lazy.compactMap { i in
            doc.cues[i].runs.firstIndex { $0.kind == .text && $0.text.utf8.count >= 2 }.map { (i, $0) }
        }.first
        if let (cue, run) = firstText {
            edits[cue, default: CueEdit()].emphasis = [.init(run: run, utf8: 0..<doc.cues[cue].runs[run].text.utf8.count)]
        }
        let again = try CaptionDocument.read(try doc.write(edits: edits), hint: .vtt)
        #expect(again.cues.count == doc.cues.count)
        #expect(again.cues.map(\.start) == doc.cues.map(\.start))
        #expect(again.cues[last].plainText.hasSuffix("🎬"))
        for i in doc.cues.indices where i != last {
            #expect(again.cues[i].plainText == doc.cues[i].plainText)
        }
        if let (cue, run) = firstText {
            let text = doc.cues[cue].runs[run].text
            #expect(again.cues[cue].runs.contains { $0.kind == .text && $0.text == text && $0.style.contains(.bold) })
        }
    }
}
