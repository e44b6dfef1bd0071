/// A cue read from a file, in 40 bytes: the document's bytes (shared: a
/// reference), its times in whole milliseconds, and byte offsets into the
/// bytes for its text, identifier and settings (`Cue` adds 8 for what it
/// does not hold). A cue whose values do not fit (a time that is not a whole
/// number of milliseconds from 0 to about 49 days, offsets or a line past
/// 4 GiB, an identifier or settings longer than 255 bytes) is not made
/// compact (`init` fails) and `Cue` holds its values whole.
struct CompactCue: Sendable {
    /// The whole document's UTF-8 bytes; empty for a cue that is not compact.
    var bytes: [UInt8] = []
    var startMilliseconds: UInt32 = 0
    var endMilliseconds: UInt32 = 0
    var textStart: UInt32 = 0
    var textEnd: UInt32 = 0
    var line: UInt32 = 0
    var identifierStart: UInt32 = 0
    var settingsStart: UInt32 = 0
    var identifierLength: UInt8 = 0
    var settingsLength: UInt8 = 0
    var flags: UInt8 = 0

    private static let webVTT: UInt8 = 1, hasIdentifier: UInt8 = 2, hasSettings: UInt8 = 4

    /// An empty one (for a cue that holds its values whole).
    init() {}

    /// The compact form of a cue read from `bytes`, or nil when a value does not fit.
    init?(bytes: [UInt8], identifier: Range<Int>?, start: CaptionTime, end: CaptionTime, settings: Range<Int>?,
          line: Int, textRange: Range<Int>, webVTT: Bool) {
        guard let startMilliseconds = Self.milliseconds(start), let endMilliseconds = Self.milliseconds(end),
              let textStart = UInt32(exactly: textRange.lowerBound), let textEnd = UInt32(exactly: textRange.upperBound),
              let line = UInt32(exactly: line) else { return nil }
        self.bytes = bytes
        self.startMilliseconds = startMilliseconds; self.endMilliseconds = endMilliseconds
        self.textStart = textStart; self.textEnd = textEnd; self.line = line
        if webVTT { flags |= Self.webVTT }
        if let identifier {
            guard let at = UInt32(exactly: identifier.lowerBound), let length = UInt8(exactly: identifier.count) else { return nil }
            identifierStart = at; identifierLength = length; flags |= Self.hasIdentifier
        }
        if let settings {
            guard let at = UInt32(exactly: settings.lowerBound), let length = UInt8(exactly: settings.count) else { return nil }
            settingsStart = at; settingsLength = length; flags |= Self.hasSettings
        }
    }

    /// `time` in whole milliseconds when it is one from 0 to `UInt32.max`
    /// that `CaptionTime(milliseconds:)` gives back exactly.
    @inline(__always)
    private static func milliseconds(_ time: CaptionTime) -> UInt32? {
        guard time.denominator > 0, 1000 % time.denominator == 0 else { return nil }
        let (ms, overflow) = time.numerator.multipliedReportingOverflow(by: 1000 / time.denominator)
        guard !overflow, let value = UInt32(exactly: ms), CaptionTime(milliseconds: ms) == time else { return nil }
        return value
    }

    /// Whether the runs are built by the WebVTT rule (else SRT's, or TTML's from the cue's context).
    var isWebVTT: Bool { flags & Self.webVTT != 0 }

    var start: CaptionTime { CaptionTime(milliseconds: Int64(startMilliseconds)) }
    var end: CaptionTime { CaptionTime(milliseconds: Int64(endMilliseconds)) }
    var textRange: Range<Int> { Int(textStart)..<Int(textEnd) }

    var identifier: String? {
        flags & Self.hasIdentifier == 0 ? nil : text(identifierStart, identifierLength)
    }

    var settings: String? {
        flags & Self.hasSettings == 0 ? nil : text(settingsStart, settingsLength)
    }

    private func text(_ start: UInt32, _ length: UInt8) -> String {
        let range = Int(start)..<(Int(start) + Int(length))
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}
