import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant
import JSON

@Suite struct ReportSpoolTests {
    /// Reports with strings that JSON must escape (quotes, backslash, control
    /// characters, U+2028, a newline) and every shape of entry.
    static let reports: [FileReport] = {
        let info = Diagnostics(.modelNotReady)
        let ok = FileReport(input: "s1/a\u{2028}\"q\"\n.srt", output: "a", format: .srt, cues: 3,
                            warnings: [.init(line: 2, message: "tab\there\u{1}"), .init(line: nil, message: "two\nlines")],
                            transcript: TranscriptStats(characters: 5, sentCharacters: 5, truncated: false),
                            model: .init(backend: "fake", availability: .available),
                            actions: [ActionReport.applied(.keywords, keywords: ["é", "b\\"], occurrences: 4),
                                      ActionReport.applied(.titles, titles: ["x", "y", "z"]),
                                      ActionReport(id: .emoji, state: .failed, reason: "r")],
                            reasonRow: nil, error: nil)
        let unavailable = FileReport(input: "b", output: "b", format: .vtt, cues: 0, warnings: [], transcript: nil,
                                     model: .init(backend: "none", availability: .unavailable(ModelUnavailability(info))),
                                     actions: AssistantAction.allCases.map(ActionReport.disabled), reasonRow: info.reasonRow, error: nil)
        let bad = FileReport(input: "c", output: nil, format: nil, cues: nil, warnings: [], transcript: nil,
                             model: .init(backend: "fake", availability: nil),
                             actions: AssistantAction.allCases.map { ActionReport(id: $0, state: .failed, reason: "x") },
                             reasonRow: "r", error: "e")
        return [ok, unavailable, bad]
    }()

    /// Entries added out of order, through a buffer far smaller than one entry
    /// (so most are read back from the scratch file), in memory, and with the
    /// default buffer: `report.json` is always the report rendered whole.
    @Test(arguments: [(true, 7), (true, 4096), (true, 20_000), (true, 1 << 20), (false, 7)])
    func reportJSONStreamedFromTheSpoolIsTheReportRendered(scratchFile: Bool, bufferSize: Int) throws {
        let dir = try TemporaryFolder()
        let folder = try OutputFolder(path: dir.path + "/out")
        let files = (0..<40).map { Self.reports[$0 % Self.reports.count] }
        let spool = ReportSpool(count: files.count, folder: folder, scratchFile: scratchFile, bufferSize: bufferSize)
        #expect(spool.usesScratchFile == scratchFile)
        var order = Array(files.indices)
        var generator = SHA256Tests.Generator(state: 7)
        order.shuffle(using: &generator)
        for index in order {
            spool.add(JSONStreamWriter.element(files[index].json), at: index)
        }
        #expect(files.indices.allSatisfy(spool.has))
        let report = WholeReport(files: files)
        try spool.write(to: "report.json", in: folder, envelope: ReportEnvelope(totals: try report.totals))
        let written = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/report.json"))
        #expect(try Array(written) == report.renderedBytes())
        // No scratch file is left behind in the output folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/out") == ["report.json"])
    }

    @Test func anEmptyBatchStreamsTheEmptyReport() throws {
        let dir = try TemporaryFolder()
        let folder = try OutputFolder(path: dir.path + "/out")
        try ReportSpool(count: 0, folder: folder).write(to: "report.json", in: folder, envelope: ReportEnvelope())
        let written = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/report.json"))
        #expect(try Array(written) == WholeReport(files: []).renderedBytes())
    }

    /// The runner's `report.json` (spooled) equals the report of the files it
    /// kept, rendered whole, with several jobs finishing out of order.
    @Test func theBatchRunnersReportIsItsFilesRenderedInPlanOrder() async throws {
        let dir = try TemporaryFolder()
        for i in 0..<30 { try dir.write("in/s\(i % 4)/ep\(i).srt", sampleSRT) }
        try dir.write("in/s1/broken.srt", "")
        try dir.write("in/s2/latin1.srt", "1\n00:00:01,000 --> 00:00:02,000\nCaf\u{e9} \"quoted\"\n")
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let result = await BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()),
                                       destination: .folder(dir.path + "/out"), jobs: 4, keepsReports: true).run(plan)
        #expect(result.files.map(\.input) == plan.items.map(\.input))
        let written = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/report.json"))
        #expect(try Array(written) == WholeReport(files: result.files).renderedBytes())
        #expect(try result.summary == BatchSummary(result.files))
        #expect(result.summary.failures.map(\.input) == [dir.path + "/in/s1/broken.srt"])
    }

    @Test func withoutKeepsReportsTheRunnerHoldsNoReports() async throws {
        let dir = try TemporaryFolder()
        for i in 0..<5 { try dir.write("in/ep\(i).srt", sampleSRT) }
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let result = await BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()),
                                       destination: .folder(dir.path + "/out"), jobs: 2).run(plan)
        #expect(result.files.isEmpty)
        #expect(result.summary.totals.files == 5 && result.summary.totals.written == 5)
        let report = try #require(JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/report.json")))))
        #expect(report["totals"]?["written"] == .int(5))
    }
}

@Suite struct BatchCollectorTests {
    /// Files finish in any order; the command line lists failures in plan order.
    @Test func failuresComeOutInPlanOrderWhateverOrderFilesFinish() {
        let processor = FileProcessor(configuration: fakeConfiguration())
        let collector = BatchRunner.Collector(count: 10, keepsReports: false, progress: nil)
        for index in [7, 2, 9, 0, 5] {
            collector.record(BatchRunner.Handled(report: processor.failure(input: "f\(index)", error: "e\(index)")), at: index)
        }
        let (summary, _, _, started, uncounted) = collector.finish()
        #expect(uncounted == nil)
        #expect(summary.failures.map(\.input) == ["f0", "f2", "f5", "f7", "f9"])
        #expect(summary.failures.map(\.error) == ["e0", "e2", "e5", "e7", "e9"])
        #expect(started.enumerated().filter(\.element).map(\.offset) == [0, 2, 5, 7, 9])
    }
}
