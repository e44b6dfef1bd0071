import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A SIGINT or SIGTERM that comes before the Swift code has started (while
/// the libraries load) still stops the batch cleanly: a report, status
/// 130/143, never a process killed with nothing written.
@Suite(.mayBlock) struct EarlySignalTests {
    /// Starts the executable with the signal blocked and already pending
    /// (sent right after the spawn; pending signals survive `execve`), so it
    /// is there from the very first instruction, whatever the timing.
    /// Paths in `arguments` must be absolute (the child runs in this process's folder).
    static func runWithPendingSignal(_ number: Int32, arguments: [String]) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, number)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let executable = ExecutableRun.executable.path
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        kill(pid, number)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalBeforeMainStillGivesAReport(signal: Int32, exitStatus: Int32) throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try BatchCorpus.write(count: 20, to: input)
        let out = scratch.url.appendingPathComponent("out")
        let status = try Self.runWithPendingSignal(signal, arguments: ["-test-fake-assistant", input.path, "-o", out.path])
        let exited = status & 0x7f == 0
        #expect(exited, "killed by signal \(status & 0x7f) instead of stopping cleanly")
        #expect((status >> 8) & 0xff == exitStatus)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let files = report["files"] as? [[String: Any]] ?? []
        #expect(!files.isEmpty)
        // The stop came before the first file: none was processed.
        #expect(files.allSatisfy { ($0["error"] as? String)?.contains("not processed") == true })
    }

    /// Ctrl-C during `--wait-for-model` ends the wait (it used to run to its
    /// end, or, before the handlers were installed, kill the process).
    @Test func aSignalDuringTheWaitForTheModelEndsTheWaitWithAReport() throws {
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello rocket\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        let process = Process()
        process.executableURL = ExecutableRun.executable
        process.arguments = ["-test-fake-assistant", "--simulate-availability", "modelNotReady", "--wait-for-model", "600",
                             "a.srt", "-o", "out", "--quiet"]
        process.currentDirectoryURL = scratch.url
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try launch(process)
        // Signalled once the run says it is waiting (said even under --quiet).
        let said = waitForLine(on: errors, of: process) { $0.contains("waiting up to") }
        try #require(said != nil, "the run never said it was waiting for the model")
        kill(process.processIdentifier, SIGINT)
        // A guard against a hang, not a timing assertion: the wait would last 600 s.
        let ended = waitForExit(process, limit: 120, "the wait for the model after SIGINT")
        #expect(ended, "SIGINT did not end the wait for the model")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let report = try String(contentsOf: scratch.url.appendingPathComponent("out/report.json"), encoding: .utf8)
        #expect(report.contains("not processed"))
    }
}
