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
            model: .init(backend: "none", availability: .unavailable(ModelUnavailability(info))),
            actions: AssistantAction.allCases.map(ActionReport.disabled), reasonRow: info.reasonRow, error: nil)
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

    @Test func totalsCountFilesAndActions() throws {
        let ok = FileReport(input: "a", output: "a", format: .srt, cues: 3, warnings: [], transcript: nil,
                            model: .init(backend: "fake", availability: .available),
                            actions: [ActionReport.applied(.keywords, occurrences: 4),
                                      ActionReport(id: .titles, state: .applied), ActionReport(id: .emoji, state: .failed, reason: "r")],
                            reasonRow: nil, error: nil)
        let bad = FileReport(input: "b", output: nil, format: nil, cues: nil, warnings: [], transcript: nil,
                             model: .init(backend: "fake", availability: nil),
                             actions: AssistantAction.allCases.map { ActionReport(id: $0, state: .failed, reason: "x") },
                             reasonRow: "r", error: "e")
        let t = try BatchReport(files: [ok, bad]).totals
        #expect(t.files == 2 && t.written == 1 && t.failed == 1)
        #expect(t.actions.applied == 2 && t.actions.failed == 4 && t.actions.disabled == 0)
        #expect(t.keywordOccurrences == 4 && t.cues == 3)
    }

    @Test func theBatchReportStreamedIsTheJSONRendered() throws {
        let ok = FileReport(input: "a\u{2028}\"q\"", output: "a", format: .srt, cues: 3, warnings: [.init(line: 2, message: "tab\there\u{1}")],
                            transcript: TranscriptStats(characters: 5, sentCharacters: 5, truncated: false),
                            model: .init(backend: "fake", availability: .available),
                            actions: [ActionReport.applied(.keywords, keywords: ["é", "b\\"], occurrences: 4),
                                      ActionReport(id: .titles, state: .applied), ActionReport(id: .emoji, state: .failed, reason: "r")],
                            reasonRow: nil, error: nil)
        let bad = FileReport(input: "b", output: nil, format: nil, cues: nil, warnings: [], transcript: nil,
                             model: .init(backend: "none", availability: .unavailable(ModelUnavailability(info))),
                             actions: AssistantAction.allCases.map { ActionReport(id: $0, state: .failed, reason: "x") },
                             reasonRow: "r", error: "e")
        for files in [[], [ok], [ok, bad, ok]] {
            let report = BatchReport(files: files)
            #expect(try report.renderedBytes() == report.json().renderedBytes())
            #expect(try String(decoding: report.renderedBytes(), as: UTF8.self) == report.json().rendered())
        }
    }
}
