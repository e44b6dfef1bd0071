#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Words

/// Walks a string's `Character`s (grapheme clusters) by UTF-8 offset, with no
/// per-character `String` or `Character` work where the text is ASCII.
///
/// An ASCII byte followed by another ASCII byte (or the end) is a whole
/// `Character` on its own, except CR LF, which is one `Character` of two bytes:
/// no grapheme rule joins two ASCII scalars other than CR LF, and a cluster that
/// ends in front of an ASCII scalar never reaches into it except through
/// Prepend characters, which are never ASCII and are handled by the slow step.
/// Anywhere else (an ASCII byte followed by a non-ASCII one, or a non-ASCII
/// byte) the standard library finds the end of the cluster, so the result is
/// always exactly `Array(text)`'s clusters.
enum CharacterSteps {
    /// Calls `body` with the text's UTF-8 bytes (and the text itself, for the slow step).
    static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>, String) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable({ body($0, text) }) { return result }
        var copy = text
        copy.makeContiguousUTF8()
        if let result = copy.utf8.withContiguousStorageIfAvailable({ body($0, copy) }) { return result }
        return Array(copy.utf8).withUnsafeBufferPointer { body($0, copy) }
    }

    /// The UTF-8 offset where the `Character` starting at offset `i` ends.
    /// `i` must be the start of a `Character` (0, or the end of the previous one).
    ///
    /// Besides ASCII, "simple" scalars (`simpleLength`) are taken one by one
    /// when their neighbours are ASCII or simple too: none of them is Extend,
    /// ZWJ, SpacingMark, Prepend, Regional Indicator or Hangul, so no grapheme
    /// rule joins such a scalar with an ASCII or simple one on either side.
    @inline(__always)
    static func end(of i: Int, in p: UnsafeBufferPointer<UInt8>, text: String) -> Int {
        let b = p[i]
        let next: Int
        if b < 0x80 {
            next = i + 1
            if next == p.count { return next }
            let c = p[next]
            if c < 0x80 { return b == 0x0D && c == 0x0A ? next + 1 : next }
        } else {
            let length = simpleLength(p, i)
            if length == 0 { return slowEnd(of: i, text: text) }
            next = i + length
            if next == p.count || p[next] < 0x80 { return next }
        }
        return simpleLength(p, next) != 0 ? next : slowEnd(of: i, text: text)
    }

    /// The UTF-8 length of the scalar at `i` when it is "simple" (U+00A0–U+02FF:
    /// Latin-1 letters and signs, Latin Extended, IPA, spacing modifiers; or
    /// U+2010–U+2027: dashes, quotation marks, bullets, the ellipsis), else 0.
    /// The text is valid UTF-8 (it comes from a `String`).
    @inline(__always)
    static func simpleLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let b = p[i]
        if b &- 0xC3 < 9 { return 2 }  // C3–CB: U+00C0–U+02FF
        if b == 0xC2 { return i + 1 < p.count && p[i + 1] >= 0xA0 ? 2 : 0 }
        if b == 0xE2 && i + 2 < p.count && p[i + 1] == 0x80 && p[i + 2] &- 0x90 < 0x18 { return 3 }
        return 0
    }

    /// Whether the eight bytes at `i` are eight `Character`s: all ASCII, no CR
    /// (which could start a CR LF), and followed by an ASCII byte (so the
    /// last of them is not the start of a cluster with a non-ASCII scalar).
    @inline(__always)
    static func eightSingleASCII(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        guard i + 8 < p.count, let base = p.baseAddress else { return false }
        return p[i + 8] < 0x80 && ByteLanes.eightSingleASCII(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
    }

    /// How many `Character`s `text` holds (`text.count`), stepped as `end(of:in:text:)` steps them.
    static func count(_ text: String) -> Int {
        withBytes(text) { p, text in
            var i = 0, n = 0
            while i < p.count {
                if eightSingleASCII(p, i) { i += 8; n += 8; continue }
                i = end(of: i, in: p, text: text)
                n += 1
            }
            return n
        }
    }

    /// The end of the cluster at `i`, as the standard library sees it.
    static func slowEnd(of i: Int, text: String) -> Int {
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: i)
        return utf8.distance(from: utf8.startIndex, to: text.index(after: start))
    }

    /// The `String` of the bytes at `r`.
    static func string(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self)
    }

    /// Byte-wise search for `needle` in `p`; the offset of the first match.
    static func firstOffset(of needle: [UInt8], in p: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let head = needle.first, p.count >= needle.count, let base = p.baseAddress else { return nil }
        var i = 0
        let last = p.count - needle.count
        while i <= last {
            guard let hit = memchr(base + i, Int32(head), last + 1 - i) else { return nil }
            i = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            var k = 1
            while k < needle.count && p[i + k] == needle[k] { k += 1 }
            if k == needle.count { return i }
            i += 1
        }
        return nil
    }
}
