/// A cue read from a file, in 40 bytes: the document's bytes (shared: a
/// reference), its start in whole milliseconds and its length, and byte
/// offsets into the bytes for its text (the identifier and settings, which
/// come before the text, as distances back from it); `Cue` adds 8 for what
/// it does not hold. A cue whose values do not fit (a time that is not a
/// whole number of milliseconds or is negative, an end before the start or
/// more than 49 days after it, offsets or a line past 4 GiB, an identifier or
/// settings longer than 255 bytes or more than 64 KiB before the text) is not
/// made compact (`init` fails) and `Cue` holds its values whole.
struct CompactCue: Sendable {
    /// The whole document's UTF-8 bytes; empty for a cue that is not compact.
    var bytes: [UInt8] = []
    var startMilliseconds: UInt64 = 0
    var lengthMilliseconds: UInt32 = 0
    var textStart: UInt32 = 0
    var textEnd: UInt32 = 0
    var line: UInt32 = 0
    /// How far before `textStart` the identifier and the settings start.
    var identifierBack: UInt16 = 0
    var settingsBack: UInt16 = 0
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
              endMilliseconds >= startMilliseconds, let length = UInt32(exactly: endMilliseconds - startMilliseconds),
              let textStart = UInt32(exactly: textRange.lowerBound), let textEnd = UInt32(exactly: textRange.upperBound),
              let line = UInt32(exactly: line) else { return nil }
        self.bytes = bytes
        self.startMilliseconds = startMilliseconds; lengthMilliseconds = length
        self.textStart = textStart; self.textEnd = textEnd; self.line = line
        if webVTT { flags |= Self.webVTT }
        if let identifier {
            guard let back = UInt16(exactly: textRange.lowerBound - identifier.lowerBound),
                  let length = UInt8(exactly: identifier.count) else { return nil }
            identifierBack = back; identifierLength = length; flags |= Self.hasIdentifier
        }
        if let settings {
            guard let back = UInt16(exactly: textRange.lowerBound - settings.lowerBound),
                  let length = UInt8(exactly: settings.count) else { return nil }
            settingsBack = back; settingsLength = length; flags |= Self.hasSettings
        }
    }

    /// `time` in whole milliseconds when it is a whole, non-negative number
    /// of them that `CaptionTime(milliseconds:)` gives back exactly.
    @inline(__always)
    private static func milliseconds(_ time: CaptionTime) -> UInt64? {
        guard time.denominator > 0, 1000 % time.denominator == 0 else { return nil }
        let (ms, overflow) = time.numerator.multipliedReportingOverflow(by: 1000 / time.denominator)
        guard !overflow, let value = UInt64(exactly: ms), CaptionTime(milliseconds: ms) == time else { return nil }
        return value
    }

    /// Whether the runs are built by the WebVTT rule (else SRT's, or TTML's from the cue's context).
    var isWebVTT: Bool { flags & Self.webVTT != 0 }

    var start: CaptionTime { CaptionTime(milliseconds: Int64(startMilliseconds)) }
    var end: CaptionTime { CaptionTime(milliseconds: Int64(startMilliseconds) + Int64(lengthMilliseconds)) }
    var textRange: Range<Int> { Int(textStart)..<Int(textEnd) }

    var identifier: String? {
        flags & Self.hasIdentifier == 0 ? nil : text(identifierBack, identifierLength)
    }

    var settings: String? {
        flags & Self.hasSettings == 0 ? nil : text(settingsBack, settingsLength)
    }

    /// The text of the `length` bytes that start `back` bytes before the cue text.
    private func text(_ back: UInt16, _ length: UInt8) -> String {
        let start = Int(textStart) - Int(back)
        let range = start..<(start + Int(length))
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}
