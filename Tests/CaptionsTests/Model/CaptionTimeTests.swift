import Testing
@testable import Captions

@Suite struct CaptionTimeTests {
    @Test func millisecondsReduce() {
        let t = CaptionTime(milliseconds: 1500)
        #expect(t.numerator == 3 && t.denominator == 2)
        #expect(t.roundedMilliseconds == 1500)
        #expect(t.description == "00:00:01.500")
    }

    @Test func frameTimesStayExact() throws {
        // 1 frame at 30000/1001 fps is 1001/30000 s, never a rounded double.
        let frame = try #require(CaptionTime(numerator: 1001, denominator: 30000))
        let two = try #require(frame.adding(frame))
        #expect(two == CaptionTime(numerator: 1001, denominator: 15000))
        #expect(two.roundedMilliseconds == 67)
    }

    @Test func overflowIsNilNotATrap() {
        #expect(CaptionTime(hours: .max / 1000, minutes: 0, seconds: 0, milliseconds: 0) == nil)
        let big = CaptionTime(milliseconds: .max)
        #expect(big.adding(big) == nil)
    }

    @Test func ordering() {
        #expect(CaptionTime(milliseconds: 999) < CaptionTime(milliseconds: 1000))
        #expect(CaptionTime(numerator: -1, denominator: 3)! < .zero)
    }

    /// `init(milliseconds:)` divides by the gcd with a shift and a multiplication;
    /// every residue modulo 1000, signed and large, reduces as the gcd loop does.
    @Test func millisecondsReduceLikeTheGeneralFraction() throws {
        for r: Int64 in 0..<1000 {
            for base: Int64 in [0, 1000, 7_000, 86_400_000, 9_223_372_036_854_000] {
                for ms in [base + r, -(base + r)] {
                    let t = CaptionTime(milliseconds: ms)
                    let general = try #require(CaptionTime(numerator: ms, denominator: 1000))
                    #expect(t.numerator == general.numerator && t.denominator == general.denominator, "\(ms)")
                }
            }
        }
        let largest = CaptionTime(milliseconds: .max)  // .max mod 1000 = 807: already reduced
        #expect(largest.numerator == .max && largest.denominator == 1000)
        let smallest = CaptionTime(milliseconds: .min)  // 2^63 mod 1000 = 808: gcd 8
        #expect(smallest.numerator == .min / 8 && smallest.denominator == 125)
    }

    /// Milliseconds, small, large and negative, equal the same fraction of a second made the general way.
    @Test func millisecondsAtTheEdgesEqualTheGeneralFraction() {
        for ms: Int64 in [0, 1, 2, 5, 8, 10, 125, 250, 500, 999, 1000, 1001, 3_723_456, -1, -8, -1000, .max, .min + 1] {
            let t = CaptionTime(milliseconds: ms)
            #expect(CaptionTime(numerator: ms, denominator: 1000) == t, "\(ms)")
        }
    }
}
