import Foundation
import Testing
import TestSupport

/// Paths an attacker or a clumsy user gives: short output names, FIFOs,
/// names that collide with the reports, long and non-UTF-8 names.
@Suite(.mayBlock) struct AdversarialPathTests {
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

    /// Runs the executable, killing it (and failing) if it has not ended
    /// after `limit` seconds: a hang must fail the test, not stall the suite.
    static func runBounded(_ arguments: [String], in directory: URL, limit: TimeInterval = processLimit) throws -> ExecutableRun? {
        let process = Process()
        process.executableURL = ExecutableRun.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errURL = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try launch(process)
        let exited = waitForExit(process, limit: limit, "caption-assistant " + arguments.joined(separator: " "))
        try err.close()
        if !exited { return nil }
        return ExecutableRun(status: process.terminationStatus, stdout: Data(), stderr: try Data(contentsOf: errURL))
    }

    /// A file name holding terminal controls (an OSC 52 "set the clipboard", a bell) is
    /// shown escaped on standard error, never sent to the terminal as it is (as `ls` quotes it).
    @Test func aFileNameWithTerminalControlsIsShownEscaped() throws {
        let scratch = try ScratchFolder()
        let name = "x\u{1B}]52;c;ZXZpbA==\u{07}y.srt"
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("in"), withIntermediateDirectories: true)
        try Data("not captions".utf8).write(to: scratch.url.appendingPathComponent("in/" + name))
        let run = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(run.status == 1)
        #expect(!run.stderr.contains(0x1B) && !run.stderr.contains(0x07), "\(run.stderrText)")
        #expect(run.stderrText.contains("in/x\\x1B]52;c;ZXZpbA==\\x07y.srt: "), "\(run.stderrText)")
    }

    /// A file name holding a line feed, a tab and a whole fake summary line cannot print that
    /// line on its own (issue 31): the failure when it happens and the end-of-run list keep it on
    /// the line they belong to, escaped; the only line that starts with a file count is the real
    /// summary. A bidirectional override in a name is escaped too, so the line displays in the
    /// order it is written.
    @Test func aFileNameCannotForgeALineOfOutput() throws {
        let scratch = try ScratchFolder()
        let forged = "x\n3 files: 3 written, 0 failed\tok\u{202E}crs.srt"
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("in"), withIntermediateDirectories: true)
        try Data("not captions".utf8).write(to: scratch.url.appendingPathComponent("in/" + forged))
        let run = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(run.status == 1)
        let lines = run.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
        let summaries = lines.filter { $0.wholeMatch(of: /(caption-assistant: )?\d+ files?: .*/) != nil }
        #expect(summaries.count == 1, "\(run.stderrText)")
        #expect(summaries.first?.hasPrefix("caption-assistant: 1 file: 0 written, 1 failed") == true, "\(run.stderrText)")
        #expect(!run.stderrText.contains("\t") && !run.stderrText.contains("\u{202E}"), "\(run.stderrText)")
        // Said twice (when it failed, and in the end-of-run list), each time on its line.
        let shown = "in/x\\x0A3 files: 3 written, 0 failed\\x09ok\\u{202E}crs.srt: "
        #expect(lines.filter { $0.contains(shown) }.count == 2, "\(run.stderrText)")
    }

    @Test func aFIFOOrALinkToOneIsRefusedNotWaitedOn() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try Self.srt.write(to: input.appendingPathComponent("good.srt"))
        #expect(mkfifo(input.appendingPathComponent("pipe").path, 0o600) == 0)
        #expect(mkfifo(input.appendingPathComponent("plain.vtt").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: input.appendingPathComponent("x.srt").path, withDestinationPath: "pipe")
        try FileManager.default.createSymbolicLink(atPath: input.appendingPathComponent("x.xml").path, withDestinationPath: "pipe")
        #expect(mkfifo(scratch.url.appendingPathComponent("named.srt").path, 0o600) == 0)
        let run = try #require(try Self.runBounded(["in", "named.srt", "-o", "out", "--model", "none"], in: scratch.url),
                               "the batch hung on a FIFO")
        #expect(run.status == 1, "stderr: \(run.stderrText)")
        let files = Self.files(try Self.report(scratch.url.appendingPathComponent("out")))
        let byInput = Dictionary(files.map { (($0["input"] as? String) ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byInput["in/good.srt"]?["error"] is NSNull)
        for name in ["in/x.srt", "in/plain.vtt", "named.srt"] {
            let error = byInput[name]?["error"] as? String
            #expect(error?.contains("FIFO") == true, "\(name): \(String(describing: error))")
        }
        // An `.xml` is only taken when its start reads as TTML: a FIFO has no start to read.
        #expect(byInput["in/x.xml"] == nil)
    }

    /// A FIFO planted in the output folder, under a shard part's name or a
    /// sidecar's, is refused by `merge`, `--resume` and `review`, never waited on.
    @Test func aFIFOInTheOutputFolderIsNeverWaitedOn() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try Self.srt.write(to: input.appendingPathComponent("a.srt"))
        try Self.srt.write(to: input.appendingPathComponent("b.srt"))
        let fake = ["-test-fake-assistant", "--quiet"]
        _ = try ExecutableRun.run(fake + ["in", "-o", "out", "--shard", "0/2"], in: scratch.url)
        #expect(mkfifo(scratch.url.appendingPathComponent("out/report.shard-1-of-2.json").path, 0o600) == 0)
        let merge = try #require(try Self.runBounded(["merge", "out"], in: scratch.url), "merge hung on a FIFO part")
        #expect(merge.status == 65, "\(merge.stderrText)")
        #expect(merge.stderrText.contains("not a regular file"), "\(merge.stderrText)")

        _ = try ExecutableRun.run(fake + ["in", "-o", "whole"], in: scratch.url)
        let sidecar = scratch.url.appendingPathComponent("whole/a.srt.assistant.json")
        try FileManager.default.removeItem(at: sidecar)
        #expect(mkfifo(sidecar.path, 0o600) == 0)
        let review = try #require(try Self.runBounded(["review", "whole", "--quiet"], in: scratch.url),
                                  "review hung on a FIFO sidecar")
        #expect(review.status == 0, "\(review.stderrText)")
        let resume = try #require(try Self.runBounded(fake + ["in", "-o", "whole", "--resume"], in: scratch.url),
                                  "--resume hung on a FIFO sidecar")
        #expect(resume.status == 0, "\(resume.stderrText)")
    }

    static let ttml = Data(#"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="1s">Hello rocket launch</p></div></body></tt>"#.utf8)

    @Test func anInputNamedReportJSONNeverOverwritesTheBatchReport() throws {
        let scratch = try ScratchFolder()
        try Self.ttml.write(to: scratch.url.appendingPathComponent("report.json"))
        try Self.srt.write(to: scratch.url.appendingPathComponent("a.srt"))
        let run = try ExecutableRun.run(["report.json", "a.srt", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(run.status == 1)
        let report = try Self.report(scratch.url.appendingPathComponent("out"))
        let files = Self.files(report)
        #expect(files.count == 2)
        let refused = try #require(files.first { $0["input"] as? String == "report.json" })
        #expect((refused["error"] as? String)?.contains("batch report") == true)
        #expect(refused["output"] is NSNull)
        #expect(run.stderrText.contains("report.json: its output report.json would take the name of the batch report"), "\(run.stderrText)")
    }

    /// A name that ends in `.assistant.json` is a sidecar's (`OwnedNames`): an input so named is refused
    /// whatever the order, and the caption whose sidecar it would be is written with its own.
    @Test(arguments: [["x.srt", "x.srt.assistant.json"], ["x.srt.assistant.json", "x.srt"]])
    func aCaptionAndAnInputNamedLikeItsSidecarDoNotOverwriteEachOther(order: [String]) throws {
        let scratch = try ScratchFolder()
        try Self.srt.write(to: scratch.url.appendingPathComponent("x.srt"))
        try Self.ttml.write(to: scratch.url.appendingPathComponent("x.srt.assistant.json"))
        let run = try ExecutableRun.run(order + ["-o", "out", "--model", "none"], in: scratch.url)
        #expect(run.status == 1)
        let files = Self.files(try Self.report(scratch.url.appendingPathComponent("out")))
        let written = files.filter { $0["error"] is NSNull }
        let refused = files.filter { $0["error"] is String }
        #expect(written.count == 1 && refused.count == 1)
        let error = refused.first?["error"] as? String ?? ""
        #expect(refused.first?["input"] as? String == "x.srt.assistant.json")
        #expect(error.contains("sidecar"), "\(error)")
        // What was written is one consistent pair: the caption and its own sidecar.
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.url.appendingPathComponent("out/x.srt.assistant.json"))) as? [String: Any]
        #expect(sidecar?["input"] as? String == "x.srt")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("out/x.srt")) == Self.srt)
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/x.srt.assistant.json.assistant.json").path))
    }

    @Test func severalInputFoldersAreMirroredUnderTheirOwnNames() throws {
        let scratch = try ScratchFolder()
        for folder in ["in", "in2", "deep/season1"] {
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Self.srt.write(to: scratch.url.appendingPathComponent(folder + "/rocket-launch.srt"))
        }
        try Self.srt.write(to: scratch.url.appendingPathComponent("alone.srt"))
        let run = try ExecutableRun.run(["in", "in2/", "deep/season1", "alone.srt", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderrText)")
        let outputs = Self.files(try Self.report(scratch.url.appendingPathComponent("out"))).compactMap { $0["output"] as? String }
        #expect(outputs == ["in/rocket-launch.srt", "in2/rocket-launch.srt", "season1/rocket-launch.srt", "alone.srt"])
        for output in outputs {
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/" + output).path))
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/" + output + ".assistant.json").path))
        }
        // One folder alone: its files at the top, as before.
        let single = try ExecutableRun.run(["in", "-o", "single", "--model", "none"], in: scratch.url)
        #expect(single.status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("single/rocket-launch.srt").path))
    }

    @Test func aCollisionNamesTheTwoRealInputs() throws {
        let scratch = try ScratchFolder()
        for folder in ["a/shows", "b/shows"] {
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Self.srt.write(to: scratch.url.appendingPathComponent(folder + "/ep1.srt"))
        }
        let run = try ExecutableRun.run(["a/shows", "b/shows", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(run.status == 1)
        let files = Self.files(try Self.report(scratch.url.appendingPathComponent("out")))
        let refused = try #require(files.first { $0["error"] is String })
        #expect(refused["input"] as? String == "b/shows/ep1.srt")
        let error = refused["error"] as? String ?? ""
        #expect(error.contains("a/shows/ep1.srt") && error.contains("shows/ep1.srt"), "\(error)")
        #expect((refused["actions"] as? [[String: Any]])?.allSatisfy { ($0["reason"] as? String)?.contains("could not be read") == false } == true)
        // The same folder twice is said to be that, not a clash with "another input".
        let twice = try ExecutableRun.run(["a/shows", "a/shows", "-o", "twice", "--model", "none"], in: scratch.url)
        #expect(twice.stderrText.contains("given more than once"), "\(twice.stderrText)")
        #expect(twice.status == 0, "a file given twice is processed once, not failed: \(twice.stderrText)")
        // A file given 5,000 times: one output, 20 warnings naming it and one line counting the rest.
        let many = try ExecutableRun.run(Array(repeating: "a/shows/ep1.srt", count: 5_000) + ["-o", "many", "--model", "none", "--quiet"],
                                         in: scratch.url)
        #expect(many.status == 0)
        let lines = many.stderrText.split(separator: "\n")
        #expect(lines.count == 21, "\(lines.prefix(3))")
        #expect(lines.last == "caption-assistant: warning: 4979 more inputs are given more than once; each file is processed once")
    }

    @Test func aLongNameIsReplacedOnASecondRunAndTooLongForASidecarIsAFailure() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // 235 bytes + ".srt": the output fits NAME_MAX, a temporary name built by appending to it would not.
        let long = String(repeating: "é", count: 100) + String(repeating: "b", count: 35) + ".srt"
        let tooLong = String(repeating: "c", count: 241) + ".srt"
        try Self.srt.write(to: input.appendingPathComponent(long))
        try Self.srt.write(to: input.appendingPathComponent(tooLong))
        let first = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(first.status == 1, "a file that could not be written with its sidecar must fail the run")
        let changed = Data("1\n00:00:01,000 --> 00:00:02,000\nChanged text\n".utf8)
        try changed.write(to: input.appendingPathComponent(long))
        let second = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(second.status == 1)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("out/" + long)) == changed, "the old output stayed")
        let files = Self.files(try Self.report(scratch.url.appendingPathComponent("out")))
        let refused = try #require(files.first { ($0["input"] as? String)?.hasSuffix(tooLong) == true })
        #expect((refused["error"] as? String)?.contains("too long") == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/" + tooLong).path),
                "a caption without its sidecar was written")
        #expect(second.stderrText.contains("too long"))
        // No temporary file is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.appendingPathComponent("out").path)
        #expect(!left.contains { $0.hasPrefix(".") }, "\(left)")
    }

    @Test func aSecondRunIntoTheSameOutputFolderIsRefusedAndNamesTheFirst() throws {
        let scratch = try ScratchFolder()
        try Self.srt.write(to: scratch.url.appendingPathComponent("a.srt"))
        // The first run reads standard input from a pipe this test holds open, so it stays in flight.
        let first = Process()
        first.executableURL = ExecutableRun.executable
        first.arguments = ["-", "-o", "out", "--model", "none", "--quiet"]
        first.currentDirectoryURL = scratch.url
        let input = Pipe()
        first.standardInput = input
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try launch(first)
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        let out = scratch.url.appendingPathComponent("out").path
        try #require(waitUntilLocked(out, by: first), "the first run never locked its output folder")
        let second = try ExecutableRun.run(["a.srt", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(second.status == 73)
        #expect(second.stderrText.contains("another caption-assistant run (pid \(first.processIdentifier))"), "\(second.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: out + "/a.srt"))
        try input.fileHandleForWriting.write(contentsOf: Self.srt)
        try input.fileHandleForWriting.close()
        waitForExit(first, "the first run")
        #expect(first.terminationStatus == 0)
        // Once it is done, the folder is free again, and no lock file is left in it.
        let third = try ExecutableRun.run(["a.srt", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(third.status == 0, "\(third.stderrText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.hasPrefix(".") })
    }

    /// Makes `in/` below `scratch` with a chain of `levels` folders named by
    /// `name(level)` and the file `deep.srt` at its bottom, one folder at a
    /// time (`openat`), as a path longer than `PATH_MAX` must be made.
    static func makeDeepInput(_ scratch: ScratchFolder, levels: Int, name: (Int) -> String) {
        var fd = open(scratch.url.path, O_RDONLY | O_DIRECTORY)
        #expect(mkdirat(fd, "in", 0o755) == 0)
        var next = openat(fd, "in", O_RDONLY | O_DIRECTORY)
        close(fd); fd = next
        for level in 0..<levels {
            #expect(mkdirat(fd, name(level), 0o755) == 0)
            next = openat(fd, name(level), O_RDONLY | O_DIRECTORY)
            close(fd); fd = next
        }
        let file = openat(fd, "deep.srt", O_WRONLY | O_CREAT, 0o644)
        _ = Self.srt.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file); close(fd)
    }

    /// Removes `scratch` with `rm -rf`: FileManager cannot remove a path past `PATH_MAX` (ScratchFolder's cleanup would leave it).
    static func removeDeep(_ scratch: ScratchFolder) {
        _ = try? Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", scratch.url.path]).waitUntilExit()
    }

    @Test func aFileDeeperThanPATH_MAXIsFoundReadAndWritten() throws {
        let scratch = try ScratchFolder()
        defer { Self.removeDeep(scratch) }
        // 20 folders of 250 bytes: a path of over 5,000 bytes.
        Self.makeDeepInput(scratch, levels: 20) { String(format: "d%02d", $0) + String(repeating: "x", count: 247) }
        let run = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderrText)")
        let files = Self.files(try Self.report(scratch.url.appendingPathComponent("out")))
        #expect(files.count == 1, "a file past PATH_MAX got no entry")
        #expect(files.first?["error"] is NSNull, "\(String(describing: files.first?["error"]))")
        #expect((files.first?["output"] as? String)?.hasSuffix("/deep.srt") == true)
    }

    /// Whether `strace` is here and may trace (a container can forbid `ptrace`).
    static let canTrace: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
              let probe = try? Process.run(URL(fileURLWithPath: "/usr/bin/strace"), arguments: ["-f", "-c", "-o", "/dev/null", "/bin/true"])
        else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// A file 1,200 folders down (a path of 13 KB): the search opens each
    /// folder once from the one above it, and the read and the writes walk
    /// down once each, so the `openat` calls grow with the depth, not with
    /// its square (each folder was reopened from the top: 720,000 calls here,
    /// 2.4 million at depth 3,000). Counted with `strace -c`, not timed.
    @Test(.enabled(if: canTrace, "needs strace and ptrace"))
    func aFolderTreeDeeperThanPATH_MAXIsSearchedWithOpensLinearInItsDepth() throws {
        let scratch = try ScratchFolder()
        defer { Self.removeDeep(scratch) }
        let levels = 1_200
        Self.makeDeepInput(scratch, levels: levels) { String(format: "level%05d", $0) }
        let summary = scratch.url.appendingPathComponent("strace.txt").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = ["-f", "-c", "-e", "trace=openat", "-o", summary, ExecutableRun.executable.path,
                             "in", "-o", "out", "--model", "none", "--quiet"]
        process.currentDirectoryURL = scratch.url
        process.standardInput = FileHandle.nullDevice
        try launch(process)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let files = Self.files(try Self.report(scratch.url.appendingPathComponent("out")))
        #expect(files.count == 1 && files.first?["error"] is NSNull, "\(files)")
        // "% time  seconds  usecs/call  calls  errors  syscall": the calls of the openat line.
        let table = try String(contentsOfFile: summary, encoding: .utf8)
        let line = try #require(table.split(separator: "\n").first { $0.hasSuffix(" openat") }, "\(table)")
        let fields = line.split(separator: " ")
        let calls = try #require(fields.count >= 5 ? Int(fields[3]) : nil, "\(line)")
        #expect(calls < 20 * levels, "\(calls) openat calls for a file \(levels) folders down")
    }

    @Test func namesAreBytesNotCanonicallyEquivalentStrings() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // NFC and NFD spellings of café.srt: two files on Linux, two outputs, no collision.
        try Self.srt.write(to: input.appendingPathComponent("caf\u{E9}.srt"))
        try Self.srt.write(to: input.appendingPathComponent("cafe\u{301}.srt"))
        // A Latin-1 name, and a file literally named with U+FFFD that must not be read in its place.
        let latin1 = Array(input.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".vtt".utf8)
        let latin1Text = Data("WEBVTT\n\n00:01.000 --> 00:02.000\nThe Latin-1 named file\n".utf8)
        let fd = open(latin1.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT, 0o644)
        #expect(fd >= 0)
        _ = latin1Text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try Data("WEBVTT\n\n00:01.000 --> 00:02.000\nThe replacement character file\n".utf8)
            .write(to: input.appendingPathComponent("caf\u{FFFD}.vtt"))
        let run = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderrText)")
        let files = Self.files(try Self.report(scratch.url.appendingPathComponent("out")))
        #expect(files.count == 4)
        let inputs = files.compactMap { $0["input"] as? String }
        #expect(Set(inputs.map { Array($0.utf8) }).count == 4, "two entries share one label: \(inputs)")
        // The Latin-1 name is read by its bytes; its output is named with the byte shown as \xE9.
        let latin1Entry = try #require(files.first { ($0["input"] as? String)?.hasSuffix("caf\\xE9.vtt") == true })
        #expect(latin1Entry["error"] is NSNull)
        #expect(latin1Entry["output"] as? String == "caf\\xE9.vtt")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("out/caf\\xE9.vtt")) == latin1Text)
        #expect(try String(contentsOf: scratch.url.appendingPathComponent("out/caf\u{FFFD}.vtt"), encoding: .utf8).contains("replacement character"))
        let written = files.filter { $0["error"] is NSNull }.compactMap { $0["output"] as? String }
        #expect(Set(written.map { Array($0.utf8) }) == Set(["caf\u{E9}.srt", "cafe\u{301}.srt", "caf\u{FFFD}.vtt", "caf\\xE9.vtt"].map { Array($0.utf8) }))
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.appendingPathComponent("out").path)
        #expect(names.filter { $0.hasSuffix(".srt") }.count == 2)
    }

    /// A file stuck in flight (here standard input that never ends) keeps the
    /// first stop waiting for it; a second signal gives up at once (130).
    @Test func aSecondSignalGivesUpOnAStuckFile() throws {
        let scratch = try ScratchFolder()
        let process = Process()
        process.executableURL = ExecutableRun.executable
        process.arguments = ["-test-announce-stop", "-", "-o", "out", "--model", "none", "--quiet"]
        process.currentDirectoryURL = scratch.url
        let input = Pipe()  // never written, never closed while the process runs
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try launch(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Wait until the batch has started (it holds the output folder's lock).
        let out = scratch.url.appendingPathComponent("out").path
        try #require(waitUntilLocked(out, by: process))
        kill(process.processIdentifier, SIGINT)
        // Sent again only once the run says it took the first (two signals
        // sent close together can arrive as one, which then waits for ever).
        let said = waitForLine(on: errors, of: process) { $0.contains("SIGINT taken") }
        try #require(said != nil, "the run never said it took the first SIGINT")
        #expect(process.isRunning, "the first signal must wait for the file in flight")
        kill(process.processIdentifier, SIGINT)
        #expect(waitForExit(process, "the run stuck on its input after a second SIGINT"),
                "a second SIGINT did not end a run stuck on its input")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        try input.fileHandleForWriting.close()
    }
}
