import Foundation
import Testing
import TestSupport

/// SIGINT and SIGTERM in the middle of a batch: the files in flight are
/// finished, the report lists the rest as not processed, the exit status is
/// 130 or 143, and no partial file is left. `--resume` then finishes it.
@Suite(.mayBlock) struct SignalTests {
    static let arguments = ["-test-fake-assistant", "--jobs", "2", "in"]

    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func aSignalStopsTheBatchCleanly(signal: Int32, status: Int32, name: String) throws {
        let scratch = try ScratchFolder()
        try BatchCorpus.write(count: 300, to: scratch.url.appendingPathComponent("in"))
        let reference = try ExecutableRun.run(Self.arguments + ["--quiet", "-o", "reference"], in: scratch.url)
        let referenceFolder = scratch.url.appendingPathComponent("reference")

        let process = Process()
        process.executableURL = ExecutableRun.executable
        process.arguments = Self.arguments + ["-o", "out"]
        process.currentDirectoryURL = scratch.url
        let errURL = scratch.url.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try launch(process)
        let out = scratch.url.appendingPathComponent("out")
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline && filesUnder(out).count < 30 { usleep(1_000) }
        let wasRunning = process.isRunning
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try err.close()
        #expect(wasRunning, "the batch finished before the signal; make it larger")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        let stderr = try String(contentsOf: errURL, encoding: .utf8)
        #expect(stderr.contains("interrupted by \(name)"), "\(stderr)")
        #expect(stderr.contains("--resume"))

        let reportData = try Data(contentsOf: out.appendingPathComponent("report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: reportData) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.count == 301)
        let notProcessed = files.filter { ($0["error"] as? String)?.hasPrefix("not processed") == true }
        let written = files.filter { $0["output"] is String }
        #expect(!notProcessed.isEmpty)
        #expect(written.count >= 14)
        let processed = files.filter { ($0["error"] as? String)?.hasPrefix("not processed") != true }
        // Each entry is written, not processed, or the one empty file (with its own error).
        #expect(processed.allSatisfy { $0["output"] is String || ($0["input"] as? String) == "in/news/empty.srt" })
        for file in notProcessed {
            #expect(file["output"] is NSNull)
            let sidecar = ((file["input"] as? String ?? "").dropFirst("in/".count)) + ".assistant.json"
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(String(sidecar)).path))
        }
        // Every file there is complete and equals the reference's.
        for name in filesUnder(out) where name != "report.json" {
            #expect(!(name as NSString).lastPathComponent.hasPrefix("."), "temporary file \(name)")
            #expect(try Data(contentsOf: out.appendingPathComponent(name)) == (try? Data(contentsOf: referenceFolder.appendingPathComponent(name))),
                    "\(name) differs from the uninterrupted run's")
        }
        #expect(filesUnder(out).count == written.count + processed.count + 1)  // captions, sidecars, the report

        let resumed = try ExecutableRun.run(Self.arguments + ["--quiet", "-o", "out", "--resume"], in: scratch.url)
        #expect(resumed.status == reference.status)
        #expect(filesUnder(out) == filesUnder(referenceFolder))
        #expect(try Data(contentsOf: out.appendingPathComponent("report.json")) == Data(contentsOf: referenceFolder.appendingPathComponent("report.json")))
    }

    /// The first signal waits for the files in flight; a second one ends the
    /// run at once: status 130, no report, and still no partial file. (The
    /// file in flight here is standard input, which never ends, so only the
    /// second signal can end the run; had the first ended it, it would have
    /// written report.json.)
    @Test func aSecondSignalStopsAtOnce() throws {
        let scratch = try ScratchFolder()
        try BatchCorpus.write(count: 300, to: scratch.url.appendingPathComponent("in"))
        let process = Process()
        process.executableURL = ExecutableRun.executable
        process.arguments = ["-test-fake-assistant", "-test-announce-stop", "--jobs", "2", "--quiet", "-", "in", "-o", "out"]
        process.currentDirectoryURL = scratch.url
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try launch(process)
        let out = scratch.url.appendingPathComponent("out")
        // The batch has started (standard input, first in the plan, is in flight) once files of the folder are written.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline && filesUnder(out).count < 6 { usleep(1_000) }
        try #require(filesUnder(out).count >= 6, "the batch did not start")
        kill(process.processIdentifier, SIGINT)
        // Sent again only once the run says it took the first.
        let said = waitForLine(on: errors, of: process) { $0.contains("SIGINT taken") }
        try #require(said != nil, "the run never said it took the first SIGINT")
        #expect(process.isRunning, "the first signal must wait for the file in flight")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 130)
        let names = filesUnder(out)
        #expect(!names.contains("report.json"))
        #expect(!names.isEmpty)
        for name in names {
            #expect(!(name as NSString).lastPathComponent.hasPrefix("."), "temporary file \(name)")
            if name.hasSuffix(".json") {
                #expect((try? JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(name)))) != nil, "\(name)")
            }
        }
    }
}

