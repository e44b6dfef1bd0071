/// HTML character references in WebVTT cue text (`&amp;`, `&#233;`, `&#xE9;`).
///
/// This is our own short table of the references caption files use, not the
/// full HTML table (over 2,000 names): the markup escapes (`amp lt gt quot
/// apos`), spaces and direction marks (`nbsp lrm rlm` …), typographic quotes
/// and dashes, and the Latin-1 letters. A name not in the table is left in
/// the text exactly as written (as HTML does for unknown names), and the
/// reader warns about it. Numeric references are decoded by the HTML rules:
/// 0, surrogates and values past U+10FFFF become U+FFFD, and 0x80–0x9F map
/// through Windows-1252.
///
/// The same decoder serves the reader (building `TextRun.text`) and the
/// writer (mapping a plain-text offset back to raw bytes), so the two agree.
enum WebVTTEntities {
    /// Name → (scalar value, decoded without a semicolon as legacy HTML does).
    static let table: [String: (UInt32, Bool)] = [
        "amp": (0x26, true), "lt": (0x3C, true), "gt": (0x3E, true), "quot": (0x22, true),
        "apos": (0x27, false), "nbsp": (0xA0, true), "lrm": (0x200E, false), "rlm": (0x200F, false),
        "ensp": (0x2002, false), "emsp": (0x2003, false), "thinsp": (0x2009, false),
        "zwnj": (0x200C, false), "zwj": (0x200D, false),
        "ndash": (0x2013, false), "mdash": (0x2014, false), "hellip": (0x2026, false),
        "lsquo": (0x2018, false), "rsquo": (0x2019, false), "sbquo": (0x201A, false),
        "ldquo": (0x201C, false), "rdquo": (0x201D, false), "bdquo": (0x201E, false),
        "laquo": (0xAB, true), "raquo": (0xBB, true), "lsaquo": (0x2039, false), "rsaquo": (0x203A, false),
        "bull": (0x2022, false), "middot": (0xB7, true), "trade": (0x2122, false),
        "copy": (0xA9, true), "reg": (0xAE, true), "deg": (0xB0, true), "euro": (0x20AC, false),
        "pound": (0xA3, true), "yen": (0xA5, true), "cent": (0xA2, true), "sect": (0xA7, true),
        "para": (0xB6, true), "iexcl": (0xA1, true), "iquest": (0xBF, true), "times": (0xD7, true),
        "divide": (0xF7, true), "plusmn": (0xB1, true), "frac12": (0xBD, true), "frac14": (0xBC, true),
        "frac34": (0xBE, true), "shy": (0xAD, true), "micro": (0xB5, true), "sup2": (0xB2, true),
        "sup3": (0xB3, true), "dagger": (0x2020, false), "Dagger": (0x2021, false), "prime": (0x2032, false),
        "Agrave": (0xC0, true), "Aacute": (0xC1, true), "Acirc": (0xC2, true), "Atilde": (0xC3, true),
        "Auml": (0xC4, true), "Aring": (0xC5, true), "AElig": (0xC6, true), "Ccedil": (0xC7, true),
        "Egrave": (0xC8, true), "Eacute": (0xC9, true), "Ecirc": (0xCA, true), "Euml": (0xCB, true),
        "Igrave": (0xCC, true), "Iacute": (0xCD, true), "Icirc": (0xCE, true), "Iuml": (0xCF, true),
        "ETH": (0xD0, true), "Ntilde": (0xD1, true), "Ograve": (0xD2, true), "Oacute": (0xD3, true),
        "Ocirc": (0xD4, true), "Otilde": (0xD5, true), "Ouml": (0xD6, true), "Oslash": (0xD8, true),
        "Ugrave": (0xD9, true), "Uacute": (0xDA, true), "Ucirc": (0xDB, true), "Uuml": (0xDC, true),
        "Yacute": (0xDD, true), "THORN": (0xDE, true), "szlig": (0xDF, true),
        "agrave": (0xE0, true), "aacute": (0xE1, true), "acirc": (0xE2, true), "atilde": (0xE3, true),
        "auml": (0xE4, true), "aring": (0xE5, true), "aelig": (0xE6, true), "ccedil": (0xE7, true),
        "egrave": (0xE8, true), "eacute": (0xE9, true), "ecirc": (0xEA, true), "euml": (0xEB, true),
        "igrave": (0xEC, true), "iacute": (0xED, true), "icirc": (0xEE, true), "iuml": (0xEF, true),
        "eth": (0xF0, true), "ntilde": (0xF1, true), "ograve": (0xF2, true), "oacute": (0xF3, true),
        "ocirc": (0xF4, true), "otilde": (0xF5, true), "ouml": (0xF6, true), "oslash": (0xF8, true),
        "ugrave": (0xF9, true), "uacute": (0xFA, true), "ucirc": (0xFB, true), "uuml": (0xFC, true),
        "yacute": (0xFD, true), "thorn": (0xFE, true), "yuml": (0xFF, true),
        "OElig": (0x152, false), "oelig": (0x153, false), "Scaron": (0x160, false), "scaron": (0x161, false),
        "Yuml": (0x178, false), "fnof": (0x192, false),
    ]

    /// The longest name in `table`, to bound the scan of a name.
    static let longestName = 8

    /// The result of looking at an `&`.
    enum Reference {
        /// A character reference: its scalar and how many raw bytes it spans (from the `&`).
        case decoded(UInt32, rawLength: Int)
        /// `&name;` with a name this table does not know (kept as written).
        case unknownName(String)
        /// Not a reference at all: the `&` is a literal ampersand.
        case none
    }

    /// Looks at the reference starting at `p[i]` (which is `&`), reading no further than `end`.
    static func reference(_ p: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Reference {
        var j = i + 1
        guard j < end else { return .none }
        if p[j] == UInt8(ascii: "#") {
            j += 1
            var hex = false
            if j < end, p[j] == UInt8(ascii: "x") || p[j] == UInt8(ascii: "X") { hex = true; j += 1 }
            let digitsStart = j
            var value: UInt32 = 0
            while j < end, let d = digitValue(p[j], hex: hex) {
                // Saturate: anything past U+10FFFF becomes U+FFFD anyway.
                value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + d
                j += 1
            }
            if j == digitsStart { return .none }
            if j < end, p[j] == UInt8(ascii: ";") { j += 1 }
            return .decoded(numericScalar(value), rawLength: j - i)
        }
        let nameStart = j
        while j < end, j - nameStart <= 32, isAlphanumeric(p[j]) { j += 1 }
        if j == nameStart { return .none }
        let name = String(decoding: UnsafeBufferPointer(rebasing: p[nameStart..<j]), as: UTF8.self)
        if j < end, p[j] == UInt8(ascii: ";"), let (v, _) = table[name] {
            return .decoded(v, rawLength: j + 1 - i)
        }
        // Legacy names decode without a semicolon, longest prefix first (`&ampx` is `&x`).
        var k = min(j, nameStart + longestName)
        while k > nameStart {
            let prefix = String(decoding: UnsafeBufferPointer(rebasing: p[nameStart..<k]), as: UTF8.self)
            if let (v, legacy) = table[prefix], legacy { return .decoded(v, rawLength: k - i) }
            k -= 1
        }
        if j < end, p[j] == UInt8(ascii: ";") { return .unknownName(name) }
        return .none
    }

    /// How many UTF-8 bytes a scalar value takes.
    @inline(__always)
    static func utf8Length(_ v: UInt32) -> Int { v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4 }

    /// One unit of raw cue text, as the reader decodes it.
    ///
    /// Returns the raw length and the decoded UTF-8 length of the unit at `i`:
    /// a character reference, a NUL (read as U+FFFD), an invalid UTF-8 byte
    /// (read as U+FFFD), or one valid character.
    @inline(__always)
    static func unit(_ p: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> (raw: Int, plain: Int, scalar: UInt32?) {
        let b = p[i]
        if b == UInt8(ascii: "&"), case let .decoded(v, len) = reference(p, at: i, end: end) {
            return (len, utf8Length(v), v)
        }
        if b == 0 { return (1, 3, 0xFFFD) }
        if b < 0x80 { return (1, 1, nil) }
        let len = validLength(p, at: i, end: end)
        return len == 0 ? (1, 3, 0xFFFD) : (len, len, nil)
    }

    /// Maps a UTF-8 offset in a text run's decoded text to the offset in its
    /// raw bytes (relative to the slice start). An offset inside a decoded
    /// unit maps to the unit's start; one past the end maps to the raw end.
    static func rawOffset(_ raw: ArraySlice<UInt8>, plainOffset: Int) -> Int {
        var cursor = TextCueSplicer.OffsetCursor()
        return rawOffset(raw, plainOffset: plainOffset, cursor: &cursor)
    }

    /// `rawOffset(_:plainOffset:)` resumed from `cursor` (a unit boundary
    /// already mapped) when it is not past `plainOffset`; the cursor is left at
    /// the unit boundary returned, so offsets asked in order cost one walk in all.
    static func rawOffset(_ raw: ArraySlice<UInt8>, plainOffset: Int, cursor: inout TextCueSplicer.OffsetCursor) -> Int {
        if cursor.plain > plainOffset || cursor.raw > raw.count { cursor = TextCueSplicer.OffsetCursor() }
        return raw.withUnsafeBufferPointer { p in
            var i = cursor.raw, plain = cursor.plain
            defer { cursor = TextCueSplicer.OffsetCursor(plain: plain, raw: i) }
            while i < p.count {
                if plain >= plainOffset { return i }
                let u = unit(p, at: i, end: p.count)
                if plain + u.plain > plainOffset { return i }
                plain += u.plain; i += u.raw
            }
            return p.count
        }
    }

    /// The length of the valid UTF-8 sequence at `i` that ends before `end`, or 0.
    @inline(__always)
    static func validLength(_ p: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> Int {
        let len = UTF8Check.sequenceLength(p, i)
        return i + len <= end ? len : 0
    }

    private static func numericScalar(_ v: UInt32) -> UInt32 {
        if v == 0 || v > 0x10FFFF || (0xD800...0xDFFF).contains(v) { return 0xFFFD }
        if (0x80...0x9F).contains(v) { return Windows1252.high[Int(v) - 0x80] }
        return v
    }

    @inline(__always)
    private static func digitValue(_ b: UInt8, hex: Bool) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    @inline(__always)
    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
    }
}
