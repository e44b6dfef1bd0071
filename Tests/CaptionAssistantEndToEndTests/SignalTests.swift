import Foundation
import Testing
import TestSupport

/// SIGINT and SIGTERM in the middle of a batch: the files in flight are
/// finished, the report lists the rest as not processed, the exit status is
/// 130 or 143, and no partial file is left. `--resume` then finishes it.
@Suite(.mayBlock) struct SignalTests {
    static let arguments = ["-test-fake-assistant", "--jobs", "2", "in"]

    /// Launches the executable in `scratch` with `arguments`, its standard
    /// error going to `stderr.txt` there (closed by the caller once it ended).
    static func launchWritingStandardError(_ arguments: [String], in scratch: ScratchFolder) throws -> (Process, URL, FileHandle) {
        let process = Process()
        process.executableURL = ExecutableRun.executable
        process.arguments = arguments
        process.currentDirectoryURL = scratch.url
        let errURL = scratch.url.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try launch(process)
        return (process, errURL, err)
    }

    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func aSignalStopsTheBatchCleanly(signal: Int32, status: Int32, name: String) throws {
        let scratch = try ScratchFolder()
        try BatchCorpus.write(count: 300, to: scratch.url.appendingPathComponent("in"))
        let reference = try ExecutableRun.run(Self.arguments + ["--quiet", "-o", "reference"], in: scratch.url)
        let referenceFolder = scratch.url.appendingPathComponent("reference")

        let (process, errURL, err) = try Self.launchWritingStandardError(Self.arguments + ["-o", "out"], in: scratch)
        let out = scratch.url.appendingPathComponent("out")
        wait(for: "the batch's first 30 files", while: process) { filesUnder(out).count >= 30 }
        let wasRunning = process.isRunning
        kill(process.processIdentifier, signal)
        waitForExit(process, "the batch stopped by \(name)")
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
        wait(for: "the batch's first files", while: process) { filesUnder(out).count >= 6 }
        try #require(filesUnder(out).count >= 6, "the batch did not start")
        kill(process.processIdentifier, SIGINT)
        // Sent again only once the run says it took the first.
        let said = waitForLine(on: errors, of: process) { $0.contains("SIGINT taken") }
        try #require(said != nil, "the run never said it took the first SIGINT")
        #expect(process.isRunning, "the first signal must wait for the file in flight")
        kill(process.processIdentifier, SIGINT)
        waitForExit(process, "the batch after a second SIGINT")
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

    /// Ctrl-C while a file waits for a model that would answer only after a
    /// minute ends that request at once: the run exits 130 long before the
    /// answer could come, the file is listed as not processed with nothing
    /// written for it, and the file answered before is written. (The bound
    /// below is a guard against a hang, far above the time the run needs and
    /// far below the server's minute.)
    @Test func aSignalEndsAModelRequestInFlightAtOnce() throws {
        let models = #"{"object":"list","data":[{"id":"m","object":"model"}]}"#
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": .respond(200, models)
            case "/v1/chat/completions" where String(decoding: request.body, as: UTF8.self).contains("ocean"): .hang(seconds: 60)
            case "/v1/chat/completions": .completion(#"{"keywords":["rocket"],"titles":["One","Two","Three"],"emoji":"🚀"}"#)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
        defer { server.stop() }
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket launch was delayed.\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        try Data("1\n00:00:01,000 --> 00:00:02,000\nThe ocean tide came in.\n".utf8).write(to: scratch.url.appendingPathComponent("b.srt"))
        let (process, errURL, err) = try Self.launchWritingStandardError(
            ["a.srt", "b.srt", "-o", "out", "--jobs", "1", "--model", "http", "--endpoint", server.endpoint, "--server-kind", "llama-cpp-python"],
            in: scratch)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Signalled once the second file's request has reached the server (a state, not a time).
        let arrived = Date().addingTimeInterval(60)
        func waiting() -> Bool {
            server.requests(to: "/v1/chat/completions").contains { String(decoding: $0.body, as: UTF8.self).contains("ocean") }
        }
        while process.isRunning && Date() < arrived && !waiting() { usleep(2_000) }
        try #require(waiting(), "the second file's request never reached the server")
        kill(process.processIdentifier, SIGINT)
        let guardBound = Date().addingTimeInterval(30)
        while process.isRunning && Date() < guardBound { usleep(5_000) }
        #expect(!process.isRunning, "the run was still waiting for the model 30 s after SIGINT")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try err.close()
        let stderr = try String(contentsOf: errURL, encoding: .utf8)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("interrupted by SIGINT"), "\(stderr)")

        let out = scratch.url.appendingPathComponent("out")
        let reportData = try Data(contentsOf: out.appendingPathComponent("report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: reportData) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.map { $0["input"] as? String } == ["a.srt", "b.srt"])
        #expect(files.first?["output"] as? String == "a.srt")
        #expect((files.last?["error"] as? String)?.hasPrefix("not processed") == true, "\(files)")
        #expect(files.last?["output"] is NSNull)
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["notProcessed"] as? Int == 1)
        #expect(totals["written"] as? Int == 1)
        #expect(filesUnder(out) == ["a.srt", "a.srt.assistant.json", "report.json"])
        // One request for the second file: the stop did not turn into a retry.
        #expect(server.requests(to: "/v1/chat/completions").filter { String(decoding: $0.body, as: UTF8.self).contains("ocean") }.count == 1)
    }
}

