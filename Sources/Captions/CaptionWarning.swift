/// A problem a reader repaired or ignored, with the line it was found on.
public struct CaptionWarning: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number in the input, when the problem has one.
    public var line: Int?
    /// What was found and what the reader did about it.
    public var message: String

    /// Creates a warning.
    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

extension CaptionWarning {
    /// How many warnings of one kind a document keeps; the rest are counted.
    public static let perKind = 20

    /// `warnings` with at most `perKind` of each kind kept (in their order),
    /// then one warning per capped kind saying how many more were left out,
    /// so a hostile file (100,000 bad cues, a megabyte of invalid text) gives
    /// a report of bounded size. A kind is a message with its numbers and
    /// quoted values set aside: "cue number 7 is not in sequence (expected 5)"
    /// and "cue number 9 is not in sequence (expected 8)" are one kind.
    public static func capped(_ warnings: [CaptionWarning], perKind: Int = perKind) -> [CaptionWarning] {
        guard warnings.count > perKind else { return warnings }
        // Kinds are told apart by a 64-bit hash of the message with its numbers and
        // quoted values set aside: no string is made per warning (a hostile file
        // can have a million of them).
        var counts: [UInt64: Int] = [:]
        var order: [(kind: UInt64, example: Int)] = []
        var kept: [CaptionWarning] = []
        for (index, warning) in warnings.enumerated() {
            let kind = Self.kindHash(of: warning.message)
            let count = counts[kind, default: 0]
            counts[kind] = count + 1
            if count == 0 { order.append((kind, index)) }
            if count < perKind { kept.append(warning) }
        }
        for (kind, example) in order {
            let count = counts[kind, default: 0]
            guard count > perKind else { continue }
            kept.append(CaptionWarning(line: nil, message: "\(count - perKind) more warnings like “\(warnings[example].message)” were left out"))
        }
        return kept
    }

    /// The message with each run of digits and each quoted value replaced by a placeholder.
    static func kind(of message: String) -> String {
        var out: [UInt8] = []
        normalized(message) { out.append($0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// An FNV-1a hash of `kind(of:)`, made without building it.
    static func kindHash(of message: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        normalized(message) { hash = (hash ^ UInt64($0)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// Calls `body` with each byte of the message with digit runs as `#` and quoted values emptied.
    private static func normalized(_ message: String, _ body: (UInt8) -> Void) {
        var message = message
        message.withUTF8 { p in
            var inDigits = false
            var quote: UInt8 = 0
            for b in p {
                if quote != 0 {
                    if b == quote { quote = 0; body(b) }
                    continue
                }
                if b == 0x22 { quote = b; body(b); continue }
                if b >= 0x30 && b <= 0x39 {
                    if !inDigits { body(0x23) }
                    inDigits = true
                    continue
                }
                inDigits = false
                body(b)
            }
        }
    }
}
