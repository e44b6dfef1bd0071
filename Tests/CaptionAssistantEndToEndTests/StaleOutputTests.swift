import Foundation
import Testing
import TestSupport

/// A `--resume` (or any run) into a folder where an earlier run wrote the same
/// inputs with another `--to` says which of its caption files are still there
/// and not in the new report (README: "Using it").
@Suite(.mayBlock) struct StaleOutputTests {
    @Test func anEarlierRunsOutputsWithAnotherToAreNamed() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket is ready.\n".utf8).write(to: input.appendingPathComponent("ep1.srt"))

        let first = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out"], in: scratch.url)
        #expect(first.status == 0)
        #expect(!first.stderrText.contains("earlier run"))

        let again = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--resume"], in: scratch.url)
        #expect(again.status == 0)
        #expect(!again.stderrText.contains("earlier run"), "the same options leave nothing stale: \(again.stderrText)")

        let converted = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--resume", "--to", "vtt"], in: scratch.url)
        #expect(converted.status == 0)
        #expect(converted.stderrText.contains("warning: 1 caption file of an earlier run with other options (another --to) is still in out and not in this run's report: out/ep1.srt"),
                "\(converted.stderrText)")
        // Never deleted: the output folder is the user's.
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/ep1.srt").path))
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/ep1.vtt").path))
    }

    @Test func quietStillPrintsAnErrorForAMissingInput() throws {
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["-test-fake-assistant", "nonexistent", "-o", "out", "--quiet"], in: scratch.url)
        #expect(run.status == 66)
        #expect(run.stderrText == "caption-assistant: nonexistent: no such file or folder: nonexistent\n")
    }
}
