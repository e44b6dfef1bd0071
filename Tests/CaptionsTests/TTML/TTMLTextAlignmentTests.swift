import Testing
@testable import Captions

/// The TTML writer's offset mapping (`TTMLTextAlignment.Cursor`, one walk
/// resumed from offset to offset, no memory per byte) against a plain
/// reference: every plain offset's first and last raw offsets, tabulated.
@Suite struct TTMLTextAlignmentTests {
    /// The reference: for each plain offset, the first and last raw offsets
    /// giving it (nil: none), by the rules the writer follows.
    static func reference(raw: [UInt8], plain: [UInt8], cdata: Bool) -> [(early: Int?, late: Int?)] {
        var table = [(early: Int?, late: Int?)](repeating: (nil, nil), count: plain.count + 1)
        table[0] = (0, 0)
        var consumed = 0, r = 0
        while r < raw.count {
            let b = raw[r]
            var length = 1
            if XMLBytes.isSpace(b) {
                if b == 0x0D, r + 1 < raw.count, raw[r + 1] == 0x0A { length = 2 }
                if consumed < plain.count, XMLBytes.isSpace(plain[consumed]) { consumed += 1 }
            } else if b == UInt8(ascii: "&"), !cdata,
                      let ref = raw.withUnsafeBufferPointer({ XMLBytes($0).reference(at: r, limit: $0.count) }),
                      let scalar = Unicode.Scalar(ref.scalar) {
                length = ref.length
                if [0x20, 0x09, 0x0A, 0x0D].contains(ref.scalar) {
                    if consumed < plain.count, XMLBytes.isSpace(plain[consumed]) { consumed += 1 }
                } else {
                    let bytes = Array(String(Character(scalar)).utf8)
                    guard plain.count >= consumed + bytes.count, Array(plain[consumed..<consumed + bytes.count]) == bytes else { break }
                    consumed += bytes.count
                }
            } else {
                length = min(b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1, raw.count - r)
                guard consumed + length <= plain.count, Array(plain[consumed..<consumed + length]) == Array(raw[r..<r + length]) else { break }
                consumed += length
            }
            r += length
            table[consumed] = (table[consumed].early ?? r, r)
        }
        // From a mismatch on, nothing maps (the walk stopped at `consumed`).
        if r < raw.count { for k in consumed...plain.count { table[k] = (nil, nil) } }
        return table
    }

    /// Raw TTML text with references, runs of white space (collapsed in the plain text) and multi-byte characters.
    static let samples: [(raw: String, plain: String)] = [
        ("Rock &amp; roll,  the   rocket\n  flies &#233;t&#xE9; &lt;b&gt; caf\u{E9} 🎬 end", "Rock & roll, the rocket flies été <b> caf\u{E9} 🎬 end"),
        ("  lead\r\n\tand trail  ", " lead and trail "),
        ("a&#32;b&#x9;c", "a b c"),
        ("match then mis", "match then MIS"),
        ("", ""),
    ]

    @Test func everyOffsetAskedInOrderMapsAsTheReferenceDoes() {
        for (raw, plain) in Self.samples {
            let rawBytes = Array(raw.utf8), plainBytes = Array(plain.utf8)
            let expected = Self.reference(raw: rawBytes, plain: plainBytes, cdata: false)
            var cursor = TTMLTextAlignment.Cursor(raw: rawBytes[...], plain: plain, cdata: false)
            for offset in 0...plainBytes.count + 1 {
                let want: (early: Int?, late: Int?) = offset < expected.count ? expected[offset] : (nil, nil)
                // Both sides of each offset, as adjacent emphasis ranges ask them (an end, then the next start).
                #expect(cursor.rawOffset(offset, side: .early) == want.early, "\(raw) early \(offset)")
                #expect(cursor.rawOffset(offset, side: .late) == want.late, "\(raw) late \(offset)")
            }
        }
    }

    @Test func offsetsAskedOutOfOrderMapAsTheReferenceDoes() {
        var generator = SystemRandomNumberGenerator()
        for (raw, plain) in Self.samples {
            let rawBytes = Array(raw.utf8), plainBytes = Array(plain.utf8)
            let expected = Self.reference(raw: rawBytes, plain: plainBytes, cdata: false)
            var cursor = TTMLTextAlignment.Cursor(raw: rawBytes[...], plain: plain, cdata: false)
            for _ in 0..<200 {
                let offset = Int.random(in: 0...plainBytes.count, using: &generator)
                let side: TTMLTextAlignment.Side = Bool.random(using: &generator) ? .early : .late
                let want = side == .early ? expected[offset].early : expected[offset].late
                #expect(cursor.rawOffset(offset, side: side) == want, "\(raw) \(side) \(offset)")
            }
        }
    }

    @Test func cdataTextIsNotDecoded() {
        let raw = Array("a &amp; b".utf8), plain = "a &amp; b"
        let expected = Self.reference(raw: raw, plain: Array(plain.utf8), cdata: true)
        var cursor = TTMLTextAlignment.Cursor(raw: raw[...], plain: plain, cdata: true)
        for offset in 0...plain.utf8.count {
            #expect(cursor.rawOffset(offset, side: .early) == expected[offset].early)
            #expect(cursor.rawOffset(offset, side: .late) == expected[offset].late)
        }
    }
}
