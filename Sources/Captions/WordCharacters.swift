/// The one definition of a word character, read straight from UTF-8 bytes:
/// keyword emphasis cuts cue text into words with it, and the suggestion
/// decoder keeps a keyword only when `KeywordEmphasis.containsWholeWord(_:in:)`
/// finds it by the same rule, so what is kept can be emphasised.
///
/// A word character is a Unicode scalar that is a letter (L*), a mark (M*,
/// so an accent never ends a word, composed or not), a decimal digit (Nd) or
/// connector punctuation (Pc: `_`, `‿`, `＿`…); anything else (spaces,
/// punctuation, symbols, emoji, ², ½) separates words. Words are compared
/// lower-cased, scalar by scalar (U+212A KELVIN SIGN is "k", ǅ is ǆ);
/// canonically equivalent spellings that differ in their scalars (a
/// precomposed é and e + U+0301) are not taken as the same word.
///
/// `_` joins words, as in identifiers, hashtags and handles
/// (`#rocket_launch`, `@space_x`, `file_name`): emphasising "rocket" inside
/// "rocket_launch" would cut a name in two, and a captioner searching for
/// "rocket" does not mean it. This is also the word of regular expressions
/// (`\w`, Unicode's UTS #18 Annex C: alphabetic, marks, decimal digits,
/// connector punctuation) and of most search tools, so it holds no surprise.
enum WordCharacters {
    @inline(__always)
    static func asciiLower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// Whether an ASCII byte is a word character: a letter, a digit or `_`.
    @inline(__always)
    static func isASCIIWord(_ b: UInt8) -> Bool {
        b &- 0x30 < 10 || (b | 0x20) &- 0x61 < 26 || b == 0x5F
    }

    /// Whether a scalar is a letter, a mark, a decimal digit or connector punctuation.
    static func isWordByProperties(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIIWord(UInt8(scalar.value)) }
        // General Punctuation (dashes, quotes, the ellipsis, spaces): no
        // letter, mark or digit there, and its only connector punctuation is
        // U+203F, U+2040 and U+2054; common in captions, so no lookup.
        if scalar.value >= 0x2000 && scalar.value <= 0x206F {
            return scalar.value == 0x203F || scalar.value == 0x2040 || scalar.value == 0x2054
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation:
            return true
        default:
            return false
        }
    }

    static let wordBit: UInt32 = 1 << 31
    static let noSimpleLowercase: UInt32 = 0x7FFF_FFFF

    /// For every scalar below U+0800 (ASCII and the two-byte UTF-8 range:
    /// Latin, Greek, Cyrillic, Hebrew, Arabic…): whether it is a word
    /// character (`wordBit`) and its lower-case scalar (or `noSimpleLowercase`
    /// when lower-casing gives more than one scalar), so the common scripts
    /// never need `String.lowercased()` or a Unicode property lookup per character.
    static let twoByteTable: [UInt32] = (0..<0x800).map { (v: UInt32) -> UInt32 in
        guard let scalar = Unicode.Scalar(v) else { return noSimpleLowercase }
        var entry: UInt32 = isWordByProperties(scalar) ? wordBit : 0
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        entry |= lower.count == 1 ? (lower.first?.value ?? noSimpleLowercase) : noSimpleLowercase
        return entry
    }

    /// Whether the character at byte `i` is a word character, and its length in bytes.
    /// Bytes that are not valid UTF-8 count as one-byte non-word characters.
    @inline(__always)
    static func classify(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Bool, Int) {
        let b = p[i]
        if b < 0x80 { return (isASCIIWord(b), 1) }
        let n = p.count
        if b >= 0xC2 && b <= 0xDF {
            guard i + 1 < n, p[i + 1] & 0xC0 == 0x80 else { return (false, 1) }
            let v = Int(b & 0x1F) << 6 | Int(p[i + 1] & 0x3F)
            return (twoByteTable[v] & wordBit != 0, 2)
        }
        var value: UInt32
        var len: Int
        switch b {
        case 0xE0...0xEF: len = 3; value = UInt32(b & 0x0F)
        case 0xF0...0xF4: len = 4; value = UInt32(b & 0x07)
        default: return (false, 1)
        }
        guard i + len <= n else { return (false, 1) }
        for k in 1..<len {
            let c = p[i + k]
            guard c & 0xC0 == 0x80 else { return (false, 1) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return (false, 1) }
        return (isWordByProperties(scalar), len)
    }

    /// Lower-cases the word at `r` into `out` (replacing its contents).
    ///
    /// ASCII and two-byte characters with a one-scalar lower case are mapped
    /// through the table; a word with anything else goes through `String.lowercased()`.
    static func fold(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, ascii: Bool, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        if ascii {
            for j in r { out.append(asciiLower(p[j])) }
            return
        }
        var j = r.lowerBound
        while j < r.upperBound {
            let b = p[j]
            if b < 0x80 { out.append(asciiLower(b)); j += 1; continue }
            if b >= 0xC2 && b <= 0xDF && j + 1 < r.upperBound {
                let lower = twoByteTable[Int(b & 0x1F) << 6 | Int(p[j + 1] & 0x3F)] & ~wordBit
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
}
