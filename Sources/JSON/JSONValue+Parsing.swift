/// Reading JSON: sidecars and report parts for `--resume` and merging, HTTP
/// response bodies, and the JSON object in a model's answer.
///
/// Strict RFC 8259: objects (keys kept in order, a repeated key kept as given),
/// arrays, strings (invalid UTF-8 and lone surrogates refused), numbers
/// (integers that fit `Int` as `.int`, any other as `.number`), booleans and
/// null. Nesting deeper than 64 levels and anything after the value make the
/// text unreadable (nil); a sidecar that cannot be read is simply processed again.
extension JSONValue {
    /// `parse(_:)` of any bytes (a `Data`, a slice of a buffer).
    public static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        parse(Array(bytes))
    }

    /// The value `bytes` hold, or nil when they are not one complete JSON value of the kinds above.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.index == bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth < 64 else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var pairs: [(String, JSONValue)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let item = value(depth: depth + 1) else { return nil }
                    pairs.append((key, item))
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
                    return nil
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    return nil
                }
            case UInt8(ascii: "\""):
                return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        mutating func number() -> JSONValue? {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                return index - from
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            let whole = digits()
            guard whole > 0, whole == 1 || bytes[digitsStart] != 0x30 else { return nil }
            var integral = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
                integral = false
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
                integral = false
            }
            // An integer of up to 18 digits fits Int: added up here, without a String.
            if integral && whole <= 18 {
                var number = 0
                for b in bytes[digitsStart..<index] { number = number * 10 + Int(b - 0x30) }
                return .int(digitsStart > start ? -number : number)
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let number = Int(text) { return .int(number) }
            return Double(text).map { .number($0) }
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for b in bytes[index..<index + 4] {
                let d: UInt8
                switch b {
                case 0x30...0x39: d = b - 0x30
                case 0x41...0x46: d = b - 0x41 + 10
                case 0x61...0x66: d = b - 0x61 + 10
                default: return nil
                }
                v = v << 4 | UInt32(d)
            }
            index += 4
            return v
        }

        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            // Most strings have no escape: made from their bytes in one step.
            var end = index
            var high: UInt8 = 0
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
                high |= bytes[end] & 0x80
                end += 1
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                // ASCII is valid UTF-8 as it is; anything else is checked:
                // invalid UTF-8 would not survive the round trip, so it is refused.
                let text = high == 0 ? String(decoding: bytes[index..<end], as: UTF8.self)
                    : String(validating: bytes[index..<end], as: UTF8.self)
                guard let text else { return nil }
                index = end + 1
                return text
            }
            var out = Array(bytes[index..<end])
            index = end
            while index < bytes.count {
                let b = bytes[index]
                index += 1
                switch b {
                case UInt8(ascii: "\""):
                    // Invalid UTF-8 would not survive the round trip: refuse it.
                    guard let text = String(validating: out, as: UTF8.self) else { return nil }
                    return text
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let e = bytes[index]
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""): out.append(0x22)
                    case UInt8(ascii: "\\"): out.append(0x5C)
                    case UInt8(ascii: "/"): out.append(0x2F)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let u = Unicode.Scalar(scalar) else { return nil }
                        out.append(contentsOf: Array(String(Character(u)).utf8))
                    default: return nil
                    }
                case 0..<0x20: return nil
                default: out.append(b)
                }
            }
            return nil
        }
    }
}
