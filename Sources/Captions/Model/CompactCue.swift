/// The numbers of a cue read from a file, in 24 bytes: its start in whole
/// milliseconds and its length, and byte offsets into the document's bytes
/// for its text (the identifier and settings, which come before the text, as
/// distances back from it). `Cue` adds 8 for the document's bytes (or the
/// TTML paragraph's context, which holds them): 32 in all. A cue whose values
/// do not fit (a time that is not a whole number of milliseconds or is
/// negative, a start 2^38 ms (8.7 years) or later, an end before the start or
/// 2^26 ms (18.6 hours) or more after it, text offsets or a line past 4 GiB,
/// a text longer than 64 KiB, an identifier or settings longer than 255 bytes
/// or more than 64 KiB before the text) is not made compact (`init` fails)
/// and `Cue` holds its values whole.
struct CompactCue: Sendable {
    /// The start in milliseconds (the low `startBits` bits) and the length in
    /// milliseconds (the bits above).
    private var time: UInt64 = 0
    private var textStart: UInt32 = 0
    private(set) var line: UInt32 = 0
    private var textLength: UInt16 = 0
    /// How far before `textStart` the identifier and the settings start; 0 when there is none.
    private var identifierBack: UInt16 = 0
    private var settingsBack: UInt16 = 0
    private var identifierLength: UInt8 = 0
    private var settingsLength: UInt8 = 0

    /// The bits of `time` that hold the start.
    static let startBits: UInt64 = 38

    /// An empty one (for a cue that holds its values whole).
    init() {}

    /// The compact form of a cue read from a document's bytes, or nil when a value does not fit.
    init?(identifier: Range<Int>?, start: CaptionTime, end: CaptionTime, settings: Range<Int>?,
          line: Int, textRange: Range<Int>) {
        guard let startMilliseconds = Self.milliseconds(start), let endMilliseconds = Self.milliseconds(end),
              endMilliseconds >= startMilliseconds, startMilliseconds < 1 << Self.startBits,
              endMilliseconds - startMilliseconds < 1 << (64 - Self.startBits),
              let textStart = UInt32(exactly: textRange.lowerBound), let textLength = UInt16(exactly: textRange.count),
              UInt32(exactly: textRange.upperBound) != nil, let line = UInt32(exactly: line) else { return nil }
        time = startMilliseconds | (endMilliseconds - startMilliseconds) << Self.startBits
        self.textStart = textStart; self.textLength = textLength; self.line = line
        if let identifier {
            guard let back = UInt16(exactly: textRange.lowerBound - identifier.lowerBound), back > 0,
                  let length = UInt8(exactly: identifier.count) else { return nil }
            identifierBack = back; identifierLength = length
        }
        if let settings {
            guard let back = UInt16(exactly: textRange.lowerBound - settings.lowerBound), back > 0,
                  let length = UInt8(exactly: settings.count) else { return nil }
            settingsBack = back; settingsLength = length
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

    private var startMilliseconds: Int64 { Int64(time & (1 << Self.startBits - 1)) }

    var start: CaptionTime { CaptionTime(milliseconds: startMilliseconds) }
    var end: CaptionTime { CaptionTime(milliseconds: startMilliseconds + Int64(time >> Self.startBits)) }
    var textRange: Range<Int> { Int(textStart)..<(Int(textStart) + Int(textLength)) }

    /// The identifier as written in `bytes` (the document's), if the cue has one.
    func identifier(in bytes: [UInt8]) -> String? {
        identifierBack == 0 ? nil : text(in: bytes, identifierBack, identifierLength)
    }

    /// The settings as written in `bytes` (the document's), if the cue has them.
    func settings(in bytes: [UInt8]) -> String? {
        settingsBack == 0 ? nil : text(in: bytes, settingsBack, settingsLength)
    }

    /// The text of the `length` bytes of `bytes` that start `back` bytes before the cue text.
    private func text(in bytes: [UInt8], _ back: UInt16, _ length: UInt8) -> String {
        let start = Int(textStart) - Int(back)
        let range = start..<(start + Int(length))
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}
