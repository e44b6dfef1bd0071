/// WebVTT timestamps (`mm:ss.ttt`, `hh:mm:ss.ttt`, any number of hour digits).
///
/// Follows the spec's "collect a WebVTT timestamp": a first field that is not
/// exactly two digits, or is over 59, is hours, and then seconds are required;
/// minutes and seconds are two digits up to 59; the fraction is `.` and exactly
/// three digits. In lenient mode a few common deviations are read and named
/// so that the reader can warn: a comma before the fraction, one or two
/// fraction digits (a decimal fraction: `.5` is 500 ms), one-digit minutes
/// or seconds. Numbers that do not fit are an error, never a trap.
enum WebVTTTimestamp {
    /// A parsed timestamp.
    struct Value {
        /// The time in milliseconds.
        var milliseconds: Int64
        /// What was not WebVTT about it (lenient mode only), or nil.
        var deviation: String?
    }

    /// The two shapes nearly every file uses, `HH:MM:SS.mmm` and `MM:SS.mmm`,
    /// read at fixed positions; nil sends anything else to the full parser.
    @inline(__always)
    static func common(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, end: Int) -> Int64? {
        @inline(__always) func d(_ k: Int) -> Int64? {
            let b = p[i + k] &- 0x30
            return b < 10 ? Int64(b) : nil
        }
        @inline(__always) func isDigit(_ k: Int) -> Bool { i + k < end && p[i + k] &- 0x30 < 10 }
        // MM:SS.mmm (not followed by a further digit or ':').
        if end - i >= 9, p[i + 2] == 0x3A, p[i + 5] == 0x2E,
           let m1 = d(0), let m2 = d(1), let s1 = d(3), let s2 = d(4), let f1 = d(6), let f2 = d(7), let f3 = d(8),
           !isDigit(9) {
            let minutes = m1 * 10 + m2, seconds = s1 * 10 + s2
            guard minutes <= 59, seconds <= 59 else { return nil }
            i += 9
            return minutes * 60_000 + seconds * 1000 + f1 * 100 + f2 * 10 + f3
        }
        // HH:MM:SS.mmm
        if end - i >= 12, p[i + 2] == 0x3A, p[i + 5] == 0x3A, p[i + 8] == 0x2E,
           let h1 = d(0), let h2 = d(1), let m1 = d(3), let m2 = d(4), let s1 = d(6), let s2 = d(7),
           let f1 = d(9), let f2 = d(10), let f3 = d(11), !isDigit(12) {
            let minutes = m1 * 10 + m2, seconds = s1 * 10 + s2
            guard minutes <= 59, seconds <= 59 else { return nil }
            i += 12
            return (h1 * 10 + h2) * 3_600_000 + minutes * 60_000 + seconds * 1000 + f1 * 100 + f2 * 10 + f3
        }
        return nil
    }

    /// Why a timestamp could not be read.
    struct Failure: Error { var reason: String }

    /// Parses a timestamp at `p[i]`, moving `i` past it.
    static func parse(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, end: Int, lenient: Bool) -> Result<Value, Failure> {
        if let ms = common(p, &i, end: end) { return .success(Value(milliseconds: ms)) }
        var deviation: String?
        func digits(_ i: inout Int) -> (count: Int, value: Int64, overflow: Bool) {
            var count = 0, value: Int64 = 0, overflow = false
            while i < end, p[i] >= 0x30, p[i] <= 0x39 {
                if !overflow {
                    let (m, o1) = value.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(Int64(p[i] - 0x30))
                    if o1 || o2 { overflow = true } else { value = s }
                }
                count += 1; i += 1
            }
            return (count, value, overflow)
        }
        let f1 = digits(&i)
        guard f1.count > 0 else { return .failure(Failure(reason: "a timestamp must start with a digit")) }
        guard i < end, p[i] == UInt8(ascii: ":") else { return .failure(Failure(reason: "a ':' must follow the first number")) }
        i += 1
        let f2 = digits(&i)
        var hours: Int64 = 0, minutes: Int64, seconds: Int64
        var overflow = f1.overflow || f2.overflow
        func fieldOK(_ f: (count: Int, value: Int64, overflow: Bool)) -> Bool {
            if f.count == 2 { return true }
            if f.count == 1 && lenient { deviation = deviation ?? "a one-digit minutes or seconds field"; return true }
            return false
        }
        guard fieldOK(f2) else { return .failure(Failure(reason: "minutes and seconds must have two digits")) }
        if i < end, p[i] == UInt8(ascii: ":") {
            i += 1
            let f3 = digits(&i)
            guard fieldOK(f3) else { return .failure(Failure(reason: "minutes and seconds must have two digits")) }
            overflow = overflow || f3.overflow
            hours = f1.value; minutes = f2.value; seconds = f3.value
        } else {
            // Two fields: minutes and seconds, if the first is two digits and at most 59.
            if f1.count == 2 && f1.value <= 59 {
            } else if f1.count == 1 && lenient {
                deviation = deviation ?? "a one-digit minutes field"
            } else {
                return .failure(Failure(reason: "hours (a first field that is not two digits up to 59) need minutes and seconds after them"))
            }
            minutes = f1.value; seconds = f2.value
        }
        guard i < end, p[i] == UInt8(ascii: ".") || (lenient && p[i] == UInt8(ascii: ",")) else {
            return .failure(Failure(reason: "'.' and three digits of milliseconds must follow the seconds"))
        }
        if p[i] == UInt8(ascii: ",") { deviation = deviation ?? "a comma before the milliseconds" }
        i += 1
        let frac = digits(&i)
        let ms: Int64
        switch frac.count {
        case 3: ms = frac.value
        case 1 where lenient: ms = frac.value * 100; deviation = deviation ?? "fewer than three millisecond digits"
        case 2 where lenient: ms = frac.value * 10; deviation = deviation ?? "fewer than three millisecond digits"
        default: return .failure(Failure(reason: "the fraction must have exactly three digits"))
        }
        guard minutes <= 59, seconds <= 59 else {
            return .failure(Failure(reason: "minutes and seconds must be at most 59"))
        }
        // Overflow-checked milliseconds (no CaptionTime here: this runs twice per cue).
        let (h, o1) = hours.multipliedReportingOverflow(by: 3_600_000)
        let (total, o2) = h.addingReportingOverflow(minutes * 60_000 + seconds * 1000 + ms)
        guard !overflow, !o1, !o2 else {
            return .failure(Failure(reason: "the number is too large"))
        }
        return .success(Value(milliseconds: total, deviation: deviation))
    }
}

/// A WebVTT timestamp tag in cue text (`<00:00:01.500>`): the time a word
/// of a karaoke-style (YouTube) caption starts, which is timing, not markup.
package enum TimestampTag {
    /// The tag's time in milliseconds, when `markup` is exactly one timestamp
    /// tag as the WebVTT reader accepts it; nil for any other markup.
    package static func milliseconds(_ markup: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard markup.count >= 11, markup[0] == UInt8(ascii: "<"), markup[markup.count - 1] == UInt8(ascii: ">") else { return nil }
        var i = 1
        let end = markup.count - 1
        guard case .success(let value) = WebVTTTimestamp.parse(markup, &i, end: end, lenient: false), i == end else { return nil }
        return value.milliseconds
    }
}
