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

/// The progress line on standard error: files done of total, rate, and time
/// left.
///
/// On a terminal (`Mode.terminal`) it is rewritten in place with `\r` at most
/// ten times a second, cut to the terminal's width (read again at each
/// redraw, so a resized window is followed), since a line that wraps cannot
/// be rewritten in place; a message printed while it shows (`printAbove`)
/// goes on a line of its own above it. Off with `--json`, whose reader may
/// share the terminal.
///
/// Where standard error is not a terminal (a CI log, a file), it is a plain
/// line, `caption-assistant: progress: 120/5000 files, …`, written once
/// every `interval` seconds (`Mode.log`) by a timer, whether or not a file
/// finished since (a file stuck on the model still shows the batch is alive),
/// and never a `\r`. Nothing is shown with `--quiet`. The clock and the
/// writer are injected (`init`), so tests drive it without waiting.
final class ProgressLine: @unchecked Sendable {
    /// How the line is shown.
    enum Mode: Equatable {
        /// Rewritten in place on a terminal.
        case terminal
        /// A plain line every `interval` seconds, for logs.
        case log(interval: Double)
    }

    /// Seconds between two lines in a log.
    static let logInterval = 30.0

    private let total: Int
    private let mode: Mode
    private let now: @Sendable () -> UInt64
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private let started: UInt64
    private var lastDrawn: UInt64 = 0
    private var width = 0
    private var shown = ""
    private var done = 0
    private var timer: DispatchSourceTimer?

    /// Creates a progress line for `total` files, shown as `mode` says;
    /// `now` gives monotonic nanoseconds and `write` takes what is printed.
    init(total: Int, mode: Mode = .terminal, now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
         write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.total = total; self.mode = mode; self.now = now; self.write = write
        started = now()
        lastDrawn = started
    }

    /// How the progress should be shown: on a terminal, in place unless
    /// `--quiet` or `--json`; elsewhere, as a line every `logInterval` seconds
    /// unless `--quiet` (`--json` writes standard output, not this); nil: not at all.
    static func mode(quiet: Bool, json: Bool, terminal: Bool) -> Mode? {
        if quiet { return nil }
        if terminal { return json ? nil : .terminal }
        return .log(interval: logInterval)
    }

    /// The mode for this process's standard error.
    static func mode(quiet: Bool, json: Bool) -> Mode? { mode(quiet: quiet, json: json, terminal: isatty(2) == 1) }

    /// `line` cut to fit `columns` terminal columns without wrapping (one
    /// column is left free, as terminals wrap when the last one is written).
    static func fitted(_ line: String, columns: Int?) -> String {
        guard let columns, columns > 1, line.count >= columns else { return line }
        return String(line.prefix(columns - 1))
    }

    /// Standard error's terminal width in columns, or nil when it is not known.
    static func terminalColumns() -> Int? {
        var size = winsize()
        #if os(Linux)
        let status = ioctl(2, UInt(TIOCGWINSZ), &size)
        #else
        let status = ioctl(2, TIOCGWINSZ, &size)
        #endif
        if status == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return columns(fromEnvironment: ProcessInfo.processInfo.environment["COLUMNS"])
    }

    /// The width `COLUMNS` gives, read as every number from the environment is
    /// (`CheckedNumber`); a value that is no width (not a number, 0, past any
    /// terminal) is ignored, not an error: the line is then not cut.
    static func columns(fromEnvironment value: String?) -> Int? {
        value.flatMap { try? CheckedNumber.whole($0, name: "COLUMNS", in: 1...100_000) }
    }

    /// The text for `done` files after `elapsed` seconds, e.g. `120/5000 files, 2.0 files/s, about 40 min left`.
    static func text(done: Int, total: Int, elapsed: Double) -> String {
        var s = "\(done)/\(total) files"
        guard elapsed > 0, done > 0 else { return s }
        let rate = Double(done) / elapsed
        s += ", " + String(format: "%.1f", rate) + " files/s"
        if done < total {
            let left = Double(total - done) / rate
            s += left < 1 ? ", under 1 s left" : ", about \(duration(left)) left"
        }
        return s
    }

    /// A time left, to its largest units: `42 s`, `40 min`, `2 h 5 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? Int(min(seconds, 1e9).rounded()) : 0
        if whole < 60 { return "\(whole) s" }
        let minutes = (whole + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h" + (minutes % 60 > 0 ? " \(minutes % 60) min" : "")
    }

    /// Starts the timer that writes the line in a log (`Mode.log`); nothing on a terminal.
    func start() {
        guard case .log(let interval) = mode else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.tick() }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    /// Records that `done` files are finished; on a terminal, redraws when due.
    func update(done: Int) {
        lock.lock(); defer { lock.unlock() }
        self.done = done
        guard mode == .terminal else { return }
        let now = now()
        guard done == total || now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        draw(Self.text(done: done, total: total, elapsed: Double(now - started) / 1e9))
    }

    /// In a log: writes the line when `interval` has passed since the last
    /// one (the timer calls it; with the clock injected, so can a test).
    func tick() {
        lock.lock(); defer { lock.unlock() }
        guard case .log(let interval) = mode, done < total else { return }
        let now = now()
        guard Double(now - lastDrawn) / 1e9 >= interval * 0.99 else { return }
        lastDrawn = now
        write("caption-assistant: progress: " + Self.text(done: done, total: total, elapsed: Double(now - started) / 1e9) + "\n")
    }

    /// Writes `line` over the one shown (the lock is held).
    private func draw(_ text: String) {
        let line = Self.fitted(text, columns: Self.terminalColumns())
        let padding = String(repeating: " ", count: max(0, width - line.count))
        width = line.count
        shown = text
        write("\r" + line + padding)
    }

    /// Prints `message` (one line) on standard error above the progress line,
    /// which is drawn again below it.
    func printAbove(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        guard width > 0 else {
            write(message + "\n")
            return
        }
        write("\r" + String(repeating: " ", count: width) + "\r" + message + "\n")
        width = 0
        draw(shown)
    }

    /// Stops the timer, and clears the line before the summary is printed.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        timer?.cancel()
        timer = nil
        guard width > 0 else { return }
        write("\r" + String(repeating: " ", count: width) + "\r")
        width = 0
    }
}
