#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes an object in pieces, for an object with one list too long to hold
/// in memory (the writing side of `JSONStream`): the keys before the list, the
/// list's elements one at a time, then the keys after it.
///
/// The pieces together are the bytes `JSONValue.renderedBytes()` prints for
/// the whole object, provided the elements are objects or lists (a list of
/// scalars alone is printed on one line).
public enum JSONStreamWriter {
    /// Everything up to and including the list's `[`: the object's `{`, the
    /// keys `before` with their values, and the list's key `list`.
    public static func opening(_ before: [(String, JSONValue)], list: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (key, value) in before {
            appendKey(key, to: &out)
            value.write(to: &out, indent: 2)
            out.append(UInt8(ascii: ","))
        }
        appendKey(list, to: &out)
        out.append(UInt8(ascii: "["))
        return out
    }

    /// What comes before an element of the list (`first`: before the first one).
    public static func separator(first: Bool) -> [UInt8] { Array((first ? "\n    " : ",\n    ").utf8) }

    /// Appends `element` as the whole object's rendering holds it (after its `separator`).
    public static func append(element: JSONValue, to out: inout [UInt8]) {
        element.write(to: &out, indent: 4)
    }

    /// `element` as the whole object's rendering holds it.
    public static func element(_ element: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        append(element: element, to: &out)
        return out
    }

    /// `element(value)` made from `value.renderedBytes()` (the value printed
    /// on its own, as a sidecar is), without printing the value again: the
    /// final newline dropped, and every line after the first moved four
    /// spaces in. (A printed value has no line break but its layout's: a
    /// string's are escaped.)
    public static func element(rendered: [UInt8]) -> [UInt8] {
        let end = rendered.last == 0x0A ? rendered.count - 1 : rendered.count
        var out: [UInt8] = []
        out.reserveCapacity(end + end / 8)
        rendered.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < end {
                guard let raw = memchr(base + start, 0x0A, end - start) else { break }
                let newline = UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)) - base
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...newline]))
                out.append(contentsOf: [0x20, 0x20, 0x20, 0x20])
                start = newline + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        return out
    }

    /// Everything after the last element: the list's `]` (`empty`: the list
    /// had no element), the keys `after` with their values, the object's `}`
    /// and the final newline.
    public static func closing(_ after: [(String, JSONValue)], empty: Bool) -> [UInt8] {
        var out = Array((empty ? "]" : "\n  ]").utf8)
        for (key, value) in after {
            out.append(UInt8(ascii: ","))
            appendKey(key, to: &out)
            value.write(to: &out, indent: 2)
        }
        out += Array("\n}\n".utf8)
        return out
    }

    /// `\n  "key": `.
    private static func appendKey(_ key: String, to out: inout [UInt8]) {
        out += Array("\n  ".utf8)
        JSONValue.escape(key, into: &out)
        out += Array(": ".utf8)
    }
}
