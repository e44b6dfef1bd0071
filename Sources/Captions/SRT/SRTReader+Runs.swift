/// Cue text into runs: the one SRT rule for cutting a cue's lines into
/// text, markup and line breaks, and the styles its tags set.
extension SRTReader {
    /// Builds the runs of the cue text in `range` of `bytes`: each line's text
    /// and markup, a line break between lines, and the whitespace of blank
    /// lines inside the text kept as text, exactly as the reader found them.
    static func runs(in range: Range<Int>, of bytes: [UInt8]) -> [TextRun] {
        var runs: [TextRun] = []
        forEachRun(in: range, of: bytes) { runs.append(TextRun($0)) }
        return runs
    }

    /// Calls `visit` with each run of the cue text in `range` of `bytes`, in
    /// order, as `runs(in:of:)` builds them; a `.text` or `.markup` run's
    /// bytes are its source bytes, read as `String(decoding:as:)` reads them.
    ///
    /// The one SRT rule for cutting cue text into runs: the runs, their
    /// outlines and the readable text of an SRT cue not built yet all come
    /// from here (through `Cue.forEachRun`). A line with no `<` or `{` (a
    /// blank line's spaces included) is one text run, the whole line.
    static func forEachRun(in range: Range<Int>, of bytes: [UInt8], _ visit: (RunView) -> Void) {
        guard !range.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            let parser = SRTReader(bytes: UnsafeBufferPointer(rebasing: buffer[..<range.upperBound]), source: [])
            let p = parser.p
            var counts = StyleCounts()
            var l = parser.line(at: range.lowerBound, number: 0)
            while true {
                let first = firstMarkupStart(p, l.start, l.end)
                if first == l.end {
                    if l.end > l.start { visit(RunView(kind: .text, style: counts.style, source: l.start..<l.end, bytes: UnsafeBufferPointer(rebasing: p[l.start..<l.end]))) }
                } else {
                    walkLine(p, from: first, l, text: { r in
                        visit(RunView(kind: .text, style: counts.style, source: r, bytes: UnsafeBufferPointer(rebasing: p[r])))
                    }, markup: { r in
                        if p[r.lowerBound] == 0x3C { parser.applyTag(r.lowerBound, r.upperBound - 1, &counts) }
                        visit(RunView(kind: .markup, style: counts.style, source: r, bytes: UnsafeBufferPointer(rebasing: p[r])))
                    })
                }
                guard l.next < range.upperBound, let n = parser.nextLine(after: l) else { break }
                visit(RunView(kind: .lineBreak, style: counts.style, source: l.end..<l.next, utf8: RunView.newline))
                l = n
            }
        }
    }

    /// How the line ends of a cue text whose runs are its lines are written (`lineEnds(_:)`).
    enum LineEnds {
        /// Every line ends with an LF: the text's bytes are the runs' text.
        case lineFeeds
        /// Some line ends with a CR (CR LF, or a CR alone).
        case carriageReturns
    }

    /// Whether the runs `forEachRun` walks for the cue text `p` (its bytes
    /// as written) are its lines as they stand, and how they end: nil where
    /// `p` holds a `<` or `{` (markup, and so styles), invalid UTF-8, or a
    /// line end at its end. Otherwise the runs are those
    /// `appendLineOutlines(of:offset:to:)` outlines (each text run's bytes
    /// its text), and their text, with `\n` for each line break, is `p`
    /// with each line end made an LF (`appendReadableLines(of:to:)`): `p`
    /// itself where every line ends with an LF.
    static func lineEnds(_ p: UnsafeBufferPointer<UInt8>) -> LineEnds? {
        guard let base = p.baseAddress, !p.isEmpty else { return .lineFeeds }
        if p[p.count - 1] == 0x0A || p[p.count - 1] == 0x0D { return nil }
        var high: UInt64 = 0
        var returns: UInt64 = 0
        var i = 0
        while i + 8 <= p.count {
            let x = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            if equal(x, 0x3C3C_3C3C_3C3C_3C3C) | equal(x, 0x7B7B_7B7B_7B7B_7B7B) != 0 { return nil }
            returns |= equal(x, 0x0D0D_0D0D_0D0D_0D0D)
            high |= x
            i += 8
        }
        while i < p.count {
            let b = p[i]
            if b == 0x3C || b == 0x7B { return nil }
            if b == 0x0D { returns = 1 }
            high |= UInt64(b)
            i += 1
        }
        guard high & 0x8080_8080_8080_8080 == 0 || UTF8Repair.isValid(p) else { return nil }
        return returns == 0 ? .lineFeeds : .carriageReturns
    }

    /// Calls `visit` with the end of each line of `p` and where the next
    /// starts, as `line(at:number:)` cuts lines: at an LF, a CR LF or a CR alone.
    @inline(__always)
    private static func forEachLineEnd(in p: UnsafeBufferPointer<UInt8>, _ visit: (_ end: Int, _ next: Int) -> Void) {
        var i = 0
        while i < p.count {
            // Eight bytes at a time up to the first byte below 0x0E, as `line(at:number:)` reads.
            if i + 8 <= p.count, let base = p.baseAddress {
                let flags = below0E(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                if flags == 0 { i += 8; continue }
                i += flags.trailingZeroBitCount >> 3
            }
            let b = p[i]
            if b == 0x0A {
                visit(i, i + 1)
            } else if b == 0x0D {
                let next = i + 1 < p.count && p[i + 1] == 0x0A ? i + 2 : i + 1
                visit(i, next)
                i = next
                continue
            }
            i += 1
        }
    }

    /// Appends the outlines of the runs `forEachRun` walks for the cue text
    /// `p` that `lineEnds` gives line ends for, their source ranges moved by
    /// `offset` (the text's offset in the document; 0 for offsets in `p`): a
    /// text run for each line that is not empty, a line break for each line end.
    static func appendLineOutlines(of p: UnsafeBufferPointer<UInt8>, offset: Int, to out: inout [RunOutline]) {
        var start = 0
        forEachLineEnd(in: p) { end, next in
            if end > start { out.append(RunOutline(kind: .text, style: [], source: offset + start..<offset + end)) }
            out.append(RunOutline(kind: .lineBreak, style: [], source: offset + end..<offset + next))
            start = next
        }
        if p.count > start { out.append(RunOutline(kind: .text, style: [], source: offset + start..<offset + p.count)) }
    }

    /// Appends the text of the runs of the cue text `p` that `lineEnds` gives
    /// line ends for: `p` with each line end made an LF.
    static func appendReadableLines(of p: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var start = 0
        forEachLineEnd(in: p) { end, next in
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<end]))
            out.append(0x0A)
            start = next
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: p[start...]))
    }

    /// The length of the text `appendReadableLines(of:to:)` makes of
    /// `p[..<offset]` (each line end made an LF, a CR at `offset - 1` too):
    /// where the byte at `offset` lands in the text of all `p`, or just after
    /// the LF a CR LF there is made when `offset` is its LF's.
    static func readableLength(of p: UnsafeBufferPointer<UInt8>, upTo offset: Int) -> Int {
        var removed = 0
        forEachLineEnd(in: UnsafeBufferPointer(rebasing: p[..<offset])) { end, next in removed += next - end - 1 }
        return offset - removed
    }

    /// The first `<` or `{` in `p[start..<end]` (eight bytes at a time), or `end`.
    @inline(__always)
    static func firstMarkupStart(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var i = start
        if let base = p.baseAddress {
            while i + 8 <= end {
                let x = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let flags = equal(x, 0x3C3C_3C3C_3C3C_3C3C) | equal(x, 0x7B7B_7B7B_7B7B_7B7B)
                if flags != 0 { return i + flags.trailingZeroBitCount >> 3 }
                i += 8
            }
        }
        while i < end, p[i] != 0x3C, p[i] != 0x7B { i += 1 }
        return i
    }


    /// Cuts line `l` (whose first `<` or `{` is at `first`) into its text
    /// pieces and its markup (tags, and ASS override codes `{\…}`), in order.
    /// A markup piece that starts with `<` is a tag.
    @inline(__always)
    static func walkLine(_ p: UnsafeBufferPointer<UInt8>, from first: Int, _ l: Line,
                         text: (Range<Int>) -> Void, markup: (Range<Int>) -> Void) {
        var textStart = l.start
        var i = first
        // Set once a `{\` found no `}` before the line end: later ones cannot
        // either, so a line of `{\{\{\…` costs linear time, not quadratic.
        var noClosingBrace = false
        while i < l.end {
            let b = p[i]
            var close: Int?
            if b == 0x3C {
                close = tagEnd(p, from: i, lineEnd: l.end)
            } else if b == 0x7B, !noClosingBrace, i + 1 < l.end, p[i + 1] == 0x5C {
                var j = i + 2
                while j < l.end, p[j] != 0x7D { j += 1 }
                if j < l.end { close = j } else { noClosingBrace = true }
            }
            guard let close else { i += 1; continue }
            if i > textStart { text(textStart..<i) }
            markup(i..<(close + 1))
            i = close + 1
            textStart = i
        }
        if l.end > textStart { text(textStart..<l.end) }
    }

    /// The index of the `>` closing a tag that starts at `lt`: `<` then an
    /// optional `/` then a letter, ending on the same line with no other `<`.
    private static func tagEnd(_ p: UnsafeBufferPointer<UInt8>, from lt: Int, lineEnd: Int) -> Int? {
        var j = lt + 1
        if j < lineEnd, p[j] == 0x2F { j += 1 }
        guard j < lineEnd, (p[j] | 0x20) >= 0x61, (p[j] | 0x20) <= 0x7A else { return nil }
        while j < lineEnd {
            if p[j] == 0x3E { return j }
            if p[j] == 0x3C { return nil }
            j += 1
        }
        return nil
    }

    /// Updates the style counts for a `b`, `i`, `u` or `s` tag (any case); other tags change nothing.
    private func applyTag(_ lt: Int, _ gt: Int, _ counts: inout StyleCounts) {
        var j = lt + 1
        let closing = p[j] == 0x2F
        if closing { j += 1 }
        let name = p[j] | 0x20
        let after = j + 1
        // A one-letter name: the tag ends, or attributes follow after whitespace.
        guard after == gt || p[after] == 0x20 || p[after] == 0x09 else { return }
        let delta = closing ? -1 : 1
        func step(_ v: inout Int) { v = max(0, v + delta) }
        switch name {
        case 0x62: step(&counts.bold)
        case 0x69: step(&counts.italic)
        case 0x75: step(&counts.underline)
        case 0x73: step(&counts.strike)
        default: break
        }
    }
}
