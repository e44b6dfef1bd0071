import Foundation
import Testing
@testable import CaptionAssistantCLI

/// The progress line where standard error is not a terminal, driven by an
/// injected clock and writer: nothing here waits on the wall clock.
@Suite struct ProgressLineLogTests {
    /// A clock a test moves by hand, and what the line wrote.
    final class Bench: @unchecked Sendable {
        private let lock = NSLock()
        private var nanoseconds: UInt64 = 1_000_000_000
        private var written: [String] = []

        var now: UInt64 { lock.withLock { nanoseconds } }
        var lines: [String] { lock.withLock { written } }
        func advance(seconds: Double) { lock.withLock { nanoseconds += UInt64(seconds * 1e9) } }
        func write(_ text: String) { lock.withLock { written.append(text) } }

        func line(total: Int, interval: Double = 30) -> ProgressLine {
            ProgressLine(total: total, mode: .log(interval: interval), now: { self.now }, write: { self.write($0) })
        }
    }

    @Test func aPlainLineIsWrittenOncePerIntervalWithDoneRateAndTimeLeft() {
        let bench = Bench()
        let progress = bench.line(total: 5000)
        progress.update(done: 10)
        progress.tick()
        #expect(bench.lines.isEmpty, "nothing before the first interval has passed")
        bench.advance(seconds: 30)
        progress.update(done: 60)
        progress.tick()
        #expect(bench.lines == ["caption-assistant: progress: 60/5000 files, 2.0 files/s, about 41 min left\n"])
        // Ticks within the interval write nothing; files finishing write nothing in a log.
        bench.advance(seconds: 10)
        progress.update(done: 80)
        progress.tick()
        #expect(bench.lines.count == 1)
        // A batch stuck on one file still says where it is at the next interval.
        bench.advance(seconds: 20)
        progress.tick()
        #expect(bench.lines.last == "caption-assistant: progress: 80/5000 files, 1.3 files/s, about 1 h 2 min left\n")
        #expect(bench.lines.allSatisfy { !$0.contains("\r") })
    }

    @Test func aMessageIsItsOwnLineAndAFinishedBatchWritesNoMoreProgress() {
        let bench = Bench()
        let progress = bench.line(total: 2, interval: 5)
        progress.printAbove("caption-assistant: bad.srt: line 1: not SRT")
        #expect(bench.lines == ["caption-assistant: bad.srt: line 1: not SRT\n"])
        progress.update(done: 2)
        bench.advance(seconds: 60)
        progress.tick()
        progress.finish()
        #expect(bench.lines.count == 1)
    }

    @Test func timeLeftIsInItsLargestUnits() {
        #expect(ProgressLine.duration(42) == "42 s")
        #expect(ProgressLine.duration(59.4) == "59 s")
        #expect(ProgressLine.duration(2400) == "40 min")
        #expect(ProgressLine.duration(3600) == "1 h")
        #expect(ProgressLine.duration(7500) == "2 h 5 min")
        #expect(ProgressLine.duration(.infinity) == "0 s")
    }
}
