/// A strict reader for the one shape a model's answer usually has: an object
/// whose values are strings or arrays of strings, with no escapes but the
/// simple ones (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`).
///
/// It gives what `JSONSerialization` gives for that shape (a `[String: Any]`
/// of `String` and `[Any]` of `String`), typed (`AnswerField.text` and
/// `.texts`), without Foundation's general parser.
/// Anything else (numbers, literals, nested objects, `\u` escapes, raw
/// control characters, a repeated key, trailing text) makes it answer nil, and
/// the caller asks `JSONSerialization`.
enum FlatJSONObject {
    /// The object in `bytes` (which must be exactly one object), or nil when it is not of the flat shape.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [String: AnswerField]? {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    /// The object in `p` (which must be exactly one object), or nil when it is not of the flat shape.
    static func parse(_ p: UnsafeBufferPointer<UInt8>) -> [String: AnswerField]? {
        var reader = Reader(p: p, i: 0)
        return reader.object()
    }

    private struct Reader {
        let p: UnsafeBufferPointer<UInt8>
        var i: Int

        mutating func skipSpace() {
            while i < p.count, p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09 { i += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard i < p.count, p[i] == byte else { return false }
            i += 1
            return true
        }

        mutating func object() -> [String: AnswerField]? {
            guard take(0x7B) else { return nil }
            var result: [String: AnswerField] = [:]
            if take(0x7D) { return finished(result) }
            while true {
                guard take(0x22), let key = string(), take(0x3A), result[key] == nil else { return nil }
                skipSpace()
                guard i < p.count else { return nil }
                if p[i] == 0x22 {
                    i += 1
                    guard let value = string() else { return nil }
                    result[key] = .text(value)
                } else if p[i] == 0x5B {
                    i += 1
                    var items: [String] = []
                    if !take(0x5D) {
                        while true {
                            guard take(0x22), let item = string() else { return nil }
                            items.append(item)
                            if take(0x5D) { break }
                            guard take(0x2C) else { return nil }
                        }
                    }
                    result[key] = .texts(items)
                } else {
                    return nil
                }
                if take(0x7D) { return finished(result) }
                guard take(0x2C) else { return nil }
            }
        }

        mutating func finished(_ result: [String: AnswerField]) -> [String: AnswerField]? {
            skipSpace()
            return i == p.count ? result : nil
        }

        /// The string whose opening quote was just read; nil when it is not simple.
        mutating func string() -> String? {
            let start = i
            var plain = true
            while i < p.count {
                let b = p[i]
                if b == 0x22 { break }
                if b < 0x20 { return nil }
                if b == 0x5C { plain = false; i += 2; continue }
                i += 1
            }
            guard i < p.count else { return nil }
            defer { i += 1 }
            if plain { return String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self) }
            var out: [UInt8] = []
            var k = start
            while k < i {
                var b = p[k]
                if b == 0x5C {
                    k += 1
                    switch p[k] {
                    case 0x22, 0x5C, 0x2F: b = p[k]
                    case 0x62: b = 0x08
                    case 0x66: b = 0x0C
                    case 0x6E: b = 0x0A
                    case 0x72: b = 0x0D
                    case 0x74: b = 0x09
                    default: return nil
                    }
                }
                out.append(b)
                k += 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
