/// How two words are compared: lower-cased, scalar by scalar (U+212A KELVIN
/// SIGN is "k", ǅ is ǆ); canonically equivalent spellings that differ in
/// their scalars (a precomposed é and e + U+0301) are not taken as the same word.
enum WordFold {
    @inline(__always)
    static func asciiLower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// For every scalar below U+0800 (ASCII and the two-byte UTF-8 range:
    /// Latin, Greek, Cyrillic, Hebrew, Arabic…): its lower-case scalar, or
    /// `noSimpleLowercase` when lower-casing gives more than one scalar, so
    /// the common scripts never need `String.lowercased()`.
    static let noSimpleLowercase: UInt32 = 0x7FFF_FFFF
    static let twoByteLower: [UInt32] = (0..<0x800).map { (v: UInt32) -> UInt32 in
        guard let scalar = Unicode.Scalar(v) else { return noSimpleLowercase }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? (lower.first?.value ?? noSimpleLowercase) : noSimpleLowercase
    }

    /// Lower-cases the bytes at `r` (one word, valid UTF-8) into `out`, replacing its contents.
    ///
    /// ASCII and two-byte characters with a one-scalar lower case are mapped
    /// directly; a word with anything else goes through `String.lowercased()`.
    static func fold(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var j = r.lowerBound
        while j < r.upperBound {
            let b = p[j]
            if b < 0x80 { out.append(asciiLower(b)); j += 1; continue }
            if b >= 0xC2 && b <= 0xDF && j + 1 < r.upperBound {
                let lower = twoByteLower[Int(b & 0x1F) << 6 | Int(p[j + 1] & 0x3F)]
                if lower < 0x80 { out.append(UInt8(lower)); j += 2; continue }
                if lower < 0x800 {
                    out.append(0xC0 | UInt8(lower >> 6)); out.append(0x80 | UInt8(lower & 0x3F)); j += 2; continue
                }
            }
            out.removeAll(keepingCapacity: true)
            out.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self).lowercased().utf8)
            return
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
