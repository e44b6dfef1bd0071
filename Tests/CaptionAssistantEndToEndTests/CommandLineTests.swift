import Foundation
import Testing
import TestSupport

/// The executable's contract: help, version, exit statuses and messages.
@Suite(.mayBlock) struct CommandLineTests {
    @Test func helpListsEveryOptionWithASentence() throws {
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["--help"], in: scratch.url)
        #expect(run.status == 0)
        for option in ["-test-fake-assistant", "--model", "--endpoint", "--model-name", "--server-kind", "--request-timeout",
                       "--simulate-availability", "--max-characters", "--wait-for-model", "--require-model", "--jobs",
                       "--to", "--quiet", "--json", "--resume", "--output", "--help", "--version", "check"] {
            let line = run.stdoutText.split(separator: "\n").first { $0.contains(option) }
            #expect(line != nil, "--help does not mention \(option)")
        }
        #expect(run.stdoutText.contains("69"))
        for status in ["73", "130", "143"] {
            #expect(run.stdoutText.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(status + " ") },
                    "--help does not explain exit status \(status)")
        }
    }

    @Test func versionPrintsTheVersion() throws {
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["--version"], in: scratch.url)
        #expect(run.status == 0)
        // `caption-assistant 0.1.0 (commit unknown)`: the test build is not made by scripts/package.sh,
        // which alone tells a build its commit (scripts/package-e2e.sh checks the packaged one's).
        let words = run.stdoutText.split(separator: " ")
        #expect(words.first == "caption-assistant")
        #expect(words.dropFirst().first?.split(separator: ".").count == 3)
        #expect(run.stdoutText.hasSuffix(" (commit unknown)\n"))
    }

    @Test(arguments: [
        (["--frobnicate", "a.srt", "-o", "out"], "unknown option '--frobnicate'"),
        (["a.srt"], "no output folder"),
        (["-o", "out"], "no input given"),
        (["a.srt", "-o", "out", "--jobs", "zero"], "'--jobs' needs a whole number"),
        (["a.srt", "-o", "out", "--simulate-availability", "sunny"], "sunny"),
    ])
    func badUsageExits64WithAMessage(args: [String], message: String) throws {
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(args, in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stderrText.contains(message), "stderr: \(run.stderrText)")
        #expect(run.stderrText.contains("--help"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out").path))
    }

    @Test func outputInsideTheInputFolderIsRefused() throws {
        let scratch = try ScratchFolder()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("in"), withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8).write(to: scratch.url.appendingPathComponent("in/a.srt"))
        let run = try ExecutableRun.run(["in", "-o", "in/out"], in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stderrText.contains("inside the input folder"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("in/out").path))
    }

    @Test func aMissingInputExits66AndTheOthersAreStillWritten() throws {
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello rocket\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        let run = try ExecutableRun.run(["-test-fake-assistant", "a.srt", "missing.srt", "-o", "out"], in: scratch.url)
        #expect(run.status == 66)
        #expect(run.stderrText.contains("missing.srt"))
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/a.srt").path))
        let report = try String(contentsOf: scratch.url.appendingPathComponent("out/report.json"), encoding: .utf8)
        #expect(report.contains("\"input\": \"missing.srt\""))
        #expect(report.contains("no such file or folder"))
    }

    @Test func requireModelWithoutAModelExits69() throws {
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        for args in [["--model", "none"], ["-test-fake-assistant", "--simulate-availability", "modelNotReady"]] {
            let run = try ExecutableRun.run(args + ["--require-model", "a.srt", "-o", "out"], in: scratch.url)
            #expect(run.status == 69)
            #expect(run.stderrText.contains("unavailable"))
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out").path))
        }
        let fine = try ExecutableRun.run(["-test-fake-assistant", "--require-model", "a.srt", "-o", "out"], in: scratch.url)
        #expect(fine.status == 0)
    }

    @Test func checkShowsTheDiagnostics() throws {
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["check", "--json", "-test-fake-assistant", "--simulate-availability", "appleIntelligenceNotEnabled"], in: scratch.url)
        #expect(run.status == 69, "check fails when the model cannot answer; the JSON still says why")
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(json["backend"] as? String == "fake")
        #expect(json["availability"] as? String == "unavailable")
        #expect(json["reason"] as? String == "appleIntelligenceNotEnabled")
        #expect(json["offersSettings"] as? Bool == true)
        #expect((json["reasonRow"] as? String)?.isEmpty == false)
        #expect((json["remedy"] as? String)?.isEmpty == false)

        let available = try ExecutableRun.run(["check", "-test-fake-assistant"], in: scratch.url)
        #expect(available.status == 0)
        #expect(available.stdoutText.contains("availability: available"))
        let required = try ExecutableRun.run(["check", "--model", "none", "--require-model"], in: scratch.url)
        #expect(required.status == 69)
        #expect(required.stdoutText.contains("reason: "))
    }

    @Test func standardInputToStandardOutput() throws {
        let scratch = try ScratchFolder()
        let input = Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket and the rocket launch launch\n".utf8)
        let run = try ExecutableRun.run(["-test-fake-assistant", "-", "-o", "-"], in: scratch.url, input: input)
        #expect(run.status == 0)
        #expect(run.stdoutText == "1\n00:00:01,000 --> 00:00:02,000\nThe <b>rocket</b> and the <b>rocket</b> <b>launch</b> <b>launch</b> 🎬\n")
        #expect(run.stderrText.contains("1 file: 1 written"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    /// `- -o -` keeps the product: `--report FILE` holds the titles, emoji and
    /// reasons (report.json's format) while standard output holds the captions.
    @Test func aPipelineKeepsTheReport() throws {
        let scratch = try ScratchFolder()
        let input = Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket and the rocket launch launch\n".utf8)
        let run = try ExecutableRun.run(["-test-fake-assistant", "-", "-o", "-", "--report", "logs/run.json"], in: scratch.url, input: input)
        #expect(run.status == 0)
        #expect(run.stdoutText == "1\n00:00:01,000 --> 00:00:02,000\nThe <b>rocket</b> and the <b>rocket</b> <b>launch</b> <b>launch</b> 🎬\n")
        #expect(run.stderrText.contains("report in logs/run.json"))
        let data = try Data(contentsOf: scratch.url.appendingPathComponent("logs/run.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect(files.first?["input"] as? String == "-")
        #expect(files.first?["output"] as? String == "-")
        let actions = try #require(files.first?["actions"] as? [[String: Any]])
        #expect(actions.map { $0["state"] as? String } == ["applied", "applied", "applied"])
        #expect(actions[1]["titles"] as? [String] == ["Highlights from the captions", "What this video covers", "The story in brief"])
        #expect(actions[2]["emoji"] as? String == "🎬")
        #expect((report["totals"] as? [String: Any])?["written"] as? Int == 1)
        // Nothing else was written beside it (no temporary name left).
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.appendingPathComponent("logs").path) == ["run.json"])
    }

    /// A file given through its folder and by its own path is processed once, and stderr says so.
    @Test func aFileGivenThroughItsFolderAndByItsPathIsProcessedOnce() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url.appendingPathComponent("dir")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8).write(to: folder.appendingPathComponent("a.srt"))
        let run = try ExecutableRun.run(["-test-fake-assistant", "dir", "dir/a.srt", "-o", "out"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.stderrText.contains("warning: dir/a.srt is given more than once (by its own path and inside a folder given too); it is processed once"), "\(run.stderrText)")
        #expect(run.stderrText.contains("1 file: 1 written"), "\(run.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/a.srt").path))
    }

    /// `--report -` writes the report to standard output; it made a file named `-`.
    @Test func aReportNamedDashGoesToStandardOutput() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket launch launch\n".utf8).write(to: folder.appendingPathComponent("a.srt"))
        let run = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--report", "-"], in: scratch.url)
        #expect(run.status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("-").path))
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText)")
        #expect((report["files"] as? [[String: Any]])?.first?["input"] as? String == "in/a.srt")
        #expect(run.stdout == (try Data(contentsOf: scratch.url.appendingPathComponent("out/report.json"))))
        #expect(run.stderrText.contains("report in out/report.json; report on standard output"))
        // Refused where standard output is already taken.
        let piped = try ExecutableRun.run(["-test-fake-assistant", "in/a.srt", "-o", "-", "--report", "-"], in: scratch.url)
        #expect(piped.status == 64)
        #expect(piped.stdout.isEmpty)
    }

    /// The report is never written into an input: inside an input folder, the run is refused before any work.
    @Test func theReportFileIsNeverInsideAnInput() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8).write(to: folder.appendingPathComponent("a.srt"))
        let run = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--report", "in/run.json"], in: scratch.url)
        #expect(run.status == 64)
        #expect(run.stderrText.contains("is inside the input folder in"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("run.json").path))
        let same = try ExecutableRun.run(["-test-fake-assistant", "in/a.srt", "-o", "-", "--report", "in/a.srt"], in: scratch.url)
        #expect(same.status == 64)
        #expect(try Data(contentsOf: folder.appendingPathComponent("a.srt")) == Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8))
    }

    /// The report never replaces an output of its own run: a caption or a
    /// sidecar named as the report file is refused before any work (it was
    /// written, then replaced by the report, with "1 written" and exit 0).
    @Test func theReportFileIsNeverAnOutputOfTheRun() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8).write(to: folder.appendingPathComponent("a.srt"))
        for name in ["out/a.srt", "out/a.srt.assistant.json", "./out/../out/a.srt"] {
            let run = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--report", name], in: scratch.url)
            #expect(run.status == 64, "\(name)")
            #expect(run.stderrText.contains("is the output a.srt"), "\(name)")
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/a.srt").path))
        }
        // The folder's own report.json is allowed: it holds the same report.
        let same = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", "out", "--report", "out/report.json"], in: scratch.url)
        #expect(same.status == 0)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("out/a.srt")).starts(with: Data("1\n".utf8)))
    }

    /// A report file that is a symbolic link is written through it (the link
    /// stays, the file it names gets the report), and one that is not a
    /// regular file (a pipe, `/dev/stdout`) is written into: it was replaced
    /// by a regular file, which for `--report /dev/stdout` run as root
    /// replaced the system's `/dev/stdout` link.
    @Test func theReportFileIsWrittenThroughALinkOrAPipe() throws {
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        let fm = FileManager.default
        try fm.createDirectory(at: scratch.url.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: scratch.url.appendingPathComponent("latest.json").path, withDestinationPath: "logs/run.json")
        let linked = try ExecutableRun.run(["-test-fake-assistant", "a.srt", "-o", "out", "--report", "latest.json"], in: scratch.url)
        #expect(linked.status == 0)
        #expect(try fm.destinationOfSymbolicLink(atPath: scratch.url.appendingPathComponent("latest.json").path) == "logs/run.json")
        let written = try Data(contentsOf: scratch.url.appendingPathComponent("logs/run.json"))
        #expect(String(decoding: written, as: UTF8.self).contains("\"schemaVersion\""))
        // A pipe: the report is read from it by another process, whole.
        let fifo = scratch.url.appendingPathComponent("report.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let piped = try ExecutableRun.run(["-test-fake-assistant", "a.srt", "-o", "out2", "--report", fifo], in: scratch.url)
        let read = pipe.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(piped.status == 0)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(read == (try Data(contentsOf: scratch.url.appendingPathComponent("out2/report.json"))))
    }
}
