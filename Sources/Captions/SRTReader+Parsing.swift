#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads SRT (SubRip) documents, leniently, the way real files demand.
///
/// Cues are found by their timing line (a line with `-->` and a time on each
/// side), so missing, zero, negative or out-of-order cue numbers, extra blank
/// lines, blank lines inside cue text and a missing final newline all read.
/// Every repair is recorded as a warning with its line number; nothing that
/// has a readable timing line is dropped.
///
/// Choices worth knowing:
/// - The milliseconds field may follow `,` or `.` and have 1–3 digits. It is
///   read as a decimal fraction of a second, like any time value: `,5` is
///   500 ms and `,05` is 50 ms (a warning says so when there are not 3 digits).
/// - A line with `-->` whose times cannot be read is reported and its block is
///   left out of the model; its bytes are still written back, since the writer
///   splices edits into the original bytes.
/// - Cue text ends at a blank line only when what follows is a cue: a timing
///   line, or a line directly above one (the cue number). Other text after a
///   blank line belongs to the cue (the blank lines become line breaks). A cue
///   that starts right after text with no blank line (a number line above a
///   readable timing line, or a readable timing line) is read and reported.
/// - Times past 24 hours are reported once, at the first such cue, with a count.
/// - SRT has no character references, so a `.text` run's text is exactly its
///   raw bytes (`&amp;` stays as written) and a `<` that does not start a tag is
///   text. (Invalid bytes in a damaged UTF-8 file read as U+FFFD; the writer
///   maps emphasis offsets past them to the raw bytes.)
/// - Line numbers count CR LF, a bare CR and a bare LF as one line end each.
///
/// The reader walks the UTF-8 bytes once through an unsafe buffer pointer: no `String`
/// per line, no regular expressions, no `Character` iteration. Strings are built
/// only for the pieces the model keeps (cue text runs, markup, identifiers and
/// coordinates). Numbers parsed from the input use overflow-checked arithmetic.
struct SRTReader {
    /// One line of the input: `start..<end` is its content, `next` the first byte after its line ending.
    struct Line {
        var start: Int
        var end: Int
        var next: Int
        var number: Int
    }

    /// What a time's milliseconds field looked like, for the notes made
    /// when it is not the usual `,mmm` (a plain value, so a timing line holds
    /// no strings or arrays until a note or the settings are wanted).
    struct TimeNotes {
        var dot = false
        var digits = 3
        var milliseconds: Int64 = 0
    }

    /// A parsed timing line.
    struct Timing {
        var start: CaptionTime
        var end: CaptionTime
        /// The coordinates after the end time (spaces trimmed), if any.
        var settings: Range<Int>?
        var startNotes = TimeNotes()
        var endNotes = TimeNotes()
    }

    /// Open-tag counts inside one cue, so that unbalanced closing tags cannot go negative.
    struct StyleCounts {
        var bold = 0, italic = 0, underline = 0, strike = 0
        var style: TextStyle {
            var s: TextStyle = []
            if bold > 0 { s.insert(.bold) }
            if italic > 0 { s.insert(.italic) }
            if underline > 0 { s.insert(.underline) }
            if strike > 0 { s.insert(.strikethrough) }
            return s
        }
    }

    let p: UnsafeBufferPointer<UInt8>
    let count: Int
    /// What reading finds, and where it stands between cues. Kept apart
    /// from the parser (whose methods only read the bytes), so that calling
    /// those methods from the reading functions copies nothing.
    struct State {
        var cues: [Cue] = []
        var warnings = CaptionWarningLog()
        /// The line of the first timing line that could not be read, if any.
        var firstMalformedLine: Int?
        var lastNumber: Int64?
        var previousEnd: CaptionTime?
        var sawTimingLine = false
        /// Index in `warnings` of the one "past 24 hours" warning, and how many cues it covers.
        var pastDayWarning: Int?
        var pastDayCount = 0
        /// The next cue's timing line (and number line), when reading the cue
        /// text before it already found them: `parse` starts that cue from them
        /// instead of reading the blank, number and timing lines a second time.
        var nextCue: (timing: Line, identifier: Line?)?
    }

    private static let twentyFourHours = CaptionTime(milliseconds: 86_400_000)

    /// The array `p` points into; cues keep it to build their runs later.
    let source: [UInt8]

    init(bytes: UnsafeBufferPointer<UInt8>, source: [UInt8]) {
        p = bytes
        count = bytes.count
        self.source = source
    }

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

    // MARK: Lines

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

    // MARK: Document

    /// An upper bound on the cue count (the number of `-->`, found with
    /// `memchr` for `>`), so the cue array is allocated once instead of doubling.
    private func estimatedCueCount() -> Int {
        guard let base = p.baseAddress, count > 0 else { return 0 }
        var n = 0
        var at = 0
        while at < count, let hit = memchr(base + at, 0x3E, count - at) {
            let i = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if i >= 2, p[i - 1] == 0x2D, p[i - 2] == 0x2D { n += 1 }
            at = i + 1
        }
        return n
    }

    /// Reads the whole document.
    func parse() -> State {
        var st = State()
        st.cues.reserveCapacity(estimatedCueCount())
        var pos = 0, number = 1
        while pos < count {
            if let next = st.nextCue {
                // What the branches below would find from `pos`: blank lines, then this cue.
                st.nextCue = nil
                (pos, number) = cue(timing: next.timing, identifier: next.identifier, &st)
                continue
            }
            let l = line(at: pos, number: number)
            if isBlank(l) {
                pos = l.next; number += 1
                continue
            }
            if hasArrow(l) {
                (pos, number) = cue(timing: l, identifier: nil, &st)
                continue
            }
            if let n = nextLine(after: l), hasArrow(n) {
                (pos, number) = cue(timing: n, identifier: l, &st)
                continue
            }
            if cueNumber(l) != nil, let n = nextLine(after: l), looksLikeTimingStart(n) {
                // A cue number, then the start of a time with no arrow: a timing
                // line cut short (a truncated file) or mangled.
                st.sawTimingLine = true
                if st.firstMalformedLine == nil { st.firstMalformedLine = n.number }
                st.warnings.warn(n.number, "the timing line cannot be read (it has no '-->': cut short?): the cue is skipped (its lines are kept in the file as is)")
                pos = n.next; number = n.number + 1
                continue
            }
            let what = st.sawTimingLine ? "text outside any cue" : "text before the first cue"
            st.warnings.warn(l.number, "\(what) is not a cue number or timing line: ignored (kept in the file as is)")
            pos = l.next; number += 1
        }
        if let index = st.pastDayWarning {
            let others = st.pastDayCount - 1
            let more = others == 0 ? "" : " (and \(others) later cue\(others == 1 ? "" : "s"))"
            st.warnings.replaceMessage(at: index, with: "cue time is past 24 hours\(more): kept as is")
        }
        return st
    }

    /// Whether `l` starts like a timing line: optional spaces, digits, `:`, a digit.
    private func looksLikeTimingStart(_ l: Line) -> Bool {
        var i = l.start
        while i < l.end, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        let digits = i
        while i < l.end, p[i] &- 0x30 < 10 { i += 1 }
        return i > digits && i + 1 < l.end && p[i] == UInt8(ascii: ":") && p[i + 1] &- 0x30 < 10
    }

    /// Reads one cue from its timing line; returns where the next block starts.
    private func cue(timing t: Line, identifier idLine: Line?, _ st: inout State) -> (Int, Int) {
        st.sawTimingLine = true
        var identifier: String?
        if let idLine {
            let (a, b) = trimmed(idLine)
            identifier = string(a, b)
            let expected = (st.lastNumber ?? 0).addingReportingOverflow(1)
            if let n = cueNumber(idLine) {
                if expected.overflow || n != expected.partialValue {
                    let want = expected.overflow ? "" : " (expected \(expected.partialValue))"
                    st.warnings.warn(idLine.number, "cue number \(n) is not in sequence\(want)")
                }
                st.lastNumber = n
            } else {
                st.warnings.warn(idLine.number, "cue number \"\(identifier ?? "")\" is not a number")
                if !expected.overflow { st.lastNumber = expected.partialValue }
            }
        }

        guard let timing = parseTiming(t) else {
            if st.firstMalformedLine == nil { st.firstMalformedLine = t.number }
            st.warnings.warn(t.number, "the timing line cannot be read (expected HH:MM:SS,mmm --> HH:MM:SS,mmm): the cue is skipped (its lines are kept in the file as is)")
            return text(after: t, &st).resume
        }
        if idLine == nil {
            st.warnings.warn(t.number, "cue has no cue number")
            let expected = (st.lastNumber ?? 0).addingReportingOverflow(1)
            if !expected.overflow { st.lastNumber = expected.partialValue }
        }
        appendNotes(timing.startNotes, which: "start", line: t.number, to: &st.warnings)
        appendNotes(timing.endNotes, which: "end", line: t.number, to: &st.warnings)
        if timing.end < timing.start {
            st.warnings.warn(t.number, "cue ends (\(timing.end)) before it starts (\(timing.start)): kept as is")
        } else if timing.end == timing.start {
            st.warnings.warn(t.number, "cue has zero length (starts and ends at \(timing.start)): kept as is")
        }
        if let previousEnd = st.previousEnd, timing.start < previousEnd {
            st.warnings.warn(t.number, "cue starts (\(timing.start)) before the previous cue ends (\(previousEnd)): kept as is")
        }
        if timing.end > Self.twentyFourHours || timing.start > Self.twentyFourHours {
            // Said once, at the first such cue, with a count: long files (a
            // day-long recording) would otherwise get a warning per cue.
            if st.pastDayWarning == nil {
                st.pastDayWarning = st.warnings.append(CaptionWarning(line: t.number, message: ""))
            }
            st.pastDayCount += 1
        }
        st.previousEnd = timing.end

        let body = text(after: t, &st)
        if body.range.isEmpty {
            st.warnings.warn(t.number, "cue has no text")
        }
        st.cues.append(Cue(identifier: identifier, start: timing.start, end: timing.end, settings: timing.settings.map { string($0.lowerBound, $0.upperBound) },
                        line: t.number, textRange: body.range,
                        lazyRuns: LazyRuns(bytes: source, range: body.range, builder: .srt)))
        return body.resume
    }

    // MARK: Cue text

    /// Whether `l` starts (after spaces) with a digit or a sign, as a timing
    /// line and a cue number do; most text lines do not. Checked before
    /// `startsCueDirectly` is called, so that a text line costs no call.
    @inline(__always)
    private func mayStartCue(_ l: Line) -> Bool {
        var i = l.start
        while i < l.end, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        return i < l.end && (p[i] &- 0x30 < 10 || p[i] == 0x2D || p[i] == 0x2B)
    }

    /// Whether `l` (a non-blank line right after cue text, with no blank line
    /// between) starts the next cue: a readable timing line, or a number line
    /// directly above one. Returns that cue's timing line and number line
    /// (what `parse` would find from `l`), or nil.
    private func startsCueDirectly(_ l: Line) -> (timing: Line, identifier: Line?)? {
        // Both start (after spaces) with a digit or a sign; most text lines do not.
        guard mayStartCue(l) else { return nil }
        if hasArrow(l) { return parseTiming(l) != nil ? (l, nil) : nil }
        guard cueNumber(l) != nil, let n = nextLine(after: l), hasArrow(n) else { return nil }
        return parseTiming(n) != nil ? (n, l) : nil
    }

    /// Reads the text lines after timing line `t`: where the cue text lies, and
    /// where reading goes on (its runs are built later, on demand, by `forEachRun`).
    private func text(after t: Line, _ st: inout State) -> (range: Range<Int>, resume: (Int, Int)) {
        st.nextCue = nil
        var first: Int?
        var last: Line?
        var cur = nextLine(after: t)
        while let l = cur {
            if isBlank(l) {
                // Look past the blank lines: a cue number + timing line (or a
                // timing line) ends this cue, anything else continues it.
                var j = l
                var after = nextLine(after: j)
                while let k = after, isBlank(k) { j = k; after = nextLine(after: k) }
                guard let k = after else { return finish(first, last, t, resume: (count, j.number + 1)) }
                var startsCue = hasArrow(k)
                if startsCue {
                    st.nextCue = (k, nil)
                } else if let k2 = nextLine(after: k) {
                    if hasArrow(k2) {
                        startsCue = true
                        st.nextCue = (k2, k)
                    } else if cueNumber(k) != nil && looksLikeTimingStart(k2) {
                        startsCue = true
                    }
                }
                if startsCue || last == nil {
                    if !startsCue {
                        // Blank line(s) right after the timing line, then text: the
                        // cue is empty only if the text is not its own; keep it.
                        st.warnings.warn(l.number, "blank line between the timing line and the cue text: the text is kept as part of the cue")
                        cur = k
                        continue
                    }
                    return finish(first, last, t, resume: (l.start, l.number))
                }
                st.warnings.warn(l.number, "blank line inside the cue text: kept as part of the cue")
                last = k
                cur = nextLine(after: k)
                continue
            }
            if mayStartCue(l), let direct = startsCueDirectly(l) {
                st.nextCue = direct
                st.warnings.warn(l.number, "no blank line before this cue")
                return finish(first, last, t, resume: (l.start, l.number))
            }
            if first == nil { first = l.start }
            last = l
            cur = nextLine(after: l)
        }
        let end = last.map { $0.number + 1 } ?? t.number + 1
        return finish(first, last, t, resume: (count, end))
    }

    private func finish(_ first: Int?, _ last: Line?, _ t: Line, resume: (Int, Int)) -> (range: Range<Int>, resume: (Int, Int)) {
        guard let first, let last else { return (t.next..<t.next, resume) }
        return (first..<last.end, resume)
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

    // MARK: Times

    /// Parses `start --> end [coordinates]`; nil when the times cannot be read.
    func parseTiming(_ l: Line) -> Timing? {
        var i = l.start
        var startNotes = TimeNotes(), endNotes = TimeNotes()
        while i < l.end, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        guard let start = parseTime(&i, l.end, &startNotes) else { return nil }
        while i < l.end, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        guard i + 2 < l.end, p[i] == 0x2D, p[i + 1] == 0x2D, p[i + 2] == 0x3E else { return nil }
        i += 3
        while i < l.end, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        guard let end = parseTime(&i, l.end, &endNotes) else { return nil }
        var settings: Range<Int>?
        if i < l.end {
            guard p[i] == 0x20 || p[i] == 0x09 else { return nil }
            var a = i, b = l.end
            while a < b, p[a] == 0x20 || p[a] == 0x09 { a += 1 }
            while b > a, p[b - 1] == 0x20 || p[b - 1] == 0x09 { b -= 1 }
            if a < b { settings = a..<b }
        }
        return Timing(start: start, end: end, settings: settings, startNotes: startNotes, endNotes: endNotes)
    }

    /// The warnings for a time whose milliseconds field is not the usual
    /// `,mmm`: a `.` before it, and a count of digits other than 3.
    private func appendNotes(_ n: TimeNotes, which: String, line: Int, to warnings: inout CaptionWarningLog) {
        if n.dot { warnings.warn(line, "'.' instead of ',' before the \(which) time's milliseconds") }
        if n.digits != 3 {
            warnings.warn(line, "the \(which) time's milliseconds have \(n.digits) digit\(n.digits == 1 ? "" : "s") instead of 3: read as a decimal fraction (\(n.milliseconds) ms)")
        }
    }

    /// Reads digits at `i` (at most `maxDigits`), overflow-checked; nil if none or too many.
    private func digits(_ i: inout Int, _ end: Int, maxDigits: Int) -> (value: Int64, count: Int)? {
        var value: Int64 = 0
        var n = 0
        while i < end {
            let d = p[i] &- 0x30
            if d >= 10 { break }
            n += 1
            if n > maxDigits { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            value = s
            i += 1
        }
        return n == 0 ? nil : (value, n)
    }

    /// Parses `H…:MM:SS[,.]m{1,3}`.
    @inline(__always)
    private func parseTime(_ i: inout Int, _ end: Int, _ notes: inout TimeNotes) -> CaptionTime? {
        // The usual form, `HH:MM:SS,mmm` not followed by a digit, read at once (no notes to make).
        if i + 12 <= end {
            @inline(__always) func d(_ k: Int) -> Int64? { let v = p[i + k] &- 0x30; return v < 10 ? Int64(v) : nil }
            if p[i + 2] == 0x3A, p[i + 5] == 0x3A, p[i + 8] == 0x2C, i + 12 == end || p[i + 12] &- 0x30 >= 10,
               let h1 = d(0), let h2 = d(1), let m1 = d(3), let m2 = d(4), let s1 = d(6), let s2 = d(7),
               let f1 = d(9), let f2 = d(10), let f3 = d(11), m1 < 6, s1 < 6 {
                i += 12
                let ms = ((h1 * 10 + h2) * 60 + m1 * 10 + m2) * 60_000 + (s1 * 10 + s2) * 1000 + f1 * 100 + f2 * 10 + f3
                return CaptionTime(milliseconds: ms)
            }
        }
        return parseTimeDigitByDigit(&i, end, &notes)
    }

    /// `parseTime` for every form but the usual one.
    private func parseTimeDigitByDigit(_ i: inout Int, _ end: Int, _ notes: inout TimeNotes) -> CaptionTime? {
        guard let h = digits(&i, end, maxDigits: 18), i < end, p[i] == 0x3A else { return nil }
        i += 1
        guard let m = digits(&i, end, maxDigits: 2), m.value < 60, i < end, p[i] == 0x3A else { return nil }
        i += 1
        guard let s = digits(&i, end, maxDigits: 2), s.value < 60, i < end, p[i] == 0x2C || p[i] == 0x2E else { return nil }
        let dot = p[i] == 0x2E
        i += 1
        guard let f = digits(&i, end, maxDigits: 3) else { return nil }
        var ms = f.value
        if f.count == 1 { ms *= 100 } else if f.count == 2 { ms *= 10 }
        // Minutes, seconds and milliseconds are bounded above; only the hours can overflow.
        let (hourMs, overflow) = h.value.multipliedReportingOverflow(by: 3_600_000)
        let (total, overflow2) = hourMs.addingReportingOverflow(m.value * 60_000 + s.value * 1000 + ms)
        guard !overflow, !overflow2 else { return nil }
        let time = CaptionTime(milliseconds: total)
        notes = TimeNotes(dot: dot, digits: f.count, milliseconds: ms)
        return time
    }
}
