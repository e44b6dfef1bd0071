import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant
import JSON

@Suite struct BatchRunnerTests {
    @Test func aBadFileDoesNotStopTheRestAndOrderIsStable() async throws {
        let dir = try TemporaryFolder()
        for i in 0..<12 { try dir.write("in/s\(i % 3)/ep\(i).srt", sampleSRT) }
        try dir.write("in/s1/broken.srt", "")
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        var reports: [String] = []
        for jobs in [1, 4] {
            try? FileManager.default.removeItem(atPath: dir.path + "/out")
            let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"), jobs: jobs, keepsReports: true)
            let result = await runner.run(plan)
            #expect(result.files.count == 13)
            #expect(result.summary.totals.written == 12)
            #expect(result.summary.totals.failed == 1)
            reports.append(try String(contentsOfFile: dir.path + "/out/report.json", encoding: .utf8))
            #expect(FileManager.default.fileExists(atPath: dir.path + "/out/s1/broken.srt.assistant.json"))
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/out/s1/broken.srt"))
            #expect(FileManager.default.fileExists(atPath: dir.path + "/out/s2/ep11.srt"))
        }
        #expect(reports[0] == reports[1])
        // Inputs are untouched.
        #expect(try String(contentsOfFile: dir.path + "/in/s0/ep0.srt", encoding: .utf8) == sampleSRT)
    }

    /// The batch writes an edited SRT or WebVTT caption as it is made
    /// (`CaptionOutput.spliced`): the file must be the bytes `process` gives
    /// an app, and the report's output hash that of the file written.
    @Test func aCaptionWrittenAsItIsMadeIsTheWholeOneWithItsHash() async throws {
        let dir = try TemporaryFolder()
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nThe rocket is on the pad &amp; ready.\n\n00:00:05.000 --> 00:00:08.000\nThe rocket lifts off.\n"
        try dir.write("in/a.srt", sampleSRT)
        try dir.write("in/b.vtt", vtt)
        let processor = FileProcessor(configuration: fakeConfiguration())
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let result = await BatchRunner(processor: processor, destination: .folder(dir.path + "/out"), jobs: 1, keepsReports: true).run(plan)
        #expect(result.summary.totals.written == 2)
        for (name, text) in [("a.srt", sampleSRT), ("b.vtt", vtt)] {
            let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/" + name)))
            let whole = await processor.process(Array(text.utf8), input: name, hint: nil) { _ in name }
            #expect(whole.bytes == written && written != Array(text.utf8), "\(name)")
            let report = try #require(result.files.first { $0.input.hasSuffix(name) })
            #expect(report.fingerprint.outputSHA256 == SHA256.hex(written) && whole.report.fingerprint.outputSHA256 == SHA256.hex(written))
        }
    }

    @Test func aStopFinishesTheFilesInFlightAndReportsTheRestAsNotProcessed() async throws {
        let dir = try TemporaryFolder()
        for i in 0..<20 { try dir.write(String(format: "in/ep%02d.srt", i), sampleSRT) }
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let stop = BatchStop()
        let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"), jobs: 3, keepsReports: true)
        let result = await runner.run(plan, progress: { done in if done == 5 { stop.request(signal: SIGINT) } }, stop: stop)
        #expect(result.stoppedBy == SIGINT)
        let files = result.files
        #expect(files.count == 20)
        let done = files.filter(\.written)
        let notProcessed = files.filter { FileReport.isNotProcessed($0.error) }
        // The 5 done when the stop came, plus at most the 2 others in flight.
        #expect((5...7).contains(done.count))
        #expect(done.count + notProcessed.count == 20)
        #expect(result.notProcessed == notProcessed.count)
        // Files are taken in order, so the ones not processed are the last.
        #expect(Array(files.prefix(done.count).map(\.input)) == done.map(\.input))
        for file in notProcessed {
            #expect(file.output == nil)
            #expect(file.actions.allSatisfy { $0.state == .failed })
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/out/" + (file.input as NSString).lastPathComponent + ".assistant.json"))
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/out/" + (file.input as NSString).lastPathComponent))
        }
        let report = try #require(JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/report.json")))))
        // Files never started are counted as not processed, not as failed, and their actions are not failures.
        #expect(report["totals"]?["notProcessed"] == .int(notProcessed.count))
        #expect(report["totals"]?["failed"] == .int(0))
        #expect(report["totals"]?["actions"]?["failed"] == .int(0))
        #expect(report["totals"]?["written"] == .int(done.count))
        // Resuming finishes the batch: the report equals a run never stopped.
        let resumed = await BatchRunner(processor: runner.processor, destination: runner.destination, jobs: 3, resume: true).run(plan)
        #expect(resumed.skipped == done.count)
        #expect(resumed.stoppedBy == nil)
        let full = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/report.json"))
        _ = await BatchRunner(processor: runner.processor, destination: .folder(dir.path + "/fresh"), jobs: 1).run(plan)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/fresh/report.json")) == full)
    }

    @Test func anOutputFolderThatCannotBeMadeFailsEveryFileWithTheReason() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/ep.srt", sampleSRT)
        try dir.write("file", "x")
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/file/out", convertTo: nil)
        let result = await BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()),
                                       destination: .folder(dir.path + "/file/out"), jobs: 1, keepsReports: true).run(plan)
        #expect(result.files.count == 1)
        #expect(result.files.first?.error?.contains("is a file") == true)
        #expect(result.reportError != nil)
    }
}

/// One outcome per file (`FileReport.outcome`), and every count from it.
@Suite struct FileOutcomeTests {
    /// A caption whose sidecar could not be written has failed: the totals, the failures
    /// (which set the exit status) and report.json all say so, and no count says it was written.
    @Test func aCaptionWhoseSidecarCannotBeWrittenIsCountedAsFailedEverywhere() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", sampleSRT)
        try dir.write("in/b.srt", sampleSRT)
        // A folder where a's sidecar goes: the rename onto it fails.
        try FileManager.default.createDirectory(atPath: dir.path + "/out/a.srt.assistant.json", withIntermediateDirectories: true)
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"),
                                 jobs: 1, keepsReports: true)
        let result = await runner.run(plan)
        let a = try #require(result.files.first)
        #expect(a.output == "a.srt" && !a.sidecarWritten && a.outcome == .failed)
        let t = result.summary.totals
        #expect(t.files == 2 && t.written == 1 && t.failed == 1)
        #expect(result.summary.failures.map(\.input) == [dir.path + "/in/a.srt"])
        let counts = RunSummary.FileCounts(t, skipped: 0, notProcessed: 0)
        #expect(counts.written == 1 && counts.failed == 1)
        // report.json's entry and totals, read strictly, are the same.
        let fd = open(dir.path + "/out/report.json", O_RDONLY)
        defer { close(fd) }
        var outcomes: [FileReport.Outcome] = []
        let envelope = try ReportEnvelope.read(fd, name: "report.json", entry: { outcomes.append(try FileReport(reportJSON: $0).outcome) })
        #expect(outcomes == [.failed, .written])
        #expect(envelope.totals == t && envelope.shard == nil)
    }

    /// Totals whose outcomes do not add up to the files are not a report's (a hand-edited part or report).
    @Test func totalsWhoseOutcomesDoNotAddUpAreRefused() throws {
        var totals = BatchReport.Totals()
        totals.files = 2; totals.written = 2; totals.failed = 1
        #expect(throws: ReportError.self) { try BatchReport.Totals(reportJSON: totals.reportJSON) }
        totals.files = 3; totals.kept = 3
        #expect(throws: ReportError.self) { try BatchReport.Totals(reportJSON: totals.reportJSON) }
        totals.kept = 2
        #expect(try BatchReport.Totals(reportJSON: totals.reportJSON) == totals)
    }
}
