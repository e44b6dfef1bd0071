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

    /// Every plain offset of one run mapped to raw offsets in one walk, so
    /// that a run with many emphasised occurrences costs linear time in all.
    struct Map {
        /// For each plain offset, the first and last raw offsets giving it (-1: none).
        private var early: [Int]
        private var late: [Int]
        /// The plain offset at which the walk met raw bytes that do not match
        /// the plain text: offsets from there on have no raw offset.
        private var mismatch = Int.max

        init(raw: ArraySlice<UInt8>, plain: [UInt8], cdata: Bool) {
            early = [Int](repeating: -1, count: plain.count + 1)
            late = early
            early[0] = 0; late[0] = 0
            var consumed = 0
            var r = raw.startIndex
            let end = raw.endIndex
            walk: while r < end {
                let b = raw[r]
                var length = 1
                let before = consumed
                if XMLBytes.isSpace(b) {
                    if b == 0x0D, r + 1 < end, raw[r + 1] == 0x0A { length = 2 }
                    if consumed < plain.count, XMLBytes.isSpace(plain[consumed]) { consumed += 1 }
                } else if b == UInt8(ascii: "&"), !cdata,
                          let ref = raw[r...].withUnsafeBufferPointer({ XMLBytes($0).reference(at: 0, limit: $0.count) }),
                          let scalar = Unicode.Scalar(ref.scalar) {
                    length = ref.length
                    let v = ref.scalar
                    if v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D {
                        if consumed < plain.count, XMLBytes.isSpace(plain[consumed]) { consumed += 1 }
                    } else {
                        var matches = true
                        UTF8.encode(scalar) { byte in
                            if matches, consumed < plain.count, plain[consumed] == byte { consumed += 1 } else { matches = false }
                        }
                        guard matches else { mismatch = before; break walk }
                    }
                } else {
                    length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
                    length = min(length, end - r)
                    guard consumed + length <= plain.count else { mismatch = before; break walk }
                    for j in 0..<length where plain[consumed + j] != raw[r + j] { mismatch = before; break walk }
                    consumed += length
                }
                r += length
                if early[consumed] < 0 { early[consumed] = r - raw.startIndex }
                late[consumed] = r - raw.startIndex
            }
        }

        /// The raw offset for `plainOffset` on the given side, or nil when the offset
        /// falls inside a character or reference, or the plain text does not match
        /// the raw bytes there.
        func rawOffset(_ plainOffset: Int, side: Side) -> Int? {
            guard plainOffset >= 0, plainOffset < early.count, plainOffset < mismatch else { return nil }
            let value = side == .early ? early[plainOffset] : late[plainOffset]
            return value < 0 ? nil : value
        }
    }
}
