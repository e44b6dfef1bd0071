import Testing
@testable import Words

/// The eight-byte tests against the bytes one at a time.
@Suite struct ByteLanesTests {
    /// Eight bytes, the first the lowest (as a little-endian load gives them).
    static func word(_ bytes: [UInt8]) -> UInt64 { bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) } }

    /// Bytes drawn mostly from the few the scans look for, so that matches, runs and borrows are common.
    static func randomBytes(_ rng: inout SplitMix64) -> [UInt8] {
        let likely: [UInt8] = [0x00, 0x01, 0x0A, 0x0D, 0x0D, 0x20, 0x2E, 0x3A, 0x41, 0x61, 0x7F, 0x80, 0x81, 0xE2, 0xFF]
        return (0..<8).map { _ in rng.next() % 3 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : likely[Int(rng.next() % UInt64(likely.count))] }
    }

    @Test func theLowestEqualByteIsExactAndNoneIsMarkedWithoutOne() {
        var rng = SplitMix64(state: 36)
        for _ in 0..<50_000 {
            let bytes = Self.randomBytes(&rng)
            let w = Self.word(bytes)
            for target: UInt8 in [0x00, 0x0A, 0x0D, 0x2E, 0x7F, 0xE2] {
                let marks = ByteLanes.bytes(w, equalTo: target)
                if let first = bytes.firstIndex(of: target) {
                    #expect(marks.trailingZeroBitCount / 8 == first, "\(bytes) \(target)")
                } else {
                    #expect(marks == 0, "\(bytes) \(target)")
                }
            }
            #expect(ByteLanes.eightSingleASCII(w) == bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }, "\(bytes)")
        }
    }
}
