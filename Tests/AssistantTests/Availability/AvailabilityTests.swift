import Testing
@testable import Assistant

@Suite struct AvailabilityTests {
    @Test func onlyAvailableMayCallTheModel() async {
        #expect(Availability.available.isAvailable)
        #expect(!Availability.unavailable(.modelNotReady).isAvailable)
        #expect(await FixedAvailability(.unavailable(.serverUnreachable)).currentAvailability() == .unavailable(.serverUnreachable))
    }
}
