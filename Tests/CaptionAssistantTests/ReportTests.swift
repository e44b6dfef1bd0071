import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct ReportTests {
    let info = Diagnostics(.modelNotReady)

    @Test func sidecarKeysComeInTheDocumentedOrder() throws {
        let report = FileReport(
            input: "in/ep1.srt", output: "ep1.srt", format: .srt, cues: 2, warnings: [.init(line: 3, message: "m")],
            transcript: TranscriptStats(characters: 10, sentCharacters: 0, truncated: false),
            model: .init(backend: "none", availability: .unavailable(info)),
            actions: ActionReport.ID.allCases.map(ActionReport.disabled), reasonRow: info.reasonRow, error: nil)
        let text = report.json.rendered()
        let keys = ["schemaVersion", "input", "output", "format", "cues", "warnings", "transcript", "model", "backend",
                    "availability", "reason", "remedy", "permanence", "offersSettings", "actions", "reasonRow", "error"]
        var at = text.startIndex
        for key in keys {
            let found = try #require(text.range(of: "\"\(key)\":", range: at..<text.endIndex), "\(key) out of order")
            at = found.upperBound
        }
        #expect(text.contains(#"{"id": "keywordEmphasis""#) == false)  // objects are multi-line
        #expect(text.contains(#""label": "Emphasize keywords""#))
        #expect(text.contains(#""state": "disabled""#))
    }

    @Test func totalsCountFilesAndActions() {
        let ok = FileReport(input: "a", output: "a", format: .srt, cues: 3, warnings: [], transcript: nil,
                            model: .init(backend: "fake", availability: .available),
                            actions: [ActionReport(id: .keywordEmphasis, state: .applied, details: [("occurrences", .int(4))]),
                                      ActionReport(id: .titles, state: .applied), ActionReport(id: .emoji, state: .failed, reason: "r")],
                            reasonRow: nil, error: nil)
        let bad = FileReport(input: "b", output: nil, format: nil, cues: nil, warnings: [], transcript: nil,
                             model: .init(backend: "fake", availability: nil),
                             actions: ActionReport.ID.allCases.map { ActionReport(id: $0, state: .failed, reason: "x") },
                             reasonRow: "r", error: "e")
        let t = BatchReport(files: [ok, bad]).totals
        #expect(t.files == 2 && t.written == 1 && t.failed == 1)
        #expect(t.applied == 2 && t.actionsFailed == 4 && t.disabled == 0)
        #expect(t.keywordOccurrences == 4 && t.cues == 3)
    }
}
