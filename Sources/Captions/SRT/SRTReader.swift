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
        var identifier: Range<Int>?
        if let idLine {
            let (a, b) = trimmed(idLine)
            identifier = a..<b
            let expected = (st.lastNumber ?? 0).addingReportingOverflow(1)
            if let n = cueNumber(idLine) {
                if expected.overflow || n != expected.partialValue {
                    let want = expected.overflow ? "" : " (expected \(expected.partialValue))"
                    st.warnings.warn(idLine.number, "cue number \(n) is not in sequence\(want)")
                }
                st.lastNumber = n
            } else {
                st.warnings.warn(idLine.number, "cue number \"\(string(a, b))\" is not a number")
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
        st.cues.append(Cue(bytes: source, identifier: identifier, start: timing.start, end: timing.end, settings: timing.settings,
                           line: t.number, textRange: body.range, builder: .srt))
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
}

extension SRTReader {
    /// Reads a document: its cues and warnings, or a `CaptionError` with a line
    /// number when no cue can be read (binary data, an unreadable timing line,
    /// or no timing line at all).
    static func read(_ source: SourceText) throws -> CaptionDocument {
        // Only the results leave the closure, never the parser and its pointer.
        let result = source.bytes.withUnsafeBufferPointer { buffer in
            let found = SRTReader(bytes: buffer, source: source.bytes).parse()
            return (cues: found.cues, warnings: found.warnings.finish(), firstMalformedLine: found.firstMalformedLine)
        }
        if result.cues.isEmpty {
            // NUL bytes never occur in text: binary data that format detection let
            // through (e.g. read as Windows-1252, which hides a PNG signature).
            if source.bytes.contains(0) {
                throw CaptionError(.binaryFile, message: "this is binary data, not a caption file")
            }
            if let line = result.firstMalformedLine {
                throw CaptionError(.malformedTiming, line: line,
                                   message: "no cue could be read: the timing line cannot be read (expected HH:MM:SS,mmm --> HH:MM:SS,mmm)")
            }
            throw CaptionError(.noCues, message: "no SRT cue found: there is no timing line such as 00:00:01,000 --> 00:00:02,000")
        }
        return CaptionDocument(format: .srt, source: source, cues: result.cues, warnings: result.warnings)
    }
}
