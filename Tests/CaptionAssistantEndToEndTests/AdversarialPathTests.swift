import Foundation
import Testing

/// Paths an attacker or a clumsy user gives: short output names, FIFOs,
/// names that collide with the reports, long and non-UTF-8 names.
@Suite struct AdversarialPathTests {
    static let srt = Data("1\n00:00:01,000 --> 00:00:02,000\nHello rocket launch\n".utf8)

    /// The report of an output folder, parsed.
    static func report(_ folder: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
    }

    static func files(_ report: [String: Any]) -> [[String: Any]] { report["files"] as? [[String: Any]] ?? [] }

    @Test(arguments: ["o", "x/out", "a/bc", "./o2", "p//q/"])
    func aShortMissingOutputFolderIsCreatedNotACrash(output: String) throws {
        let scratch = try ScratchFolder()
        try Self.srt.write(to: scratch.url.appendingPathComponent("a.srt"))
        let run = try ExecutableRun.run(["a.srt", "-o", output, "--model", "none", "--quiet"], in: scratch.url)
        #expect(run.status == 0, "stderr: \(run.stderrText)")
        let out = scratch.url.appendingPathComponent(output)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("a.srt").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path))
    }
}
