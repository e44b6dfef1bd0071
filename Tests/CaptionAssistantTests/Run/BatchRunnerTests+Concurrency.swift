import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

/// A model that counts the calls in flight at once. Each call waits (with
/// `Task.sleep`, holding no thread) until `target` calls have been in flight
/// together, or no new call has come for 20 s, then answers as the fake does;
/// so a runner that keeps `target` files in flight passes at once, and one
/// that serialises the calls is caught (each call then gives up waiting).
/// The 20 s count from the latest call, not from the first: on a loaded
/// machine the calls may start seconds apart, and that is no failure.
final class ConcurrencyProbe: AssistantModel, @unchecked Sendable {
    private let lock = NSLock()
    private var inFlight = 0
    private var most = 0
    private let clock = ContinuousClock()
    private var latestCall: ContinuousClock.Instant
    let target: Int

    init(target: Int) {
        self.target = target
        latestCall = clock.now
    }

    /// The most calls that were in flight at once.
    var maxInFlight: Int { lock.withLock { most } }

    func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
        lock.withLock { inFlight += 1; most = max(most, inFlight); latestCall = clock.now }
        defer { lock.withLock { inFlight -= 1 } }
        while maxInFlight < target && clock.now < lock.withLock({ latestCall }) + .seconds(20) {
            try await Task.sleep(for: .milliseconds(2))
        }
        return try await FakeAssistantModel(recordsPrompts: false).respond(to: prompt)
    }
}

@Suite struct BatchConcurrencyTests {
    /// Model calls overlap up to `--jobs` and never beyond it: waiting on a
    /// slow model is shared across files, not added up.
    @Test(arguments: [2, 8])
    func modelCallsOverlapUpToJobs(jobs: Int) async throws {
        let dir = try TemporaryFolder()
        for i in 0..<(3 * jobs) { try dir.write("in/ep\(i).srt", sampleSRT) }
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let probe = ConcurrencyProbe(target: jobs)
        let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration(model: probe)),
                                 destination: .folder(dir.path + "/out"), jobs: jobs)
        let result = await runner.run(plan)
        #expect(result.summary.totals.written == 3 * jobs)
        #expect(probe.maxInFlight == jobs)
        // The same captions as with the plain fake, one file at a time.
        let plain = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/plain"), jobs: 1)
        _ = await plain.run(try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/plain", convertTo: nil))
        for i in 0..<(3 * jobs) {
            let a = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/ep\(i).srt"))
            let b = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/plain/ep\(i).srt"))
            #expect(a == b)
        }
    }
}
