/// The `ttp:` timing parameters of a TTML document and the parser of its time
/// expressions (TTML2 §12.3.1, Appendix I): clock times `hh:mm:ss(.fff)`,
/// `hh:mm:ss:ff(.sub)` and offset times `N(.N)?(h|m|s|ms|f|t)`, all to exact
/// rationals with overflow reported, never trapping.
struct TTMLTimeExpression: Sendable {
    /// The result of reading one expression.
    enum Parsed: Equatable {
        /// The time, with a note when something was repaired (e.g. a frame number clamped).
        case time(CaptionTime, note: String?)
        /// Not a time expression this reader understands; the reason.
        case invalid(String)
    }

    /// `ttp:frameRate` (default 30).
    var frameRate: Int64 = 30
    /// Whether `ttp:frameRate` was given (it decides the tick rate default).
    var frameRateSpecified = false
    /// `ttp:frameRateMultiplier` numerator and denominator (default 1:1).
    var multiplierNumerator: Int64 = 1
    var multiplierDenominator: Int64 = 1
    /// `ttp:subFrameRate` (default 1).
    var subFrameRate: Int64 = 1
    /// `ttp:tickRate` when given.
    var tickRate: Int64?

    /// Seconds per tick as a rational: `1 / tickRate` when given; otherwise,
    /// when a frame rate is given, one sub-frame (`1 / (effectiveFrameRate × subFrameRate)`,
    /// TTML2 §7.2.11); otherwise one second.
    private func ticks(_ value: CaptionTime) -> CaptionTime? {
        if let tickRate { return value.scaled(by: 1, over: tickRate) }
        guard frameRateSpecified else { return value }
        let (fn, o1) = frameRate.multipliedReportingOverflow(by: multiplierNumerator)
        let (fns, o2) = fn.multipliedReportingOverflow(by: subFrameRate)
        if o1 || o2 { return nil }
        return value.scaled(by: multiplierDenominator, over: fns)
    }

    /// Frames (with sub-frames already folded into `value`) to seconds at the effective frame rate.
    private func frames(_ value: CaptionTime) -> CaptionTime? {
        let (fn, o) = frameRate.multipliedReportingOverflow(by: multiplierNumerator)
        if o { return nil }
        return value.scaled(by: multiplierDenominator, over: fn)
    }

    /// Reads a time expression (surrounding XML whitespace is allowed and ignored).
    func parse(_ text: [UInt8]) -> Parsed {
        text.withUnsafeBufferPointer { parse($0) }
    }

    /// Reads a time expression from bytes (surrounding XML whitespace is allowed and ignored).
    func parse(_ text: UnsafeBufferPointer<UInt8>) -> Parsed {
        var lo = 0, hi = text.count
        while lo < hi, XMLBytes.isSpace(text[lo]) { lo += 1 }
        while hi > lo, XMLBytes.isSpace(text[hi - 1]) { hi -= 1 }
        let v = UnsafeBufferPointer(rebasing: text[lo..<hi])
        if v.isEmpty { return .invalid("an empty time expression") }
        if v.contains(UInt8(ascii: ":")) { return parseClock(v) }
        return parseOffset(v)
    }

    /// Reads digits at `i`; nil when there are none or the number overflows.
    private func digits(_ v: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> (value: Int64, count: Int)? {
        var value: Int64 = 0, count = 0
        while i < v.count, v[i] >= 0x30, v[i] <= 0x39 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(v[i] - 0x30))
            if o1 || o2 { return nil }
            value = s; count += 1; i += 1
        }
        return count > 0 ? (value, count) : nil
    }

    /// A fraction `.ddd` (the dot already consumed): exact up to 15 digits, further digits truncated.
    private func fraction(_ v: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> CaptionTime? {
        var value: Int64 = 0, scale: Int64 = 1, count = 0
        while i < v.count, v[i] >= 0x30, v[i] <= 0x39 {
            if count < 15 { value = value * 10 + Int64(v[i] - 0x30); scale *= 10 }
            count += 1; i += 1
        }
        return count > 0 ? CaptionTime(numerator: value, denominator: scale) : nil
    }

    private func parseClock(_ v: UnsafeBufferPointer<UInt8>) -> Parsed {
        var i = 0
        var text: String { String(decoding: v, as: UTF8.self) }
        guard let h = digits(v, &i), i < v.count, v[i] == UInt8(ascii: ":") else { return .invalid("\"\(text)\" is not a clock time (hh:mm:ss)") }
        i += 1
        guard let m = digits(v, &i), m.count == 2, i < v.count, v[i] == UInt8(ascii: ":") else { return .invalid("\"\(text)\" is not a clock time (hh:mm:ss)") }
        i += 1
        guard let s = digits(v, &i), s.count == 2 else { return .invalid("\"\(text)\" is not a clock time (hh:mm:ss)") }
        if m.value > 59 { return .invalid("\"\(text)\": minutes must be 00–59") }
        var seconds = s.value
        var notes: [String] = []
        if seconds > 60 { return .invalid("\"\(text)\": seconds must be 00–59") }
        if seconds == 60 { seconds = 59; notes.append("\"\(text)\": a leap second (60) was read as 59") }
        guard var total = CaptionTime(hours: h.value, minutes: m.value, seconds: seconds, milliseconds: 0) else {
            return .invalid("\"\(text)\" is too large")
        }
        if i < v.count, v[i] == UInt8(ascii: ".") {
            i += 1
            guard let f = fraction(v, &i), let sum = total.adding(f) else { return .invalid("\"\(text)\": bad fraction of a second") }
            total = sum
        } else if i < v.count, v[i] == UInt8(ascii: ":") {
            i += 1
            guard var frames = digits(v, &i)?.value else { return .invalid("\"\(text)\": bad frame number") }
            var sub: Int64 = 0
            if i < v.count, v[i] == UInt8(ascii: ".") {
                i += 1
                guard let sf = digits(v, &i) else { return .invalid("\"\(text)\": bad sub-frame number") }
                sub = sf.value
            }
            if frames >= frameRate {
                notes.append("\"\(text)\": frame \(frames) is not below the frame rate \(frameRate); read as frame \(frameRate - 1)")
                frames = frameRate - 1
            }
            if sub >= subFrameRate {
                notes.append("\"\(text)\": sub-frame \(sub) is not below the sub-frame rate \(subFrameRate); read as \(subFrameRate - 1)")
                sub = subFrameRate - 1
            }
            // (frames + sub / S) frames = (frames × S + sub) / S frames.
            let (scaledFrames, o1) = frames.multipliedReportingOverflow(by: subFrameRate)
            let (allSubFrames, o2) = scaledFrames.addingReportingOverflow(sub)
            guard !o1, !o2, let count = CaptionTime(numerator: allSubFrames, denominator: subFrameRate),
                  let seconds = self.frames(count), let sum = total.adding(seconds) else {
                return .invalid("\"\(text)\" is too large")
            }
            total = sum
        }
        if i != v.count { return .invalid("\"\(text)\" is not a clock time (unexpected characters at the end)") }
        return .time(total, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    private func parseOffset(_ v: UnsafeBufferPointer<UInt8>) -> Parsed {
        var i = 0
        var text: String { String(decoding: v, as: UTF8.self) }
        guard let whole = digits(v, &i) else { return .invalid("\"\(text)\" is not a time expression") }
        guard var value = CaptionTime(numerator: whole.value, denominator: 1) else { return .invalid("\"\(text)\" is too large") }
        if i < v.count, v[i] == UInt8(ascii: ".") {
            i += 1
            guard let f = fraction(v, &i), let sum = value.adding(f) else { return .invalid("\"\(text)\": bad fraction") }
            value = sum
        }
        let rest = v.count - i
        let m0 = i < v.count ? v[i] : 0, m1 = i + 1 < v.count ? v[i + 1] : 0
        let result: CaptionTime?
        var note: String?
        switch (rest, m0, m1) {
        case (1, UInt8(ascii: "h"), _): result = value.scaled(by: 3600, over: 1)
        case (1, UInt8(ascii: "m"), _): result = value.scaled(by: 60, over: 1)
        case (1, UInt8(ascii: "s"), _): result = value
        case (2, UInt8(ascii: "m"), UInt8(ascii: "s")): result = value.scaled(by: 1, over: 1000)
        case (1, UInt8(ascii: "f"), _): result = frames(value)
        case (1, UInt8(ascii: "t"), _): result = ticks(value)
        case (0, _, _): result = value; note = "\"\(text)\" has no unit (h, m, s, ms, f or t); read as seconds"
        default:
            let metric = String(decoding: UnsafeBufferPointer(rebasing: v[i...]), as: UTF8.self)
            return .invalid("\"\(text)\": unknown unit \"\(metric)\" (expected h, m, s, ms, f or t)")
        }
        guard let result else { return .invalid("\"\(text)\" is too large") }
        return .time(result, note: note)
    }
}

extension CaptionTime {
    /// `self × numerator / denominator`, reduced before multiplying; nil on overflow or a zero denominator.
    func scaled(by numerator: Int64, over denominator: Int64) -> CaptionTime? {
        guard denominator != 0, numerator != .min, denominator != .min else { return nil }
        let g1 = Int64(CaptionTime.gcd(self.numerator.magnitude, denominator.magnitude))
        let g2 = Int64(CaptionTime.gcd(numerator.magnitude, self.denominator.magnitude))
        let (a, o1) = (self.numerator / g1).multipliedReportingOverflow(by: numerator / g2)
        let (b, o2) = (self.denominator / g2).multipliedReportingOverflow(by: denominator / g1)
        if o1 || o2 { return nil }
        return CaptionTime(numerator: a, denominator: b)
    }
}
