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
        // The whole sidecar: its keys in the documented order, multi-line objects, every value.
        try expectGolden("sidecar-model-unavailable.json", report.json.rendered())
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
        var expected = BatchReport.Totals()
        expected.files = 2; expected.written = 1; expected.failed = 1
        expected.actions.applied = 2; expected.actions.failed = 4
        expected.keywordOccurrences = 4; expected.cues = 3
        #expect(try WholeReport(files: [ok, bad]).totals == expected)
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
            let report = WholeReport(files: files)
            #expect(try report.renderedBytes() == report.json().renderedBytes())
            #expect(try String(decoding: report.renderedBytes(), as: UTF8.self) == report.json().rendered())
        }
    }
}
