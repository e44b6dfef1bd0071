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
    @inline(__always)
    static func end(of i: Int, in p: UnsafeBufferPointer<UInt8>, text: String) -> Int {
        let b = p[i]
        if b < 0x80 {
            let next = i + 1
            if next == p.count { return next }
            let c = p[next]
            if c < 0x80 { return b == 0x0D && c == 0x0A ? next + 1 : next }
        }
        return slowEnd(of: i, text: text)
    }

    /// The end of the cluster at `i`, as the standard library sees it.
    static func slowEnd(of i: Int, text: String) -> Int {
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: i)
        return utf8.distance(from: utf8.startIndex, to: text.index(after: start))
    }

    /// Whether the `Character` at `r` is the single ASCII byte there.
    @inline(__always)
    static func isSingleASCII(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        r.count == 1 && p[r.lowerBound] < 0x80
    }

    /// The `Character` at `r` (a whole cluster), for the slow paths.
    static func character(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Character {
        String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self).first ?? " "
    }

    /// The `String` of the bytes at `r`.
    static func string(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self)
    }

    @inline(__always)
    static func asciiLower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    @inline(__always)
    static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }

    /// Byte-wise search for `needle` in `p`, from `from`; the offset of the first match.
    static func firstOffset(of needle: [UInt8], in p: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        guard let head = needle.first, p.count >= needle.count else { return nil }
        var i = from
        let last = p.count - needle.count
        while i <= last {
            if p[i] == head {
                var k = 1
                while k < needle.count && p[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Byte-wise search for the last `needle` in `p`; the offset of its start.
    static func lastOffset(of needle: [UInt8], in p: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let head = needle.first, p.count >= needle.count else { return nil }
        var i = p.count - needle.count
        while i >= 0 {
            if p[i] == head {
                var k = 1
                while k < needle.count && p[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i -= 1
        }
        return nil
    }
}
