import Foundation
import Testing
import TestSupport

/// The bounded waits the end-to-end tests use instead of `.timeLimit`
/// (see `processLimit`): a run that hangs is killed and reported, never
/// waited on for ever; a state is waited for until it holds.
@Suite(.mayBlock) struct ProcessWaitTests {
    private func sleeper(_ seconds: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = [seconds]
        try launch(process)
        return process
    }

    @Test func aRunPastItsLimitIsKilledAndReported() throws {
        let process = try sleeper("30")
        let start = Date()
        var exited = true
        withKnownIssue { exited = waitForExit(process, limit: 0.3, "sleep 30") }
        #expect(!exited && !process.isRunning)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(Date().timeIntervalSince(start) < 25)
    }

    @Test func aRunWithinItsLimitIsWaitedFor() throws {
        let process = try sleeper("0.2")
        #expect(waitForExit(process, limit: 60, "sleep 0.2"))
        #expect(process.terminationStatus == 0)
    }

    @Test func aStateIsWaitedForUntilItHolds() throws {
        let process = try sleeper("30")
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let start = Date()
        var checks = 0
        wait(for: "the third check", while: process, limit: 60) { checks += 1; return checks >= 3 }
        #expect(checks == 3 && process.isRunning)
        #expect(Date().timeIntervalSince(start) < 25)
        withKnownIssue { wait(for: "nothing", while: process, limit: 0.2) { false } }
    }
}
