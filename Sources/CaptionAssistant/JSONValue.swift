/// A JSON value whose objects keep their keys in the order they were given.
///
/// Reports are golden files, so they must come out byte for byte the same on
/// every run and platform: `JSONSerialization` and `JSONEncoder` do not promise
/// a key order or number format, so reports are built from this type and
/// printed by `rendered()`.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, printed in decimal.
    case int(Int)
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

    /// The value of `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
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
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if items.allSatisfy(\.isScalar) {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    item.write(to: &out, indent: indent)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                item.write(to: &out, indent: indent + 2)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, (key, value)) in pairs.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                JSONValue.escape(key, into: &out)
                out += ": "
                value.write(to: &out, indent: indent + 2)
                out += i + 1 < pairs.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }

    /// Appends `s` as a JSON string literal: quotes, backslashes and control
    /// characters escaped (`\n`, `\r`, `\t`, `\b`, `\f`, otherwise `\u00XX`);
    /// U+2028 and U+2029 escaped too so the output is also safe JavaScript.
    static func escape(_ s: String, into out: inout String) {
        out += "\""
        // Most strings need no escaping: append them whole.
        let plain = s.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F && $0 != 0xE2 }
        if plain {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
