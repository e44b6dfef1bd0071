/// Maps a UTF-8 offset in a TTML text run's plain text back to an offset in
/// its raw bytes, where references (`&amp;`, `&#233;`) and collapsed
/// whitespace make the two differ.
///
/// The run's plain text was built from the raw bytes by decoding references
/// and, under `xml:space="default"`, turning each stretch of whitespace into at
/// most one space. Walking both in step is unambiguous: a stretch of raw
/// whitespace gives at most one plain whitespace character per raw whitespace
/// character, and only where the plain text has one.
enum TTMLTextAlignment {
    /// Where to put a boundary when several raw offsets give the same plain offset.
    enum Side {
        /// The first raw offset (for the end of a range: before dropped whitespace).
        case early
        /// The last raw offset (for the start of a range: after dropped whitespace).
        case late
    }

    /// Plain offsets of one run mapped to raw offsets by walking the run
    /// once, for offsets asked in order (as emphasis ranges come): each
    /// answer resumes the walk where the last one stopped, so a run with many
    /// emphasised occurrences costs linear time in all, and memory does not
    /// grow with the run (an offset asked out of order starts the walk again).
    struct Cursor {
        private let raw: ArraySlice<UInt8>
        private let plain: String
        private let cdata: Bool
        /// The next raw byte to walk (relative to `raw.startIndex`) and the plain bytes consumed so far.
        private var r = 0
        private var consumed = 0
        /// The first and last raw offsets giving `consumed`.
        private var first = 0, last = 0
        /// The same for the plain offset reached before `consumed` (-1: none yet).
        private var previous = (offset: -1, first: 0, last: 0)
        /// The plain offset at which the walk met raw bytes that do not match
        /// the plain text: offsets from there on have no raw offset.
        private var mismatch = Int.max

        /// A cursor at the start of the run whose raw bytes are `raw` and plain text `plain`.
        init(raw: ArraySlice<UInt8>, plain: String, cdata: Bool) {
            self.raw = raw; self.plain = plain; self.cdata = cdata
        }

        /// The raw offset for `plainOffset` on the given side, or nil when the offset
        /// falls inside a character or reference, or the plain text does not match
        /// the raw bytes there.
        mutating func rawOffset(_ plainOffset: Int, side: Side) -> Int? {
            guard plainOffset >= 0, plainOffset < mismatch else { return nil }
            if plainOffset < consumed && plainOffset != previous.offset {
                // Asked out of order: walk again from the start.
                self = Cursor(raw: raw, plain: plain, cdata: cdata)
            }
            // An offset is known once the walk has gone past it: its last raw offset, and
            // that the raw bytes after it still match (a mismatch there leaves it unmapped).
            while consumed <= plainOffset, step() {}
            guard plainOffset < mismatch else { return nil }
            if plainOffset == consumed { return side == .early ? first : last }
            if plainOffset == previous.offset { return side == .early ? previous.first : previous.last }
            return nil
        }

        /// Walks one raw character or reference; false at the end of the run or at a mismatch.
        private mutating func step() -> Bool {
            let end = raw.count
            guard r < end, mismatch == Int.max else { return false }
            let made: Bool? = plain.utf8.withContiguousStorageIfAvailable { p in
                raw.withUnsafeBufferPointer { q in walk(q, p) }
            }
            return made ?? Array(plain.utf8).withUnsafeBufferPointer { p in raw.withUnsafeBufferPointer { q in walk(q, p) } }
        }

        /// `step` over the raw bytes `q` and the plain bytes `p`.
        private mutating func walk(_ q: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
            let end = q.count
            let b = q[r]
            var length = 1
            var now = consumed
            if XMLBytes.isSpace(b) {
                if b == 0x0D, r + 1 < end, q[r + 1] == 0x0A { length = 2 }
                if now < p.count, XMLBytes.isSpace(p[now]) { now += 1 }
            } else if b == UInt8(ascii: "&"), !cdata, let ref = XMLBytes(q).reference(at: r, limit: end),
                      let scalar = Unicode.Scalar(ref.scalar) {
                length = ref.length
                let v = ref.scalar
                if v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D {
                    if now < p.count, XMLBytes.isSpace(p[now]) { now += 1 }
                } else {
                    var matches = true
                    UTF8.encode(scalar) { byte in
                        if matches, now < p.count, p[now] == byte { now += 1 } else { matches = false }
                    }
                    guard matches else { mismatch = consumed; return false }
                }
            } else {
                length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
                length = min(length, end - r)
                guard now + length <= p.count else { mismatch = consumed; return false }
                for j in 0..<length where p[now + j] != q[r + j] { mismatch = consumed; return false }
                now += length
            }
            r += length
            if now == consumed {
                last = r
            } else {
                previous = (consumed, first, last)
                consumed = now
                first = r; last = r
            }
            return true
        }
    }
}
