import Foundation
import Testing
import TestSupport

/// A real batch killed with SIGKILL at random points, several times, never
/// leaves a partial file; running the same command with `--resume` then
/// finishes it, and the output folder equals that of a run never killed,
/// byte for byte (report included).
@Suite(.mayBlock) struct KillAndResumeTests {
    static let arguments = ["-test-fake-assistant", "--quiet", "--jobs", "2", "in"]

    /// (Each run is waited on for at most `processLimit`; see there why no `.timeLimit`.)
    @Test func killedRunsResumeToTheSameFolder() throws {
        let scratch = try ScratchFolder()
        try BatchCorpus.write(count: 300, to: scratch.url.appendingPathComponent("in"))
        let reference = try ExecutableRun.run(Self.arguments + ["-o", "reference"], in: scratch.url)
        #expect(reference.status == 1)  // the one empty file
        let referenceFolder = scratch.url.appendingPathComponent("reference")
        let expected = filesUnder(referenceFolder)
        #expect(expected.count == 2 * 300 + 1 + 1)

        let out = scratch.url.appendingPathComponent("out")
        var killedMidBatch = 0
        var generator = SystemRandomNumberGenerator()
        for attempt in 0..<4 {
            let process = Process()
            process.executableURL = ExecutableRun.executable
            process.arguments = Self.arguments + ["-o", "out"] + (attempt == 0 ? [] : ["--resume"])
            process.currentDirectoryURL = scratch.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let before = filesUnder(out).count
            try launch(process)
            // A random point: after a random number of new files, or a random short time.
            let target = before + Int.random(in: 4...50, using: &generator)
            let deadline = Date().addingTimeInterval(Double.random(in: 0.05...1.5, using: &generator))
            while process.isRunning && Date() < deadline && filesUnder(out).count < target { usleep(1_000) }
            if process.isRunning { killedMidBatch += 1 }
            kill(process.processIdentifier, SIGKILL)
            waitForExit(process, "the batch killed at attempt \(attempt)")

            // Whatever is there is complete: each file equals the reference's, and nothing else is there.
            for name in filesUnder(out) {
                #expect(!(name as NSString).lastPathComponent.hasPrefix("."), "temporary file \(name) left after kill \(attempt)")
                let actual = try Data(contentsOf: out.appendingPathComponent(name))
                if name.hasSuffix(".json") {
                    #expect((try? JSONSerialization.jsonObject(with: actual)) != nil, "\(name) is not complete JSON after kill \(attempt)")
                }
                if name == "report.json" { continue }  // only there if a run finished before the kill
                #expect(expected.contains(name), "unexpected file \(name)")
                let wanted = try? Data(contentsOf: referenceFolder.appendingPathComponent(name))
                #expect(actual == wanted, "\(name) differs from the uninterrupted run's after kill \(attempt)")
            }
        }
        #expect(killedMidBatch >= 2, "the batch finished before most kills; make it larger")

        let finish = try ExecutableRun.run(Self.arguments + ["-o", "out", "--resume", "--json"], in: scratch.url)
        #expect(finish.status == reference.status)
        let summary = try JSONSerialization.jsonObject(with: finish.stdout) as? [String: Any]
        let skipped = summary?["skipped"] as? Int ?? -1
        #expect(skipped > 0 && skipped <= 300, "skipped \(skipped)")
        #expect(filesUnder(out) == expected)
        for name in expected {
            let a = try Data(contentsOf: out.appendingPathComponent(name))
            let b = try Data(contentsOf: referenceFolder.appendingPathComponent(name))
            #expect(a == b, "\(name) differs from the uninterrupted run's:\n\(unifiedDiff(expected: referenceFolder.appendingPathComponent(name), actual: out.appendingPathComponent(name)))")
        }
    }
    /// A finished `--model none --fallback local` batch is complete for its options:
    /// `--resume` skips every file (an interrupted 100,000-file fallback batch does not start over).
    @Test func aFinishedFallbackBatchIsNotRedoneByResume() throws {
        let scratch = try ScratchFolder()
        try BatchCorpus.write(count: 20, to: scratch.url.appendingPathComponent("in"))
        let arguments = ["in", "-o", "out", "--model", "none", "--fallback", "local", "--quiet", "--jobs", "2"]
        let first = try ExecutableRun.run(arguments, in: scratch.url)
        #expect(first.status == 1)  // the one empty file
        let out = scratch.url.appendingPathComponent("out")
        let before = try filesUnder(out).map { try Data(contentsOf: out.appendingPathComponent($0)) }
        let again = try ExecutableRun.run(arguments.filter { $0 != "--quiet" } + ["--resume", "--json"], in: scratch.url)
        let summary = try #require(try JSONSerialization.jsonObject(with: again.stdout) as? [String: Any], "\(again.stderrText)")
        #expect(summary["skipped"] as? Int == 20, "\(again.stdoutText)")
        #expect(try filesUnder(out).map { try Data(contentsOf: out.appendingPathComponent($0)) } == before)
        // `--help` says what "complete" means.
        let help = try ExecutableRun.run(["--help"], in: scratch.url)
        #expect(help.stdoutText.contains("fallback runs included"), "\(help.stdoutText)")
    }
}
