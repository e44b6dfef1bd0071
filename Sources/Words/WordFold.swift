#if canImport(_FoundationICU)
internal import _FoundationICU
#endif

/// How two words are compared: lower-cased, scalar by scalar (U+212A KELVIN
/// SIGN is "k", ǅ is ǆ, İ is i + U+0307); canonically equivalent spellings
/// that differ in their scalars (a precomposed é and e + U+0301) are not taken
/// as the same word. Since each scalar is lower-cased on its own, a word
/// lower-cased alone is a part of its text lower-cased whole (`lowered`).
enum WordFold {
    @inline(__always)
    static func asciiLower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// For every scalar below U+0800 (ASCII and the two-byte UTF-8 range:
    /// Latin, Greek, Cyrillic, Hebrew, Arabic…): its lower-case scalar, or
    /// `noSimpleLowercase` when lower-casing gives more than one scalar (İ).
    static let noSimpleLowercase: UInt32 = 0x7FFF_FFFF
    static let twoByteLower: [UInt32] = (0..<0x800).map { (v: UInt32) -> UInt32 in
        guard let scalar = Unicode.Scalar(v) else { return noSimpleLowercase }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? (lower.first?.value ?? noSimpleLowercase) : noSimpleLowercase
    }

    /// Lower-cases the bytes at `r` (one word) into `out`, replacing its contents.
    static func fold(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        appendLowered(p, r, to: &out)
    }

    /// `text` lower-cased whole, scalar by scalar as `fold` does (bytes that
    /// are not valid UTF-8 are kept as they are).
    static func lowered(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        appendLowered(text, 0..<text.count, to: &out)
        return out
    }

    /// Appends the bytes at `r` lower-cased: ASCII and two-byte characters with
    /// a one-scalar lower case through the table, the rest one scalar at a
    /// time (`appendLower(_:to:)`).
    private static func appendLowered(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, to out: inout [UInt8]) {
        var j = r.lowerBound
        while j < r.upperBound {
            let b = p[j]
            if b < 0x80 { out.append(asciiLower(b)); j += 1; continue }
            guard let (value, length) = KeywordPattern.scalar(p, j), j + length <= r.upperBound else {
                out.append(b); j += 1
                continue
            }
            if value < 0x800 {
                let lower = twoByteLower[Int(value)]
                if lower != noSimpleLowercase { appendUTF8(lower, to: &out); j += length; continue }
            } else {
                #if canImport(_FoundationICU)
                // ICU's simple lower case: one scalar for every scalar from U+0800 on
                // (the one multi-scalar lower case, İ's, is below it).
                let lower = UInt32(bitPattern: swift_u_tolower(UChar32(bitPattern: value)))
                if lower == value {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: p[j..<j + length]))
                } else {
                    appendUTF8(lower, to: &out)
                }
                j += length
                continue
                #endif
            }
            if let scalar = Unicode.Scalar(value) { out.append(contentsOf: String(scalar).lowercased().utf8) }
            j += length
        }
    }

    /// Appends the UTF-8 form of the scalar value `v`.
    @inline(__always)
    private static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case 0..<0x80:
            out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(0xC0 | UInt8(v >> 6)); out.append(0x80 | UInt8(v & 0x3F))
        case 0x800..<0x10000:
            out.append(0xE0 | UInt8(v >> 12)); out.append(0x80 | UInt8(v >> 6 & 0x3F)); out.append(0x80 | UInt8(v & 0x3F))
        default:
            out.append(0xF0 | UInt8(v >> 18)); out.append(0x80 | UInt8(v >> 12 & 0x3F))
            out.append(0x80 | UInt8(v >> 6 & 0x3F)); out.append(0x80 | UInt8(v & 0x3F))
        }
    }

    /// Whether the bytes at `r` fold to `word` (ASCII compared byte by byte; others folded into `scratch`).
    @inline(__always)
    static func equal(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ word: [UInt8], scratch: inout [UInt8]) -> Bool {
        var k = 0
        for j in r {
            let b = p[j]
            if b >= 0x80 {
                fold(p, r, into: &scratch)
                return scratch == word
            }
            if k >= word.count || asciiLower(b) != word[k] { return false }
            k += 1
        }
        return k == word.count
    }
}
