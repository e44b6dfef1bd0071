import Foundation
import Testing
import TestSupport

/// Killing the process in the middle of a batch leaves no partial file:
/// every caption in the output folder is complete, and there are no
/// temporary files.
@Suite(.mayBlock) struct InterruptionTests {
    @Test func sigkillMidBatchLeavesOnlyCompleteFiles() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        var cues = ""
        for i in 1...150 {
            cues += "\(i)\n00:00:\(String(format: "%02d", i % 60)),000 --> 00:00:\(String(format: "%02d", i % 60)),500\n"
            cues += "The rocket launch number \(i) is a rocket launch like any other.\n\n"
        }
        cues += "151\n00:10:00,000 --> 00:10:01,000\nTHE END\n"
        let data = Data(cues.utf8)
        for i in 0..<3000 { try data.write(to: input.appendingPathComponent(String(format: "file%05d.srt", i))) }

        let process = Process()
        process.executableURL = ExecutableRun.executable
        process.arguments = ["-test-fake-assistant", "--quiet", "--jobs", "2", "in", "-o", "out"]
        process.currentDirectoryURL = scratch.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try launch(process)

        let out = scratch.url.appendingPathComponent("out")
        wait(for: "the batch's first 40 files", while: process) {
            ((try? FileManager.default.contentsOfDirectory(atPath: out.path))?.count ?? 0) >= 40
        }
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        waitForExit(process, "the batch killed mid-run")
        #expect(wasRunning, "the batch finished before it could be interrupted; make it larger")

        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(!names.isEmpty)
        for name in names {
            #expect(name.hasSuffix(".srt") || name.hasSuffix(".srt.assistant.json"), "unexpected file \(name)")
            #expect(!name.hasPrefix("."), "temporary file \(name) left behind")
            let bytes = try Data(contentsOf: out.appendingPathComponent(name))
            if name.hasSuffix(".srt") {
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text.hasSuffix("THE END 🎬\n"), "\(name) is incomplete")
                #expect(text.hasPrefix("1\n00:00:01,000"))
            } else {
                #expect((try? JSONSerialization.jsonObject(with: bytes)) != nil, "\(name) is not complete JSON")
            }
        }
        #expect(!names.contains("report.json"))
    }
}
