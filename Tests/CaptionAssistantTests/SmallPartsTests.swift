import Assistant
import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct AtomicFileWriterTests {
    @Test func writesCreatesFoldersAndReplacesWithoutLeavingTemporaryFiles() throws {
        let dir = try TemporaryFolder()
        let path = dir.path + "/a/b/c.srt"
        try AtomicFileWriter.write(Data("one".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("one".utf8))
        try AtomicFileWriter.write(Data("two, longer".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("two, longer".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/a/b") == ["c.srt"])
    }

    @Test func failsWithThePathWhenTheFolderIsAFile() throws {
        let dir = try TemporaryFolder()
        try dir.write("file", "x")
        #expect(throws: WriteError.self) { try AtomicFileWriter.write(Data(), to: dir.path + "/file/c.srt") }
    }
}

@Suite struct BackendSelectionTests {
    @Test func choosesPerDesign() {
        var options = ModelOptions()
        #expect(BackendSelection.choose(options, endpointConfigured: false, foundationModels: false)
                == BackendSelection(kind: .none, reportName: "none", fixedReason: .unsupportedPlatform))
        #expect(BackendSelection.choose(options, endpointConfigured: true, foundationModels: false).kind == .http)
        #expect(BackendSelection.choose(options, endpointConfigured: true, foundationModels: true).kind == .foundation)
        options.backend = .foundation
        #expect(BackendSelection.choose(options, endpointConfigured: false, foundationModels: false)
                == BackendSelection(kind: .none, reportName: "foundation", fixedReason: .unsupportedPlatform))
        options.backend = .none
        #expect(BackendSelection.choose(options, endpointConfigured: true, foundationModels: true).kind == .none)
        options.backend = .http
        #expect(BackendSelection.choose(options, endpointConfigured: false, foundationModels: true).kind == .http)
        options.fake = true
        #expect(BackendSelection.choose(options, endpointConfigured: false, foundationModels: false).reportName == "fake")
    }
}

@Suite struct ProgressLineTests {
    @Test func showsDoneRateAndTimeLeft() {
        #expect(ProgressLine.text(done: 0, total: 10, elapsed: 0) == "0/10 files")
        #expect(ProgressLine.text(done: 5, total: 10, elapsed: 2) == "5/10 files, 2.5 files/s, about 2 s left")
        #expect(ProgressLine.text(done: 10, total: 10, elapsed: 2) == "10/10 files, 5.0 files/s")
    }
}

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
