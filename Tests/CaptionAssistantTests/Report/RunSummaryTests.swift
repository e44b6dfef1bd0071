import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant
@testable import CaptionAssistantCLI

/// What a run tells the person: a summary line (and `--json`) that leaves
/// nothing out, each failure said when it happens, a progress line that fits.
@Suite struct RunSummaryTests {
    // MARK: The summary

    func result(_ summary: BatchSummary, skipped: Int = 0, notProcessed: Int = 0, stoppedBy: Int32? = nil) -> BatchRunner.Result {
        BatchRunner.Result(summary: summary, files: [], missingInput: false, reportError: nil, skipped: skipped,
                           notProcessed: notProcessed, stoppedBy: stoppedBy)
    }

    @Test func aResumeThatSkippedEverythingSaysNothingWasWritten() {
        var summary = BatchSummary()
        summary.totals.files = 12
        summary.totals.written = 12
        let line = CaptionAssistantCommand.summary(summary, destination: .folder("out"), run: result(summary, skipped: 12), resume: true)
        #expect(line.hasPrefix("12 files: 0 written, 12 already done (skipped by --resume), 0 failed;"), "\(line)")
        let json = CaptionAssistantCommand.summaryJSON(summary, destination: .folder("out"), status: 0, run: result(summary, skipped: 12), resume: true).rendered()
        #expect(json.contains("\"written\": 0") && json.contains("\"skipped\": 12"))
    }

    @Test func filesAnInterruptedRunNeverStartedAreNotProcessedNotFailed() {
        var summary = BatchSummary()
        summary.totals.files = 1454
        summary.totals.failed = 1
        summary.totals.notProcessed = 1453
        let run = result(summary, notProcessed: 1453, stoppedBy: SIGINT)
        let line = CaptionAssistantCommand.summary(summary, destination: .folder("out"), run: run)
        #expect(line.hasPrefix("1454 files: 0 written, 1 failed, 1453 not processed;"), "\(line)")
        #expect(line.contains("interrupted by SIGINT"))
        #expect(line.contains("actions: 0 applied, 0 failed"), "a file never started has no failed action: \(line)")
        let json = CaptionAssistantCommand.summaryJSON(summary, destination: .folder("out"), status: 130, run: run).rendered()
        #expect(json.contains("\"failed\": 1,") && json.contains("\"notProcessed\": 1453"))
    }

    @Test func theSummaryCountsWarningsAndGivesTheModelsErrorText() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", sampleSRT)
        try dir.write("in/b.srt", "1\n00:00:01.000 --> 00:00:02,000\nThe rocket again.\n")
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let model = FailingAssistantModel(error: AssistantError.failed("HTTP 500: internal server error"))
        let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration(model: model)), destination: .folder(dir.path + "/out"), jobs: 1)
        let run = await runner.run(plan)
        let line = CaptionAssistantCommand.summary(run.summary, destination: .folder("out"), run: run)
        #expect(line.contains("(model failed: HTTP 500: internal server error)"), "\(line)")
        #expect(run.summary.totals.warnings > 0)
        #expect(line.contains("\(run.summary.totals.warnings) warning"))
        let json = CaptionAssistantCommand.summaryJSON(run.summary, destination: .folder("out"), status: 0, run: run).rendered()
        #expect(json.contains("\"error\": \"HTTP 500: internal server error\"") && json.contains("\"files\": 2"))
    }

    // MARK: Failures said when they happen

    @Test func eachFailureIsReportedBeforeTheBatchGoesOn() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a-broken.srt", "")
        try dir.write("in/b.srt", sampleSRT)
        try dir.write("in/c.srt", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let events = Events()
        let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"), jobs: 1)
        let run = await runner.run(plan, progress: { events.add("done \($0)") }, failed: { events.add("failed \($0.input)") })
        #expect(events.all == ["failed \(dir.path)/in/a-broken.srt", "done 1", "done 2", "done 3"])
        #expect(run.summary.failures.count == 1)
    }

    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ s: String) { lock.withLock { list.append(s) } }
        var all: [String] { lock.withLock { list } }
    }

    // MARK: The progress line

    @Test func theProgressLineFitsTheTerminalAndStaysOffWithJSON() {
        let line = "120/5000 files, 240.0 files/s, about 20 s left"
        #expect(ProgressLine.fitted(line, columns: 30) == String(line.prefix(29)))
        #expect(ProgressLine.fitted(line, columns: 200) == line)
        #expect(ProgressLine.fitted(line, columns: nil) == line)
        #expect(ProgressLine.mode(quiet: false, json: true, terminal: true) == nil)
        #expect(ProgressLine.mode(quiet: true, json: false, terminal: true) == nil)
        #expect(ProgressLine.mode(quiet: false, json: false, terminal: true) == .terminal)
        // In a log the line is written every so often, with --json too (which writes standard output), never with --quiet.
        #expect(ProgressLine.mode(quiet: false, json: false, terminal: false) == .log(interval: ProgressLine.logInterval))
        #expect(ProgressLine.mode(quiet: false, json: true, terminal: false) == .log(interval: ProgressLine.logInterval))
        #expect(ProgressLine.mode(quiet: true, json: true, terminal: false) == nil)
    }
}
