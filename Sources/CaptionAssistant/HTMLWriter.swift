/// Builds an HTML document as UTF-8 bytes, where every string that is not a
/// literal in this program is escaped.
///
/// Markup can only be added as a `StaticString` (`raw`), that is, from the
/// source code; everything else (`text`) is escaped for use both as element
/// content and inside a quoted attribute value: `&`, `<`, `>`, `"` and `'`
/// become character references, and control characters other than tab and
/// newline (and lone carriage returns) become U+FFFD, so no caption or model
/// string can open a tag, close an attribute or hide text.
struct HTMLWriter {
    /// The document so far.
    private(set) var bytes: [UInt8] = []

    /// Creates an empty writer, with room for `capacity` bytes.
    init(capacity: Int = 16 << 10) { bytes.reserveCapacity(capacity) }

    /// Appends markup written in this program.
    mutating func raw(_ markup: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: markup.utf8Start, count: markup.utf8CodeUnitCount))
    }

    /// Appends what another `HTMLWriter` built (so already escaped).
    mutating func fragment(_ built: [UInt8]) { bytes.append(contentsOf: built) }

    /// Appends a whole number.
    mutating func number(_ n: Int) { bytes.append(contentsOf: String(n).utf8) }

    /// Appends `s`, escaped (see the type's summary).
    mutating func text(_ s: String) { Self.escape(s, into: &bytes) }

    /// Appends `s` escaped, as `text` does.
    static func escape(_ s: String, into out: inout [UInt8]) {
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            case 0x09, 0x0A: out.append(b)
            case 0x00..<0x20, 0x7F: out.append(contentsOf: [0xEF, 0xBF, 0xBD])
            default: out.append(b)
            }
        }
    }

    /// `s` escaped, as a string (for tests and small pieces).
    static func escaped(_ s: String) -> String {
        var out: [UInt8] = []
        escape(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A relative URL to `path` (a relative path of folder names separated by
    /// `/`), every part percent-encoded but for unreserved characters, so
    /// nothing in a file name can make it absolute, leave the site, or name a
    /// scheme. `prefix` (such as `../../`) is put before it as it is.
    static func relativeURL(_ path: String, prefix: String = "") -> String {
        var out = prefix
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for (i, part) in parts.enumerated() {
            if i > 0 { out += "/" }
            for b in part.utf8 {
                switch b {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                     UInt8(ascii: "_"), UInt8(ascii: "~"):
                    out.unicodeScalars.append(Unicode.Scalar(b))
                default:
                    let hex = Array("0123456789ABCDEF".unicodeScalars)
                    out += "%"
                    out.unicodeScalars.append(hex[Int(b >> 4)])
                    out.unicodeScalars.append(hex[Int(b & 15)])
                }
            }
        }
        return out
    }
}
