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
}
