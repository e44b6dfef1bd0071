import Words

/// Builds an HTML document as UTF-8 bytes, where every string that is not a
/// literal in this program is escaped.
///
/// Markup can only be added as a `StaticString` (`raw`), that is, from the
/// source code; everything else (`text`) is escaped for use both as element
/// content and inside a quoted attribute value: `&`, `<`, `>`, `"` and `'`
/// become character references, and control characters other than tab, line
/// feed and carriage return become U+FFFD, so no caption or model string can
/// open a tag, close an attribute or hide text.
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
    mutating func number(_ n: Int) {
        if n >= 0 && n < 10 { bytes.append(0x30 + UInt8(n)); return }
        bytes.append(contentsOf: String(n).utf8)
    }

    /// Appends a time as `HH:MM:SS.mmm` (rounded to milliseconds, as `CaptionTime.description`
    /// writes it), without making a string.
    mutating func time(milliseconds ms: Int64) {
        if ms < 0 { bytes.append(UInt8(ascii: "-")) }
        let a = ms.magnitude
        let h = a / 3_600_000, m = a / 60_000 % 60, s = a / 1000 % 60, f = a % 1000
        if h >= 100 { bytes.append(contentsOf: String(h / 100).utf8) }
        bytes.append(0x30 + UInt8(h / 10 % 10)); bytes.append(0x30 + UInt8(h % 10)); bytes.append(0x3A)
        bytes.append(0x30 + UInt8(m / 10)); bytes.append(0x30 + UInt8(m % 10)); bytes.append(0x3A)
        bytes.append(0x30 + UInt8(s / 10)); bytes.append(0x30 + UInt8(s % 10)); bytes.append(0x2E)
        bytes.append(0x30 + UInt8(f / 100)); bytes.append(0x30 + UInt8(f / 10 % 10)); bytes.append(0x30 + UInt8(f % 10))
    }

    /// Appends `s`, escaped (see the type's summary).
    mutating func text(_ s: String) { Self.escape(s, into: &bytes) }

    /// Appends the UTF-8 text `utf8` (valid UTF-8, such as a decoded caption
    /// document's bytes), escaped as `text` escapes.
    mutating func text(utf8: ArraySlice<UInt8>) {
        utf8.withUnsafeBufferPointer { Self.escape($0, into: &bytes) }
    }

    /// `text(utf8:)` of the bytes `utf8` points to.
    mutating func text(utf8: UnsafeBufferPointer<UInt8>) { Self.escape(utf8, into: &bytes) }

    /// Appends `s` escaped, as `text` does.
    static func escape(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { escape($0, into: &out) }
    }

    /// Appends the UTF-8 bytes `p` escaped, as `text` does. Runs of bytes that need no
    /// escaping (almost all of them) are copied whole.
    static func escape(_ p: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let n = p.count
        var plainStart = 0
        var i = 0
        guard let base = p.baseAddress else { return }
        while i < n {
            // Eight bytes at a time while none of them needs a look (almost all text).
            if i + 8 <= n, !mayNeedEscaping(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))) {
                i += 8
                continue
            }
            let b = p[i]
            if isPlain(b) {
                i += 1
                continue
            }
            if i > plainStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: p[plainStart..<i])) }
            switch b {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            default: out.append(contentsOf: [0xEF, 0xBF, 0xBD])  // other control characters
            }
            i += 1
            plainStart = i
        }
        if n > plainStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: p[plainStart..<n])) }
    }

    /// Whether any of the eight bytes in `x` may need escaping: a byte below
    /// 0x20, DEL, or one of `&<>"'` (false positives are allowed, they only
    /// send those bytes through `isPlain` one at a time; false negatives are not).
    @inline(__always)
    static func mayNeedEscaping(_ x: UInt64) -> Bool {
        let below20 = (x &- 0x20 &* ByteLanes.ones) & ~x & ByteLanes.highs
        let special = ByteLanes.bytes(x, equalTo: 0x26) | ByteLanes.bytes(x, equalTo: 0x3C) | ByteLanes.bytes(x, equalTo: 0x3E)
            | ByteLanes.bytes(x, equalTo: 0x22) | ByteLanes.bytes(x, equalTo: 0x27) | ByteLanes.bytes(x, equalTo: 0x7F)
        return below20 | special != 0
    }

    /// Whether `b` is copied as it is: not `&`, `<`, `>`, `"`, `'`, DEL, or a
    /// control character other than tab, line feed and carriage return.
    @inline(__always)
    static func isPlain(_ b: UInt8) -> Bool {
        if b >= 0x3F { return b != 0x7F }
        switch b {
        case 0x26, 0x3C, 0x3E, 0x22, 0x27: return false
        case 0x09, 0x0A, 0x0D: return true
        case 0x00..<0x20: return false
        default: return true
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
        let parts = PathText.parts(path, omittingEmpty: false)
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
