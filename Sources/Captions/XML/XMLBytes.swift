#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounds-checked view of an XML document's UTF-8 bytes, with the small
/// byte-level questions the tokenizer and the TTML reader ask of them:
/// comparing ranges with names, decoding character and entity references,
/// and copying a range into a `String`.
///
/// It holds a pointer, so it must not outlive the `withUnsafeBufferPointer`
/// call that made it. Every access is bounds-checked: input that somehow
/// slipped past the well-formedness check cannot make it trap.
struct XMLBytes {
    let p: UnsafeBufferPointer<UInt8>
    let n: Int

    init(_ p: UnsafeBufferPointer<UInt8>) {
        self.p = p
        n = p.count
    }

    /// The byte at `k`, or 0 outside the document.
    @inline(__always) func at(_ k: Int) -> UInt8 { k >= 0 && k < n ? p[k] : 0 }

    /// Whether `b` is XML white space (space, tab, LF, CR).
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Whether the bytes at `k` are `s`.
    func starts(_ k: Int, _ s: StaticString) -> Bool {
        let count = s.utf8CodeUnitCount
        guard k >= 0, k + count <= n else { return false }
        let q = s.utf8Start
        for j in 0..<count where p[k + j] != q[j] { return false }
        return true
    }

    /// Whether the bytes of `r` are exactly `s`.
    func equals(_ r: Range<Int>, _ s: StaticString) -> Bool {
        r.count == s.utf8CodeUnitCount && starts(r.lowerBound, s)
    }

    /// Whether two ranges hold the same bytes.
    func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for j in 0..<a.count where at(a.lowerBound + j) != at(b.lowerBound + j) { return false }
        return true
    }

    /// `r` clamped to the document.
    @inline(__always) func clamped(_ r: Range<Int>) -> Range<Int> {
        let lo = max(0, min(r.lowerBound, n)), hi = max(lo, min(r.upperBound, n))
        return lo..<hi
    }

    /// The raw bytes of `r` (clamped), without copying.
    func slice(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: p[clamped(r)])
    }

    /// The raw bytes of `r` as a string (no references decoded).
    func string(_ r: Range<Int>) -> String { String(decoding: slice(r), as: UTF8.self) }

    /// A copy of the raw bytes of `r`.
    func bytes(_ r: Range<Int>) -> [UInt8] { Array(slice(r)) }

    /// The index of the first `byte` at or after `k`.
    func find(_ byte: UInt8, from k: Int) -> Int? {
        guard k >= 0, k < n, let base = p.baseAddress else { return nil }
        guard let hit = memchr(base + k, Int32(byte), n - k) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// The index just past the first `end` at or after `k` (the document's end if there is none).
    func skip(past end: StaticString, from k: Int) -> Int {
        var j = k
        while let lt = find(end.utf8Start.pointee, from: j) {
            if starts(lt, end) { return lt + end.utf8CodeUnitCount }
            j = lt + 1
        }
        return n
    }

    /// Decodes a character or entity reference at `k` (which holds `&`): the scalar and the reference's length.
    func reference(at k: Int, limit: Int) -> (scalar: UInt32, length: Int)? {
        var j = k + 1
        let stop = min(limit, k + 12, n)
        while j < stop, p[j] != UInt8(ascii: ";") { j += 1 }
        guard j < stop else { return nil }
        let body = (k + 1)..<j
        let length = j + 1 - k
        if at(k + 1) == UInt8(ascii: "#") {
            var value: UInt32 = 0
            var m = k + 2
            let hex = at(m) == UInt8(ascii: "x")
            if hex { m += 1 }
            guard m < j else { return nil }
            while m < j {
                let c = p[m]
                let digit: UInt32
                switch c {
                case 0x30...0x39: digit = UInt32(c - 0x30)
                case 0x61...0x66 where hex: digit = UInt32(c - 0x61 + 10)
                case 0x41...0x46 where hex: digit = UInt32(c - 0x41 + 10)
                default: return nil
                }
                value = value * (hex ? 16 : 10) + digit
                if value > 0x10FFFF { return nil }
                m += 1
            }
            guard Unicode.Scalar(value) != nil else { return nil }
            return (value, length)
        }
        if equals(body, "lt") { return (0x3C, length) }
        if equals(body, "gt") { return (0x3E, length) }
        if equals(body, "amp") { return (0x26, length) }
        if equals(body, "quot") { return (0x22, length) }
        if equals(body, "apos") { return (0x27, length) }
        return nil
    }

    /// An attribute value with references decoded and white space normalised to spaces.
    func decodedValue(_ r: Range<Int>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(r.count)
        var k = r.lowerBound
        while k < r.upperBound {
            let b = at(k)
            if b == UInt8(ascii: "&"), let ref = reference(at: k, limit: r.upperBound) {
                UTF8Repair.appendScalar(ref.scalar, to: &out)
                k += ref.length
            } else if b == 0x0D && at(k + 1) == 0x0A {
                out.append(0x20); k += 2
            } else {
                out.append(XMLBytes.isSpace(b) ? 0x20 : b); k += 1
            }
        }
        return out
    }

    /// An attribute value, decoded (`decodedValue`), as a string.
    func decodedString(_ r: Range<Int>) -> String { String(decoding: decodedValue(r), as: UTF8.self) }
}
