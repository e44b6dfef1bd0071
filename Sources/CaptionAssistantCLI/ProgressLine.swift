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
/// left, rewritten in place with `\r` at most ten times a second.
///
/// Shown only when standard error is a terminal and neither `--quiet` nor
/// `--json` is given, so logs, pipes and machine readers never receive it.
/// The line is cut to the terminal's width (read again at each redraw, so a
/// resized window is followed), since a line that wraps cannot be rewritten
/// in place. A message printed while it shows (`printAbove`) goes on a line
/// of its own above it.
final class ProgressLine: @unchecked Sendable {
    private let total: Int
    private let lock = NSLock()
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDrawn: UInt64 = 0
    private var width = 0
    private var shown = ""

    /// Creates a progress line for `total` files.
    init(total: Int) { self.total = total }

    /// Whether a progress line should be shown: standard error is a terminal, and neither `--quiet` nor `--json` is given.
    static func wanted(quiet: Bool, json: Bool) -> Bool { !quiet && !json && isatty(2) == 1 }

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

    /// The text for `done` files after `elapsed` seconds, e.g. `120/5000 files, 240.0 files/s, about 20 s left`.
    static func text(done: Int, total: Int, elapsed: Double) -> String {
        var s = "\(done)/\(total) files"
        guard elapsed > 0, done > 0 else { return s }
        let rate = Double(done) / elapsed
        s += ", " + String(format: "%.1f", rate) + " files/s"
        if done < total {
            let left = Double(total - done) / rate
            s += left < 1 ? ", under 1 s left" : ", about \(Int(left.rounded())) s left"
        }
        return s
    }

    /// Records that `done` files are finished and redraws when due.
    func update(done: Int) {
        lock.lock(); defer { lock.unlock() }
        let now = DispatchTime.now().uptimeNanoseconds
        guard done == total || now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        draw(Self.text(done: done, total: total, elapsed: Double(now - started) / 1e9))
    }

    /// Writes `line` over the one shown (the lock is held).
    private func draw(_ text: String) {
        let line = Self.fitted(text, columns: Self.terminalColumns())
        let padding = String(repeating: " ", count: max(0, width - line.count))
        width = line.count
        shown = text
        FileHandle.standardError.write(Data(("\r" + line + padding).utf8))
    }

    /// Prints `message` (one line) on standard error above the progress line,
    /// which is drawn again below it.
    func printAbove(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        guard width > 0 else {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            return
        }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: width) + "\r" + message + "\n").utf8))
        width = 0
        draw(shown)
    }

    /// Clears the line before the summary is printed.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        guard width > 0 else { return }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: width) + "\r").utf8))
        width = 0
    }
}
