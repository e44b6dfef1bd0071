/// An exact point in media time, in seconds, held as a reduced fraction.
///
/// Caption times are never floating point: SRT and WebVTT times are whole
/// milliseconds, TTML times can be frames at 30000/1001 fps or ticks at 10 MHz.
/// The denominator is always positive; arithmetic that would overflow returns
/// `nil` instead of trapping, so hostile input cannot crash a reader.
public struct CaptionTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Numerator of the time in seconds.
    public let numerator: Int64
    /// Denominator of the time in seconds; always greater than zero.
    public let denominator: Int64

    /// Zero seconds.
    public static let zero = CaptionTime(milliseconds: 0)

    /// A time of a whole number of milliseconds.
    @inline(__always)
    public init(milliseconds: Int64) {
        // gcd(ms, 1000) == gcd(ms mod 1000, 1000) = 2^a · 5^b, found with a
        // bit count and divisibility by constants: no loop and no table, since
        // readers make two of these per cue. The division by it is exact, so
        // it is a shift by a and a multiplication by the inverse of 5^b
        // modulo 2^64 (no divide instruction).
        let r = milliseconds.magnitude % 1000
        if r & 1 != 0 && r % 5 != 0 { numerator = milliseconds; denominator = 1000; return }
        let twos = (r | 8).trailingZeroBitCount
        let shifted = milliseconds >> Int64(twos)
        let denominator2 = Int64(1000) >> Int64(twos)
        if r % 125 == 0 {
            numerator = shifted &* 2_066_035_336_255_469_781; denominator = denominator2 / 125
        } else if r % 25 == 0 {
            numerator = shifted &* -8_116_567_392_432_202_711; denominator = denominator2 / 25
        } else if r % 5 == 0 {
            numerator = shifted &* -3_689_348_814_741_910_323; denominator = denominator2 / 5
        } else {
            numerator = shifted; denominator = denominator2
        }
    }

    /// A time of `numerator / denominator` seconds, reduced; `nil` if the denominator is zero.
    public init?(numerator: Int64, denominator: Int64) {
        guard denominator != 0, numerator != .min, denominator != .min else { return nil }
        let sign: Int64 = denominator < 0 ? -1 : 1
        let g = Int64(CaptionTime.gcd(numerator.magnitude, denominator.magnitude))
        self.numerator = sign * numerator / g
        self.denominator = sign * denominator / g
    }

    /// Builds a time from hours, minutes, seconds and milliseconds; `nil` on overflow.
    public init?(hours: Int64, minutes: Int64, seconds: Int64, milliseconds: Int64) {
        var total: Int64 = 0
        for (value, scale) in [(hours, Int64(3_600_000)), (minutes, 60_000), (seconds, 1000), (milliseconds, 1)] {
            let (m, o1) = value.multipliedReportingOverflow(by: scale)
            let (s, o2) = total.addingReportingOverflow(m)
            if o1 || o2 { return nil }
            total = s
        }
        self.init(milliseconds: total)
    }

    /// The time rounded to the nearest millisecond (halves away from zero),
    /// clamped to the `Int64` range for absurd times.
    public var roundedMilliseconds: Int64 {
        let whole = numerator / denominator, rest = numerator % denominator  // |rest| < denominator
        // rest * 1000 fits: denominator is at most Int64.max, so use full width.
        let wide = rest.multipliedFullWidth(by: 1000)
        let (fracMs, remainder) = denominator.dividingFullWidth(wide)
        var frac = fracMs
        if remainder.magnitude * 2 >= denominator.magnitude { frac += rest < 0 ? -1 : 1 }
        let (scaled, o1) = whole.multipliedReportingOverflow(by: 1000)
        let (total, o2) = scaled.addingReportingOverflow(frac)
        if o1 || o2 { return numerator < 0 ? .min : .max }
        return total
    }

    /// The sum of two times, or `nil` if it does not fit.
    public func adding(_ other: CaptionTime) -> CaptionTime? {
        let g = Int64(CaptionTime.gcd(denominator.magnitude, other.denominator.magnitude))
        let (l, o1) = denominator.multipliedReportingOverflow(by: other.denominator / g)
        let (a, o2) = numerator.multipliedReportingOverflow(by: other.denominator / g)
        let (b, o3) = other.numerator.multipliedReportingOverflow(by: denominator / g)
        let (s, o4) = a.addingReportingOverflow(b)
        if o1 || o2 || o3 || o4 { return nil }
        return CaptionTime(numerator: s, denominator: l)
    }

    public static func < (lhs: CaptionTime, rhs: CaptionTime) -> Bool {
        // Compare a/b < c/d as a*d < c*b with 128-bit intermediates.
        let l = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let r = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return (l.high, l.low) < (r.high, r.low)
    }

    /// `HH:MM:SS.mmm`, rounded to milliseconds; negative times get a leading `-`.
    public var description: String {
        let ms = roundedMilliseconds
        let a = ms.magnitude
        let h = a / 3_600_000, m = a / 60_000 % 60, s = a / 1000 % 60, f = a % 1000
        func pad(_ v: UInt64, _ n: Int) -> String {
            let t = String(v); return String(repeating: "0", count: max(0, n - t.count)) + t
        }
        return (ms < 0 ? "-" : "") + "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3))"
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }
}
