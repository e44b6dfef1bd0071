import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct BatchRunnerTests {
    @Test func aBadFileDoesNotStopTheRestAndOrderIsStable() async throws {
        let dir = try TemporaryFolder()
        for i in 0..<12 { try dir.write("in/s\(i % 3)/ep\(i).srt", sampleSRT) }
        try dir.write("in/s1/broken.srt", "")
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        var reports: [String] = []
        for jobs in [1, 4] {
            try? FileManager.default.removeItem(atPath: dir.path + "/out")
            let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"), jobs: jobs)
            let result = await runner.run(plan)
            #expect(result.report.files.count == 13)
            #expect(result.report.totals.written == 12)
            #expect(result.report.totals.failed == 1)
            reports.append(try String(contentsOfFile: dir.path + "/out/report.json", encoding: .utf8))
            #expect(FileManager.default.fileExists(atPath: dir.path + "/out/s1/broken.srt.assistant.json"))
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/out/s1/broken.srt"))
            #expect(FileManager.default.fileExists(atPath: dir.path + "/out/s2/ep11.srt"))
        }
        #expect(reports[0] == reports[1])
        // Inputs are untouched.
        #expect(try String(contentsOfFile: dir.path + "/in/s0/ep0.srt", encoding: .utf8) == sampleSRT)
    }
}
