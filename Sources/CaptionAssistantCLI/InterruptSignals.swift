import CaptionAssistant
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
/// model requests in flight end at once (their files are not written), the
/// other files in flight finish and are written, and the report lists the
/// rest as not processed. A second signal ends the process at once with the usual
/// status (130 for SIGINT, 143 for SIGTERM); since every file is written
/// atomically, even then no half-written file is left (but `report.json`
/// is not written).
///
/// The signals are received with `DispatchSource.makeSignalSource` (their
/// default action is turned off with `signal(_, SIG_IGN)` first), so no Swift
/// code runs inside a C signal handler.
final class InterruptSignals: @unchecked Sendable {
    /// The signals watched.
    static let watched: [Int32] = [SIGINT, SIGTERM]

    /// The stop the signals ask for.
    let stop: BatchStop
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []
    private var waiter: SignalWaiter?
    /// Told of the first stop request (for `-test-announce-stop`).
    let firstStop = FirstStopNotice()

    /// The exit status for a run ended by `signal`: 128 plus its number (130 for SIGINT, 143 for SIGTERM).
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

    /// Ends the process at once for a second `signal`, with its exit status.
    ///
    /// `_exit`, not `exit`: this runs on the thread that took the signal while
    /// the batch's threads still work, and `exit` would run the atexit
    /// handlers and library destructors under them (libxml2's
    /// `xmlCleanupParser`, ICU's and the Swift runtime's teardown), which a
    /// thread still parsing or writing can touch after they are freed: once
    /// seen as the process dying of SIGSEGV instead of exiting 130. Nothing is
    /// lost: every output is written atomically, standard error is unbuffered,
    /// and a run stopped this way writes neither report.json nor a summary.
    @Sendable static func endAtOnce(_ signal: Int32) {
        _exit(exitStatus(for: signal))
    }

    /// Starts watching; `stop` is asked when a signal comes. `onRepeat` is
    /// called for a second signal (by default it exits at once).
    convenience init(stop: BatchStop = BatchStop(),
                            onRepeat: @escaping @Sendable (Int32) -> Void = InterruptSignals.endAtOnce) {
        self.init(stop: stop, earlyPipe: -1, onRepeat: onRepeat)
    }

    /// Starts watching. `earlyPipe`, when not -1, is the read end of a pipe
    /// to which a C handler installed before main (by the executable) writes
    /// each signal's number: then the signals are read from it (a signal
    /// that came before this call is waiting there, and is taken as a stop)
    /// instead of with dispatch sources.
    init(stop: BatchStop = BatchStop(), earlyPipe: Int32,
                onRepeat: @escaping @Sendable (Int32) -> Void = InterruptSignals.endAtOnce) {
        self.stop = stop
        if earlyPipe >= 0 {
            waiter = SignalWaiter(pipe: earlyPipe, stop: stop, firstStop: firstStop, onRepeat: onRepeat)
            return
        }
        let queue = DispatchQueue(label: "caption-assistant.signals")
        var made: [any DispatchSourceSignal] = []
        let firstStop = firstStop
        for number in Self.watched {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                // Signals that come close together arrive as one event; `data` says how many.
                for _ in 0..<max(1, Int(source.data)) {
                    if stop.request(signal: number) > 1 { onRepeat(number) } else { firstStop.tell(number) }
                }
            }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    /// Takes a signal that came before now (and is still waiting in the
    /// early pipe) as a stop request at once. A batch calls it before its
    /// first file; the dispatch sources need no such call.
    func takePending() {
        lock.withLock { waiter }?.takePending()
    }

    /// Stops watching and gives the signals their default action back.
    func uninstall() {
        if let waiter = lock.withLock({ () -> SignalWaiter? in defer { self.waiter = nil }; return self.waiter }) {
            waiter.uninstall()
            return
        }
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

/// Reads the signal numbers that the executable's early C handler writes
/// into its pipe (see `CEarlySignals`) and turns them into stop requests:
/// on a thread of its own as they come, and at once when asked
/// (`takePending`), so a signal that came before the batch started is seen
/// before its first file. Since that handler is in place before any library
/// starts, no SIGINT or SIGTERM is ever fatal or lost while a batch can
/// still write its report.
final class SignalWaiter: @unchecked Sendable {
    private let lock = NSLock()
    private var uninstalled = false
    private let pipe: Int32
    private let stop: BatchStop
    private let firstStop: FirstStopNotice
    private let onRepeat: @Sendable (Int32) -> Void

    init(pipe: Int32, stop: BatchStop, firstStop: FirstStopNotice, onRepeat: @escaping @Sendable (Int32) -> Void) {
        self.pipe = pipe; self.stop = stop; self.firstStop = firstStop; self.onRepeat = onRepeat
        _ = fcntl(pipe, F_SETFL, fcntl(pipe, F_GETFL) | O_NONBLOCK)
        Thread.detachNewThread { [self] in
            while true {
                var ready = pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)
                let n = poll(&ready, 1, -1)
                if n < 0 && errno == EINTR { continue }
                if n < 0 || ready.revents & Int16(POLLERR | POLLNVAL) != 0 { return }
                takePending()
            }
        }
    }

    /// Takes every signal number waiting in the pipe now, without waiting.
    func takePending() {
        lock.withLock {
            var byte: UInt8 = 0
            while true {
                let n = read(pipe, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                if uninstalled {
                    // Came after the batch: the default action, as if never watched.
                    signal(Int32(byte), SIG_DFL)
                    raise(Int32(byte))
                    continue
                }
                if stop.request(signal: Int32(byte)) > 1 { onRepeat(Int32(byte)) } else { firstStop.tell(Int32(byte)) }
            }
        }
    }

    /// Takes what is pending; from then on the signals have their default
    /// action (they end the process).
    func uninstall() {
        takePending()
        lock.withLock { uninstalled = true }
        for number in InterruptSignals.watched { signal(number, SIG_DFL) }
        takePending()
    }
}

/// What to do when the first stop request is taken: nothing, unless a test
/// asked (`-test-announce-stop`) to be told on standard error, so it can send
/// a second signal knowing the first was taken instead of sleeping and hoping.
final class FirstStopNotice: @unchecked Sendable {
    private let lock = NSLock()
    private var announces = false

    /// From now on, a first stop request is said on standard error.
    func announce() { lock.withLock { announces = true } }

    /// Called with the signal of the first stop request.
    func tell(_ signal: Int32) {
        guard lock.withLock({ announces }) else { return }
        FileHandle.standardError.write(Data("caption-assistant: \(CaptionAssistantCommand.signalName(signal)) taken: finishing the files in flight\n".utf8))
    }
}
