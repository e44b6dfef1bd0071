import Testing
@testable import Captions

@Suite("WebVTT timestamps")
struct WebVTTTimestampTests {
    /// (text, strict result in ms, lenient result in ms, bytes consumed when read)
    static let cases: [(String, Int64?, Int64?, Int)] = [
        ("00:01.000", 1000, 1000, 9), ("00:00:01.000", 1000, 1000, 12), ("59:59.999", 3_599_999, 3_599_999, 9),
        ("1:00:00.000", 3_600_000, 3_600_000, 11), ("100:00:00.000", 360_000_000, 360_000_000, 13),
        ("00:00:01.000-->", 1000, 1000, 12), ("00:01.000 x", 1000, 1000, 9),
        ("60:00.000", nil, nil, 0), ("00:60.000", nil, nil, 0), ("00:00:60.000", nil, nil, 0), ("00:60:00.000", nil, nil, 0),
        ("00:01.0000", nil, nil, 0), ("00:00:01.0000", nil, nil, 0), ("00:01", nil, nil, 0), ("00:01.", nil, nil, 0),
        ("00:01.00", nil, 1000, 8), ("00:01.5", nil, 1500, 7), ("00:01.25", nil, 1250, 8), ("00:01,000", nil, 1000, 9), ("1:05.000", nil, 65_000, 8),
        ("0:1:5.200", nil, 65_200, 9), ("100:05.000", nil, nil, 0), ("x00:01.000", nil, nil, 0),
        ("99999999999999999999:00:00.000", nil, nil, 0), ("2562047788016:00:00.000", nil, nil, 0), ("2562047788015:00:00.000", 9_223_372_036_854_000_000, 9_223_372_036_854_000_000, 23),
    ]

    @Test(arguments: cases)
    func parse(_ c: (String, Int64?, Int64?, Int)) {
        let bytes = Array(c.0.utf8)
        bytes.withUnsafeBufferPointer { p in
            for (lenient, expected) in [(false, c.1), (true, c.2)] {
                var i = 0
                switch WebVTTTimestamp.parse(p, &i, end: p.count, lenient: lenient) {
                case let .success(v):
                    #expect(v.milliseconds == expected, "\(c.0) lenient=\(lenient)")
                    #expect(i == c.3, "\(c.0) consumed")
                    #expect((v.deviation != nil) == (lenient && c.1 == nil), "\(c.0) deviation")
                case .failure:
                    #expect(expected == nil, "\(c.0) lenient=\(lenient) failed")
                }
            }
        }
    }
}
