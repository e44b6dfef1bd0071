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

    /// A retried shard (an array task run again, as the README recommends) after `merge`
    /// recognises the outputs of its own run by the run's plan: `ep1.srt` and `ep1.vtt`
    /// share a stem, but the other shard's output is this run's, not an earlier one's.
    @Test func aRetriedShardWarnsOfNothingItsOwnRunWrote() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket is ready.\n".utf8).write(to: input.appendingPathComponent("ep1.srt"))
        try Data("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nThe rocket is ready.\n".utf8).write(to: input.appendingPathComponent("ep1.vtt"))
        for index in 0..<2 {
            let shard = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--shard", "\(index)/2"], in: scratch.url)
            #expect(shard.status == 0, "\(shard.stderrText)")
        }
        let merge = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(merge.status == 0, "\(merge.stderrText)")
        for index in 0..<2 {
            let retried = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--shard", "\(index)/2", "--resume"], in: scratch.url)
            #expect(retried.status == 0, "\(retried.stderrText)")
            #expect(!retried.stderrText.contains("earlier run"), "shard \(index): \(retried.stderrText)")
        }
    }

    @Test func quietStillPrintsAnErrorForAMissingInput() throws {
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["-test-fake-assistant", "nonexistent", "-o", "out", "--quiet"], in: scratch.url)
        #expect(run.status == 66)
        #expect(run.stderrText == "caption-assistant: nonexistent: no such file or folder: nonexistent\n")
    }
}
