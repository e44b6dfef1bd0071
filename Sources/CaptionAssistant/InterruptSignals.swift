import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into a `BatchStop` for the length of a batch.
///
/// The first signal asks the batch to stop: no new file is started, the
/// files in flight finish and are written, and the report lists the rest as
/// not processed. A second signal ends the process at once with the usual
/// status (130 for SIGINT, 143 for SIGTERM); since every file is written
/// atomically, even then no half-written file is left (but `report.json`
/// is not written).
///
/// The signals are received with `DispatchSource.makeSignalSource` (their
/// default action is turned off with `signal(_, SIG_IGN)` first), so no Swift
/// code runs inside a C signal handler.
public final class InterruptSignals: @unchecked Sendable {
    /// The signals watched.
    public static let watched: [Int32] = [SIGINT, SIGTERM]

    /// The stop the signals ask for.
    public let stop: BatchStop
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []

    /// The exit status for a run ended by `signal`: 128 plus its number (130 for SIGINT, 143 for SIGTERM).
    public static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

    /// Starts watching; `stop` is asked when a signal comes. `onRepeat` is
    /// called for a second signal (by default it exits at once).
    public init(stop: BatchStop = BatchStop(),
                onRepeat: @escaping @Sendable (Int32) -> Void = { exit(InterruptSignals.exitStatus(for: $0)) }) {
        self.stop = stop
        let queue = DispatchQueue(label: "caption-assistant.signals")
        var made: [any DispatchSourceSignal] = []
        for number in Self.watched {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                // Signals that come close together arrive as one event; `data` says how many.
                for _ in 0..<max(1, Int(source.data)) {
                    if stop.request(signal: number) > 1 { onRepeat(number) }
                }
            }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    /// Stops watching and gives the signals their default action back.
    public func uninstall() {
        let current: [any DispatchSourceSignal] = lock.withLock {
            let all = sources
            sources = []
            return all
        }
        guard !current.isEmpty else { return }
        for source in current { source.cancel() }
        for number in Self.watched { signal(number, SIG_DFL) }
    }

    deinit { uninstall() }
}
