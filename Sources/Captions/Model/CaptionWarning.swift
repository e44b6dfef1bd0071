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
    /// A warning's kind, as `CaptionWarningLog` (the one cap) tells kinds apart:
    /// the message with each number (a digit and the letters and digits after it) and each quoted value replaced by a placeholder.
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

    /// Calls `body` with each byte of the message with numbers as `#` and quoted values emptied.
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
                let isDigit = b >= 0x30 && b <= 0x39
                // A number runs on through letters and digits (`0x1F`, `3rd`): one placeholder.
                if isDigit || inDigits && (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) {
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
