/// Timing lines: the two times (`HH:MM:SS,mmm`, leniently), the
/// coordinates after them, and the notes on what was not the usual form.
extension SRTReader {
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
    func appendNotes(_ n: TimeNotes, which: String, line: Int, to warnings: inout CaptionWarningLog) {
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
