/// Lines: finding each line and its end (eight bytes at a time), and what
/// a line holds (blank, an arrow, a cue number).
extension SRTReader {
    @inline(__always)
    func line(at start: Int, number: Int) -> Line {
        var i = start
        while i < count {
            // Eight bytes at a time up to the first byte below 0x0E (LF and CR are 0x0A and 0x0D).
            if i + 8 <= count, let base = p.baseAddress {
                let flags = Self.below0E(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                if flags == 0 { i += 8; continue }
                i += flags.trailingZeroBitCount >> 3
            }
            let b = p[i]
            if b <= 13 {
                if b == 10 { return Line(start: start, end: i, next: i + 1, number: number) }
                if b == 13 {
                    let next = (i + 1 < count && p[i + 1] == 10) ? i + 2 : i + 1
                    return Line(start: start, end: i, next: next, number: number)
                }
            }
            i += 1
        }
        return Line(start: start, end: count, next: count, number: number)
    }

    /// The high bit of each byte of `x` below 0x0E; exact for the lowest such
    /// byte (a borrow only ever flags bytes above a flagged one).
    @inline(__always)
    static func below0E(_ x: UInt64) -> UInt64 {
        (x &- 0x0E0E_0E0E_0E0E_0E0E) & ~x & 0x8080_8080_8080_8080
    }

    /// The high bit of each byte of `x` equal to the byte repeated in `pattern` (exact).
    @inline(__always)
    static func equal(_ x: UInt64, _ pattern: UInt64) -> UInt64 {
        let y = x ^ pattern
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((y & low) &+ low) | y | low)
    }

    @inline(__always)
    func nextLine(after l: Line) -> Line? {
        l.next < count ? line(at: l.next, number: l.number + 1) : nil
    }

    @inline(__always)
    func isBlank(_ l: Line) -> Bool {
        var i = l.start
        while i < l.end {
            let b = p[i]
            if b != 0x20 && b != 0x09 && b != 0x0C { return false }
            i += 1
        }
        return true
    }

    @inline(__always)
    func hasArrow(_ l: Line) -> Bool {
        var i = l.start
        while i + 2 < l.end {
            if p[i] == 0x2D && p[i + 1] == 0x2D && p[i + 2] == 0x3E { return true }
            i += 1
        }
        return false
    }

    func string(_ a: Int, _ b: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[a..<b]), as: UTF8.self)
    }

    /// The line's content with spaces and tabs trimmed from both ends.
    func trimmed(_ l: Line) -> (Int, Int) {
        var a = l.start, b = l.end
        while a < b, p[a] == 0x20 || p[a] == 0x09 { a += 1 }
        while b > a, p[b - 1] == 0x20 || p[b - 1] == 0x09 { b -= 1 }
        return (a, b)
    }

    /// The line read as a (possibly signed) cue number, or nil when it is not one or does not fit.
    func cueNumber(_ l: Line) -> Int64? {
        var (a, b) = trimmed(l)
        guard a < b else { return nil }
        var negative = false
        if p[a] == 0x2D || p[a] == 0x2B { negative = p[a] == 0x2D; a += 1 }
        guard a < b else { return nil }
        var value: Int64 = 0
        while a < b {
            let d = p[a] &- 0x30
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            value = s
            a += 1
        }
        return negative ? -value : value
    }
}
