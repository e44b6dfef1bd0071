/// The one JSON value of the package: objects keep their keys in the order they were given.
///
/// Everything that writes or reads JSON uses it (the module holds it with its
/// parser, its writer, `JSONStreamWriter` for an object written in pieces,
/// and `JSONScanner`, the one scan that finds where a value ends): reports (golden files, so they
/// must come out byte for byte the same on every run and platform, which
/// `JSONSerialization` and `JSONEncoder` do not promise), HTTP request bodies
/// (the answer's schema must keep its property order: llama.cpp turns it into
/// a grammar in that order), HTTP responses, and the model's answer, which the
/// decoder reads with `parse`. One escaper (`escape(_:into:)`) writes every string.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, printed in decimal.
    case int(Int)
    /// A number that is not an `Int` (a fraction, an exponent, or too large):
    /// servers send them (timings); reports never hold one.
    case number(Double)
    /// A string, escaped as JSON requires; non-ASCII characters are kept as UTF-8.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, with its keys in this order.
    case object([(String, JSONValue)])

    /// A string, or `null` when `value` is nil.
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    /// An integer, or `null` when `value` is nil.
    public static func int(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }
    /// An array of strings.
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The value of `key`, when this is an object that has it (the first, if the key is repeated).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(i)
        case .number(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let pairs):
            for (k, v) in pairs { hasher.combine(k); hasher.combine(v) }
        }
    }

    /// The value printed with two-space indentation and a final newline.
    ///
    /// Empty arrays and objects print as `[]` and `{}`; arrays whose elements are
    /// all strings, numbers, booleans or nulls print on one line, so keyword and
    /// title lists stay readable in a diff.
    public func rendered() -> String {
        String(decoding: renderedBytes(), as: UTF8.self)
    }

    /// `rendered()` as UTF-8 bytes, written straight into one buffer.
    public func renderedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out, indent: 0)
        out.append(0x0A)
        return out
    }

    /// The value on one line: `{"a": 1, "b": [2, 3]}` with `spaced`, `{"a":1,"b":[2,3]}` without.
    ///
    /// Spaced is how the prompt shows an answer; compact is what an HTTP body holds.
    public func oneLine(spaced: Bool) -> String {
        var out: [UInt8] = []
        writeOneLine(to: &out, spaced: spaced)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value on one line (see `oneLine(spaced:)`).
    public func writeOneLine(to out: inout [UInt8], spaced: Bool) {
        switch self {
        case .array(let items):
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C); if spaced { out.append(0x20) } }
                item.writeOneLine(to: &out, spaced: spaced)
            }
            out.append(0x5D)
        case .object(let pairs):
            out.append(0x7B)
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out.append(0x2C); if spaced { out.append(0x20) } }
                JSONValue.escape(key, into: &out)
                out.append(0x3A)
                if spaced { out.append(0x20) }
                value.writeOneLine(to: &out, spaced: spaced)
            }
            out.append(0x7D)
        default:
            write(to: &out, indent: 0)
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    @inline(__always)
    private static func newline(_ out: inout [UInt8], indent: Int) {
        out.append(0x0A)
        for _ in 0..<indent { out.append(0x20) }
    }

    /// Appends the value as `rendered()` prints it, for a value that starts `indent` spaces in (no final newline).
    public func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): JSONValue.appendDecimal(i, to: &out)
        // Swift prints the shortest text that reads back as the same `Double`; JSON has no infinity or NaN.
        case .number(let d): out.append(contentsOf: (d.isFinite ? String(d) : "null").utf8)
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            if items.allSatisfy(\.isScalar) {
                out.append(0x5B)
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(0x2C); out.append(0x20) }
                    item.write(to: &out, indent: indent)
                }
                out.append(0x5D)
                return
            }
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONValue.newline(&out, indent: indent + 2)
                item.write(to: &out, indent: indent + 2)
            }
            JSONValue.newline(&out, indent: indent)
            out.append(0x5D)
        case .object(let pairs):
            if pairs.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(0x7B)
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONValue.newline(&out, indent: indent + 2)
                JSONValue.escape(key, into: &out)
                out.append(0x3A); out.append(0x20)
                value.write(to: &out, indent: indent + 2)
            }
            JSONValue.newline(&out, indent: indent)
            out.append(0x7D)
        }
    }

    /// Appends `n` in decimal, as `String(n)` prints it, without making the string.
    static func appendDecimal(_ n: Int, to out: inout [UInt8]) {
        if n < 0 { out.append(0x2D) }
        var magnitude = n.magnitude
        // 24 bytes hold the 20 digits of the largest magnitude.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = UInt8(truncatingIfNeeded: 0x30 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: buffer[at...])
        }
    }

    /// Appends `s` as a JSON string literal: quotes, backslashes and control
    /// characters escaped (`\n`, `\r`, `\t`, `\b`, `\f`, otherwise `\u00XX`);
    /// U+2028 and U+2029 escaped too so the output is also safe JavaScript.
    ///
    /// Works byte by byte: every character that needs escaping is ASCII,
    /// except U+2028 and U+2029 (E2 80 A8/A9); runs of other bytes are copied whole.
    static func escape(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        s.withUTF8 { p in
            let n = p.count
            var i = 0
            var plainStart = 0
            while i < n {
                let b = p[i]
                // Most bytes are printable ASCII other than `"` and `\`, or a UTF-8 byte other than E2: copied as they are.
                if b < 0x80 ? (b >= 0x20 && b != 0x22 && b != 0x5C && b != 0x7F) : b != 0xE2 { i += 1; continue }
                var escaped: StaticString?
                var width = 1
                switch b {
                case 0x22: escaped = "\\\""
                case 0x5C: escaped = "\\\\"
                case 0x0A: escaped = "\\n"
                case 0x0D: escaped = "\\r"
                case 0x09: escaped = "\\t"
                case 0x08: escaped = "\\b"
                case 0x0C: escaped = "\\f"
                case 0xE2 where i + 2 < n && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9):
                    escaped = p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    width = 3
                default:
                    guard b < 0x20 || b == 0x7F else { i += 1; continue }
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[plainStart..<i]))
                if let escaped {
                    out.append(contentsOf: UnsafeBufferPointer(start: escaped.utf8Start, count: escaped.utf8CodeUnitCount))
                } else {
                    let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hex[Int(b >> 4)])
                    out.append(hex[Int(b & 0x0F)])
                }
                i += width
                plainStart = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[plainStart..<n]))
        }
        out.append(0x22)
    }
}
