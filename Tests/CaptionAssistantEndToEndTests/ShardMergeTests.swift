import Foundation
import Testing
import TestSupport

/// `process --shard` and `merge`: shards run in any order into one output
/// folder, merged, give the same bytes as one run; merge names what is missing.
@Suite(.mayBlock) struct ShardMergeTests {
    /// A corpus: the generated batch (three formats, one empty file) and the samples.
    static func corpus(_ scratch: ScratchFolder, count: Int = 60) throws {
        let input = scratch.url.appendingPathComponent("in")
        try BatchCorpus.write(count: count, cuesPerFile: 12, to: input)
        let samples = ExecutableRun.packageRoot.appendingPathComponent("Samples")
        try FileManager.default.createDirectory(at: input.appendingPathComponent("samples"), withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: samples.path) {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: input.appendingPathComponent("samples/" + name))
        }
    }

    /// Every file of `expected` is in `actual` with the same bytes, and nothing else is.
    static func expectSameFolder(_ expected: URL, _ actual: URL, _ comment: String) throws {
        let names = filesUnder(expected)
        #expect(filesUnder(actual) == names, "\(comment): the folders hold different files")
        for name in names {
            let a = try Data(contentsOf: expected.appendingPathComponent(name))
            let b = try? Data(contentsOf: actual.appendingPathComponent(name))
            #expect(a == b, "\(comment): \(name) differs:\n\(unifiedDiff(expected: expected.appendingPathComponent(name), actual: actual.appendingPathComponent(name)))")
        }
    }

    @Test(arguments: [["-test-fake-assistant"], ["--model", "none"], ["-test-fake-assistant", "--to", "vtt"]])
    func shardsInAnyOrderMergeToTheBytesOfOneRun(model: [String]) throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch)
        let single = try ExecutableRun.run(model + ["in", "-o", "single", "--quiet", "--jobs", "2"], in: scratch.url)
        #expect(single.status == 1)  // the empty file
        var files: [Int] = []
        for index in [2, 0, 3, 1] {
            let run = try ExecutableRun.run(model + ["in", "-o", "sharded", "--shard", "\(index)/4", "--json", "--jobs", "2"], in: scratch.url)
            let summary = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
            let shard = summary?["shard"] as? [String: Any]
            let shardIndex = shard?["index"] as? Int, shardCount = shard?["count"] as? Int, shardFiles = shard?["files"] as? Int
            let summaryFiles = summary?["files"] as? Int
            #expect(shardIndex == index)
            #expect(shardCount == 4)
            files.append(shardFiles ?? -1)
            #expect(summaryFiles == shardFiles)
            #expect(summary?["report"] as? String == "sharded/report.shard-\(index)-of-4.json")
            #expect(run.stderrText.contains("shard \(index)/4 ("), "\(run.stderrText)")
        }
        let total: Int = files.reduce(0, +)
        #expect(total == 64)  // 60 generated, the empty one, 3 samples
        #expect(files.allSatisfy { $0 > 0 })
        let merge = try ExecutableRun.run(["merge", "sharded"], in: scratch.url)
        #expect(merge.status == single.status, "\(merge.stderrText)")
        #expect(merge.stderrText.contains("merged 4 shards: 64 files"))
        try Self.expectSameFolder(scratch.url.appendingPathComponent("single"), scratch.url.appendingPathComponent("sharded"), "\(model)")
    }

    /// Four shards at once into one output folder (as an array job runs them):
    /// they create the same subfolders at the same time and never write one file.
    /// (Each run is waited on for at most `processLimit`; see there why no `.timeLimit`.)
    @Test func shardsRunningAtOnceShareTheOutputFolder() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch)
        _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "single", "--quiet"], in: scratch.url)
        var processes: [Process] = []
        for index in 0..<4 {
            let process = Process()
            process.executableURL = ExecutableRun.executable
            process.arguments = ["-test-fake-assistant", "in", "-o", "sharded", "--quiet", "--jobs", "2", "--shard", "\(index)/4"]
            process.currentDirectoryURL = scratch.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try launch(process)
            processes.append(process)
        }
        for (index, process) in processes.enumerated() { waitForExit(process, "shard \(index)/4") }
        let statuses = processes.map(\.terminationStatus)
        #expect(statuses.allSatisfy { $0 == 0 || $0 == 1 }, "\(statuses)")
        let merge = try ExecutableRun.run(["merge", "sharded", "--quiet"], in: scratch.url)
        #expect(merge.status == 1, "\(merge.stderrText)")
        try Self.expectSameFolder(scratch.url.appendingPathComponent("single"), scratch.url.appendingPathComponent("sharded"), "at once")
    }

    /// A Slurm array whose last task number is Int.max: a usage error naming
    /// the variable (exit 64), not an arithmetic overflow trap (exit 132).
    @Test func anArrayTaskNumberPastIntIsAUsageErrorNotACrash() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 2)
        let run = try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--shard", "auto"], in: scratch.url, environment: [
            "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "2",
            "SLURM_ARRAY_TASK_MAX": "9223372036854775807",
        ])
        #expect(run.status == 64, "\(run.stderrText)")
        #expect(run.stderrText.contains("SLURM_ARRAY_TASK_MAX is too big"), "\(run.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out").path))
    }

    @Test func aMissingInputMakesMergeExitAsTheSingleRunDoes() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 6)
        let arguments = ["-test-fake-assistant", "in", "not-there.srt", "--quiet"]
        let single = try ExecutableRun.run(arguments + ["-o", "single"], in: scratch.url)
        #expect(single.status == 66)
        for index in 0..<3 { _ = try ExecutableRun.run(arguments + ["-o", "sharded", "--shard", "\(index)/3"], in: scratch.url) }
        let merge = try ExecutableRun.run(["merge", "sharded", "--quiet"], in: scratch.url)
        #expect(merge.status == 66)
        try Self.expectSameFolder(scratch.url.appendingPathComponent("single"), scratch.url.appendingPathComponent("sharded"), "missing input")
    }

    @Test func moreShardsThanFilesStillMerge() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 3)
        _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "single", "--quiet"], in: scratch.url)
        for index in 0..<10 {
            let run = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "sharded", "--quiet", "--shard", "\(index)/10"], in: scratch.url)
            #expect(run.status == 0 || run.status == 1)
        }
        let merge = try ExecutableRun.run(["merge", "sharded", "--quiet"], in: scratch.url)
        #expect(merge.status == 1)
        try Self.expectSameFolder(scratch.url.appendingPathComponent("single"), scratch.url.appendingPathComponent("sharded"), "10 shards")
    }

    @Test func mergeNamesTheMissingShardsAndWritesNothing() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 12)
        for index in [0, 2] {
            _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--quiet", "--shard", "\(index)/4"], in: scratch.url)
        }
        let merge = try ExecutableRun.run(["merge", "out", "--json"], in: scratch.url)
        #expect(merge.status == 75)
        #expect(merge.stderrText.contains("2 of 4 shards have no report part: 1, 3"), "\(merge.stderrText)")
        let summary = try JSONSerialization.jsonObject(with: merge.stdout) as? [String: Any]
        #expect(summary?["missing"] as? [Int] == [1, 3])
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/report.json").path))
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/report.shard-0-of-4.json").path))

        let empty = try ExecutableRun.run(["merge", "in"], in: scratch.url)
        #expect(empty.status == 66)
    }

    @Test func mergeRefusesPartsOfDifferentRuns() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 12)
        _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--quiet", "--shard", "0/2"], in: scratch.url)
        _ = try ExecutableRun.run(["--model", "none", "in", "-o", "out", "--quiet", "--shard", "1/2"], in: scratch.url)
        let options = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(options.status == 65)
        #expect(options.stderrText.contains("different options"), "\(options.stderrText)")

        _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out2", "--quiet", "--shard", "0/2"], in: scratch.url)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nA new file appeared\n".utf8).write(to: scratch.url.appendingPathComponent("in/news/new.srt"))
        _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out2", "--quiet", "--shard", "1/2"], in: scratch.url)
        let inputs = try ExecutableRun.run(["merge", "out2"], in: scratch.url)
        #expect(inputs.status == 65)
        #expect(inputs.stderrText.contains("different set of inputs"), "\(inputs.stderrText)")
    }

    @Test func aTruncatedPartIsRefusedAndKeepPartsKeepsThem() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 12)
        for index in 0..<2 {
            _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--quiet", "--shard", "\(index)/2"], in: scratch.url)
        }
        let part = scratch.url.appendingPathComponent("out/report.shard-1-of-2.json")
        let whole = try Data(contentsOf: part)
        try whole.prefix(whole.count - 40).write(to: part)
        let damaged = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(damaged.status == 65)
        #expect(damaged.stderrText.contains("report.shard-1-of-2.json is not a complete report part"), "\(damaged.stderrText)")
        try whole.write(to: part)
        let kept = try ExecutableRun.run(["merge", "out", "--keep-parts", "--quiet"], in: scratch.url)
        #expect(kept.status == 1)
        #expect(FileManager.default.fileExists(atPath: part.path))
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/report.json").path))
    }

    /// Two different sharded runs into one folder at once: the second is refused (73) as a
    /// second plain run is, while a shard of the first run's own still shares it; merge then
    /// gives the first run's report.
    @Test(.timeLimit(.minutes(3)))
    func aShardOfAnotherRunIsRefusedWhileShardsWrite() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 12)
        let model = ["-test-fake-assistant"]
        let process = Process()
        process.executableURL = ExecutableRun.executable
        process.arguments = model + ["-test-fake-assistant-delay", "700", "--jobs", "1", "in", "-o", "out", "--quiet", "--shard", "0/2"]
        process.currentDirectoryURL = scratch.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try launch(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Wait until the shard holds the folder (its lock excludes an exclusive one).
        let out = scratch.url.appendingPathComponent("out").path
        try #require(waitUntilLocked(out, by: process))
        for other in [["--model", "none", "--shard", "1/2"], model + ["--shard", "1/3"]] {
            let refused = try ExecutableRun.run(other + ["in", "-o", "out", "--quiet"], in: scratch.url)
            #expect(refused.status == 73, "\(other): \(refused.stderrText)")
            #expect(refused.stderrText.contains("the shards of another sharded run"), "\(refused.stderrText)")
        }
        #expect(process.isRunning, "the first shard ended before the others were tried")
        let sameRun = try ExecutableRun.run(model + ["in", "-o", "out", "--quiet", "--shard", "1/2"], in: scratch.url)
        #expect(sameRun.status == 0 || sameRun.status == 1, "\(sameRun.stderrText)")
        process.waitUntilExit()
        let merge = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(merge.status == 1, "\(merge.stderrText)")  // the empty file of the corpus
        _ = try ExecutableRun.run(model + ["in", "-o", "single", "--quiet"], in: scratch.url)
        try Self.expectSameFolder(scratch.url.appendingPathComponent("single"), scratch.url.appendingPathComponent("out"), "one run's shards")
    }

    /// Untrusted numbers: a part whose totals say `"cues": 9223372036854775807`, and a
    /// report.json whose entries' counts cannot be added, exit 65 naming the file and the value
    /// (never "arithmetic overflow", exit 132).
    @Test func hugeCountsInAPartOrAReportExit65AndNeverTrap() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 4)
        for index in 0..<2 {
            _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--quiet", "--shard", "\(index)/2"], in: scratch.url)
        }
        let part = scratch.url.appendingPathComponent("out/report.shard-1-of-2.json")
        let text = try String(contentsOf: part, encoding: .utf8)
        let totals = try #require(text.range(of: "\"totals\": {"))
        var edited = text
        edited.replaceSubrange(totals.upperBound..<text.endIndex,
                               with: text[totals.upperBound...].replacing(#/"cues": [0-9]+/#, with: "\"cues\": 9223372036854775807", maxReplacements: 1))
        try Data(edited.utf8).write(to: part)
        let merge = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(merge.status == 65, "\(merge.stderrText)")
        #expect(merge.stderrText.contains("report.shard-1-of-2.json is not a complete report part"), "\(merge.stderrText)")

        _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "whole", "--quiet"], in: scratch.url)
        let report = scratch.url.appendingPathComponent("whole/report.json")
        let huge = try String(contentsOf: report, encoding: .utf8).replacing(#/"cues": [0-9]+,/#, with: "\"cues\": 9223372036854775807,")
        try Data(huge.utf8).write(to: report)
        let review = try ExecutableRun.run(["review", "whole"], in: scratch.url)
        #expect(review.status == 65, "\(review.stderrText)")
        #expect(review.stderrText.contains("cues is too large to add"), "\(review.stderrText)")
    }

    /// The case: 20 bytes overwritten in the middle of a part, inside a title (it still
    /// reads as JSON). merge exits 65 naming the part, and writes and removes nothing.
    @Test func aPartWithTwentyBytesOverwrittenExits65AndNothingIsWrittenOrRemoved() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 12)
        for index in 0..<2 {
            _ = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--quiet", "--shard", "\(index)/2"], in: scratch.url)
        }
        let out = scratch.url.appendingPathComponent("out")
        let before = filesUnder(out)
        let part = out.appendingPathComponent("report.shard-0-of-2.json")
        var bytes = try Data(contentsOf: part)
        let title = try #require(bytes.range(of: Data("\"titles\": [\"".utf8), in: bytes.count / 2..<bytes.count))
        bytes.replaceSubrange(title.upperBound..<title.upperBound + 20, with: Data("ABCDEFGHIJKLMNOPQRST".utf8))
        try bytes.write(to: part)
        let merge = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(merge.status == 65)
        #expect(merge.stderrText.contains("report.shard-0-of-2.json is not a complete report part"), "\(merge.stderrText)")
        #expect(filesUnder(out) == before)
    }

    /// An input named like a report part (a file named alone is read whatever its extension) is
    /// refused by every shard, so no shard writes it, no part overwrites it and merge removes nothing of it.
    @Test func aCaptionNamedLikeAReportPartIsRefusedNotLost() throws {
        let scratch = try ScratchFolder()
        let srt = Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket launch\n".utf8)
        try srt.write(to: scratch.url.appendingPathComponent("report.shard-1-of-2.json"))
        try srt.write(to: scratch.url.appendingPathComponent("a.srt"))
        for index in 0..<2 {
            let run = try ExecutableRun.run(["a.srt", "report.shard-1-of-2.json", "-o", "out", "--shard", "\(index)/2", "--model", "none"],
                                            in: scratch.url)
            #expect(run.status == (index == 1 ? 1 : 0), "\(run.stderrText)")
        }
        let merge = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(merge.status == 1, "\(merge.stderrText)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("report.shard-1-of-2.json")) == srt)
        #expect(filesUnder(scratch.url.appendingPathComponent("out")) == ["a.srt", "a.srt.assistant.json", "report.json"])
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.url.appendingPathComponent("out/report.json"))) as? [String: Any]
        let files = report?["files"] as? [[String: Any]] ?? []
        #expect((files.last?["error"] as? String)?.contains("a report part of a sharded run") == true)
    }

    /// A shard killed (SIGKILL: no part) or stopped (SIGTERM: a part that says
    /// so) is finished by running it again with `--resume`; the merge then
    /// equals one run. The stop comes once the shard has written files (its
    /// signal handling is in place by then), however long a loaded machine
    /// takes to get there; each run is waited on for at most `processLimit`
    /// (see there why no `.timeLimit`).
    @Test func aKilledShardIsFinishedWithResume() throws {
        let scratch = try ScratchFolder()
        try Self.corpus(scratch, count: 40)
        let model = ["-test-fake-assistant"]
        _ = try ExecutableRun.run(model + ["in", "-o", "single", "--quiet"], in: scratch.url)
        _ = try ExecutableRun.run(model + ["in", "-o", "out", "--quiet", "--shard", "0/2"], in: scratch.url)
        let out = scratch.url.appendingPathComponent("out")

        for (signal, expectedMerge) in [(SIGKILL, "have no report part: 1"), (SIGTERM, "were stopped before the end: 1")] {
            let process = Process()
            process.executableURL = ExecutableRun.executable
            process.arguments = model + ["-test-fake-assistant-delay", "100", "--jobs", "1", "in", "-o", "out", "--quiet",
                                         "--shard", "1/2", "--resume"]
            process.currentDirectoryURL = scratch.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let before = filesUnder(out).count
            try launch(process)
            wait(for: "the shard's first files", while: process) { filesUnder(out).count >= before + 4 }
            #expect(process.isRunning, "the shard finished before it could be stopped")
            kill(process.processIdentifier, signal)
            waitForExit(process, "the shard stopped by signal \(signal)")
            let merge = try ExecutableRun.run(["merge", "out"], in: scratch.url)
            #expect(merge.status == 75)
            #expect(merge.stderrText.contains(expectedMerge), "\(merge.stderrText)")
        }
        let resumed = try ExecutableRun.run(model + ["in", "-o", "out", "--shard", "1/2", "--resume", "--json"], in: scratch.url)
        let summary = try JSONSerialization.jsonObject(with: resumed.stdout) as? [String: Any]
        #expect((summary?["skipped"] as? Int ?? 0) > 0)
        let merge = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(merge.status == 1, "\(merge.stderrText)")
        try Self.expectSameFolder(scratch.url.appendingPathComponent("single"), out, "killed and resumed")
    }
}
