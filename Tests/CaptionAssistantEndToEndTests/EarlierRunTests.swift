import Foundation
import Testing
import TestSupport

/// What a user who runs the same command again sees: outputs an earlier run
/// made with the model are kept when this run's model gives nothing, and the
/// summary (text and `--json`) names them; every count follows each file's one outcome.
@Suite(.mayBlock) struct EarlierRunTests {
    static func samples(_ scratch: ScratchFolder) throws {
        let samples = ExecutableRun.packageRoot.appendingPathComponent("Samples")
        try FileManager.default.copyItem(at: samples, to: scratch.url.appendingPathComponent("in"))
    }

    static func json(_ run: ExecutableRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText)")
    }

    @Test func theSameCommandWithoutTheModelKeepsWhatTheModelGave() throws {
        let scratch = try ScratchFolder()
        try Self.samples(scratch)
        let first = try ExecutableRun.run(["in", "-o", "out", "-test-fake-assistant", "--quiet"], in: scratch.url)
        #expect(first.status == 0)
        let out = scratch.url.appendingPathComponent("out")
        let before = try filesUnder(out).filter { $0 != "report.json" }.map { try Data(contentsOf: out.appendingPathComponent($0)) }
        let again = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(try filesUnder(out).filter { $0 != "report.json" }.map { try Data(contentsOf: out.appendingPathComponent($0)) } == before)
        #expect(again.stderrText.contains("3 files: 0 written, 3 kept as an earlier run made them with the model, 0 failed"), "\(again.stderrText)")
        #expect(again.stderrText.contains("warning: 3 files kept the outputs an earlier run made with the model"), "\(again.stderrText)")
        #expect(again.stderrText.contains("modelTurnedOff") && again.stderrText.contains("--replace-model-results"))
        #expect(again.stderrText.contains("in/rocket-launch.srt"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let totals = report["totals"] as? [String: Any]
        #expect(totals?["kept"] as? Int == 3 && totals?["written"] as? Int == 3)
        let files = report["files"] as? [[String: Any]] ?? []
        let kept = files.first?["kept"] as? [String: Any]
        #expect((kept?["model"] as? [String: Any])?["reason"] as? String == "modelTurnedOff")

        let json = try Self.json(try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--json"], in: scratch.url))
        #expect(json["written"] as? Int == 0)
        let notes = json["kept"] as? [[String: Any]] ?? []
        #expect(notes.count == 3 && notes.allSatisfy { $0["because"] as? String == "modelTurnedOff" })
        #expect(notes.first?["input"] as? String == "in/risotto-night.vtt")

        let replaced = try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--replace-model-results", "--quiet"], in: scratch.url)
        #expect(replaced.status == 0)
        #expect(try Data(contentsOf: out.appendingPathComponent("rocket-launch.srt"))
                == Data(contentsOf: scratch.url.appendingPathComponent("in/rocket-launch.srt")))
    }

    @Test func aCaptionWhoseSidecarCannotBeWrittenIsNotCountedAsWritten() throws {
        let scratch = try ScratchFolder()
        try Self.samples(scratch)
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("out/rocket-launch.srt.assistant.json"),
                                                withIntermediateDirectories: true)
        let run = try ExecutableRun.run(["in/rocket-launch.srt", "-o", "out"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderrText.contains("1 file not written:"), "\(run.stderrText)")
        #expect(run.stderrText.contains("1 file: 0 written, 1 failed"), "\(run.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.url.appendingPathComponent("out/report.json"))) as? [String: Any])
        let totals = report["totals"] as? [String: Any]
        #expect(totals?["failed"] as? Int == 1 && totals?["written"] as? Int == 0)
        let json = try Self.json(try ExecutableRun.run(["in/rocket-launch.srt", "-o", "out", "--json", "--quiet"], in: scratch.url))
        #expect(json["written"] as? Int == 0 && json["failed"] as? Int == 1 && json["exitStatus"] as? Int == 1)
    }
}
