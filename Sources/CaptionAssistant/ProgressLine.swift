import Dispatch
import Foundation

/// The progress line on standard error: files done of total, rate, and time
/// left, rewritten in place with `\r` at most ten times a second.
///
/// Shown only when standard error is a terminal and `--quiet` is not given,
/// so logs and pipes never receive it.
public final class ProgressLine: @unchecked Sendable {
    private let total: Int
    private let lock = NSLock()
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDrawn: UInt64 = 0
    private var width = 0

    /// Creates a progress line for `total` files.
    public init(total: Int) { self.total = total }

    /// Whether a progress line should be shown: standard error is a terminal and not quiet.
    public static func wanted(quiet: Bool) -> Bool { !quiet && isatty(2) == 1 }

    /// The text for `done` files after `elapsed` seconds, e.g. `120/5000 files, 240.0 files/s, about 20 s left`.
    public static func text(done: Int, total: Int, elapsed: Double) -> String {
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
    public func update(done: Int) {
        lock.lock(); defer { lock.unlock() }
        let now = DispatchTime.now().uptimeNanoseconds
        guard done == total || now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        let line = Self.text(done: done, total: total, elapsed: Double(now - started) / 1e9)
        let padding = String(repeating: " ", count: max(0, width - line.count))
        width = line.count
        FileHandle.standardError.write(Data(("\r" + line + padding).utf8))
    }

    /// Clears the line before the summary is printed.
    public func finish() {
        lock.lock(); defer { lock.unlock() }
        guard width > 0 else { return }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: width) + "\r").utf8))
        width = 0
    }
}
