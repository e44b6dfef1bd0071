import Foundation
import Testing
import TestSupport
@testable import Assistant

@Suite(.mayBlock) struct DeadlinesTests {
    /// Records what fired, in order, and lets a test wait for a count.
    final class Log: @unchecked Sendable {
        private let condition = NSCondition()
        private var fired: [String] = []
        func add(_ name: String) { condition.lock(); fired.append(name); condition.broadcast(); condition.unlock() }
        /// Waits (at most `seconds`) until `count` have fired; returns what fired.
        func wait(for count: Int, seconds: Double = 20) -> [String] {
            condition.lock(); defer { condition.unlock() }
            let end = Date(timeIntervalSinceNow: seconds)
            while fired.count < count && condition.wait(until: end) {}
            return fired
        }
    }

    @Test func limitsFireInDeadlineOrderAndCancelledOnesNever() {
        let deadlines = Deadlines()
        let log = Log()
        _ = deadlines.schedule(after: .milliseconds(90)) { log.add("c") }
        _ = deadlines.schedule(after: .milliseconds(10)) { log.add("a") }
        let cancelled = deadlines.schedule(after: .milliseconds(30)) { log.add("never") }
        _ = deadlines.schedule(after: .milliseconds(50)) { log.add("b") }
        deadlines.cancel(cancelled)
        #expect(log.wait(for: 3) == ["a", "b", "c"])
        // Cancelling one that has fired does nothing.
        deadlines.cancel(cancelled)
    }

    /// A limit earlier than every one waiting wakes the thread: it does not
    /// wait for the hour-long one first.
    @Test func anEarlierLimitWakesTheThread() {
        let deadlines = Deadlines()
        let log = Log()
        let late = deadlines.schedule(after: .seconds(3600)) { log.add("late") }
        _ = deadlines.schedule(after: .milliseconds(5)) { log.add("soon") }
        #expect(log.wait(for: 1) == ["soon"])
        deadlines.cancel(late)
    }

    /// Many cancelled limits are dropped from the heap, and what stays still fires in order.
    @Test func cancelledLimitsAreDroppedAndTheRestStillFire() {
        let deadlines = Deadlines()
        let log = Log()
        var ids: [UInt64] = []
        for i in 0..<500 { ids.append(deadlines.schedule(after: .seconds(3600 + i)) { log.add("late") }) }
        _ = deadlines.schedule(after: .milliseconds(40)) { log.add("second") }
        _ = deadlines.schedule(after: .milliseconds(20)) { log.add("first") }
        for id in ids { deadlines.cancel(id) }
        #expect(deadlines.waitingSlots <= 64)
        #expect(log.wait(for: 2) == ["first", "second"])
    }
}
