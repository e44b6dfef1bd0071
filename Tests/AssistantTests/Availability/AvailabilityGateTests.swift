import Testing
import TestSupport
@testable import Assistant

@Suite struct AvailabilityGateTests {
    @Test func readsAfreshOnEveryCheck() async {
        let provider = ScriptedAvailability([.unavailable(.appleIntelligenceNotEnabled), .available])
        let gate = AvailabilityGate(provider: provider, clock: ManualWaitClock())
        #expect(await gate.check() == .unavailable(.appleIntelligenceNotEnabled))
        #expect(await gate.check() == .available)
        #expect(provider.checks == 2)
    }

    @Test func waitsForAModelThatBecomesReadyAfterFourChecks() async {
        let provider = ScriptedAvailability.readyAfter(4)
        let clock = ManualWaitClock()
        let gate = AvailabilityGate(provider: provider, clock: clock)
        let state = await gate.waitUntilAvailable(timeout: .seconds(120))
        #expect(state == .available)
        #expect(provider.checks == 5)
        // Gentle: a second apart at first, then 1.5 times longer each time.
        #expect(clock.sleeps == [.seconds(1), .milliseconds(1500), .milliseconds(2250), .milliseconds(3375)])
    }

    @Test func aModelThatNeverGetsReadyIsWaitedForOnlyUntilTheDeadline() async {
        let provider = ScriptedAvailability([.unavailable(.modelNotReady)])
        let clock = ManualWaitClock()
        let gate = AvailabilityGate(provider: provider, clock: clock)
        let state = await gate.waitUntilAvailable(timeout: .seconds(60))
        #expect(state == .unavailable(.modelNotReady))
        #expect(clock.now() == .seconds(60))
        #expect(clock.sleeps.allSatisfy { $0 <= .seconds(10) })
        #expect(clock.sleeps.contains(.seconds(10)), "the pause grows to the cap")
        // 1 + 1.5 + 2.25 + 3.375 + 5.0625 + 7.59375 = 20.78125 s, then 10 s pauses up to 60 s.
        #expect(provider.checks == clock.sleeps.count + 1)
        #expect(provider.checks == 11)
    }

    @Test(arguments: [UnavailableReason.deviceNotEligible, .appleIntelligenceNotEnabled, .unsupportedPlatform, .serverUnreachable, .modelMissing, .unknown("new")])
    func otherReasonsAreReturnedAtOnce(reason: UnavailableReason) async {
        let provider = ScriptedAvailability([.unavailable(reason)])
        let clock = ManualWaitClock()
        let state = await AvailabilityGate(provider: provider, clock: clock).waitUntilAvailable(timeout: .seconds(60))
        #expect(state == .unavailable(reason))
        #expect(provider.checks == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func aZeroTimeoutChecksExactlyOnce() async {
        let provider = ScriptedAvailability.readyAfter(1)
        let clock = ManualWaitClock()
        let state = await AvailabilityGate(provider: provider, clock: clock).waitUntilAvailable(timeout: .zero)
        #expect(state == .unavailable(.modelNotReady))
        #expect(provider.checks == 1)
    }

    @Test func theLastPauseIsCutToTheDeadline() async {
        let provider = ScriptedAvailability([.unavailable(.modelNotReady)])
        let clock = ManualWaitClock()
        _ = await AvailabilityGate(provider: provider, clock: clock).waitUntilAvailable(timeout: .milliseconds(1800))
        #expect(clock.sleeps == [.seconds(1), .milliseconds(800)])
        #expect(provider.checks == 3)
    }

    @Test func theSystemModelIsUnsupportedWithoutFoundationModels() async {
        #if !canImport(FoundationModels)
        #expect(await SystemModelAvailability().currentAvailability() == .unavailable(.unsupportedPlatform))
        #endif
    }
}
