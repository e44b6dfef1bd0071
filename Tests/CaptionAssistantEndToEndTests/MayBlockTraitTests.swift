import Foundation
import Testing
import TestSupport

/// `.mayBlock` moves a test off Swift's cooperative pool, so that tests which
/// wait for a child process cannot hold back other tests' timers.
@Suite(.mayBlock) struct MayBlockTraitTests {
    @Test func aSynchronousTestRunsOnAThreadOfItsOwn() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        #expect(onOwnThread())
    }

    @Test func anAsyncTestResumesOnAThreadOfItsOwn() async throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        try await Task.sleep(for: .milliseconds(1))
        #expect(onOwnThread())
    }
}

/// Whether this runs on a thread of `BlockingTestExecutor` (a synchronous function, so async tests may ask too).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private func onOwnThread() -> Bool { BlockingTestExecutor.isCurrentThreadOneOfItsOwn }
