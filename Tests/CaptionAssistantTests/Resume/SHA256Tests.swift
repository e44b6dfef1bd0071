import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct SHA256Tests {
    /// A small seeded generator (SplitMix64), so that a failure can be run again with the same bytes.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    static func randomBytes(_ count: Int, _ generator: inout Generator) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Array(bytes.prefix(count))
    }

    /// The test pattern byte `i` of the `sha256sum` cross-checks below: (7i + 3) mod 256.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    }

    /// FIPS 180-4 / NIST example values (the one-block, two-block 448-bit and
    /// 896-bit messages).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        ("The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func knownValues(_ text: String, _ expected: String) {
        #expect(SHA256.hex(Array(text.utf8)) == expected)
    }

    @Test func aMillionAs() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hex(bytes) == expected)
    }

    /// Every length from 0 to 200 bytes (all the padding cases: the length fits
    /// in the last block or needs one more, for one to four blocks) against
    /// `sha256sum`. The literal is a real output of coreutils `sha256sum`,
    /// computed when this test was written as
    ///
    ///     python3 -c "import sys; sys.stdout.buffer.write(bytes((i*7+3)%256 for i in range(1000000)))" > p.bin
    ///     for n in $(seq 0 200); do head -c $n p.bin | sha256sum | cut -c1-64; done | sha256sum
    ///
    /// that is the SHA-256 of the 201 hex digests, one a line.
    @Test func everyLengthUpTo200MatchesSha256sum() {
        var lines = ""
        for length in 0...200 { lines += SHA256.hex(Self.pattern(length)) + "\n" }
        #expect(SHA256.hex(Array(lines.utf8)) == "b949b522a97d4fd0bb708775951658ff5d293932e052f8640d6536071403eb70")
    }

    /// Longer pattern inputs against `sha256sum` (real outputs of
    /// `head -c N p.bin | sha256sum`, p.bin as above).
    @Test(arguments: [
        (1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"),
        (65536, "510b126e1d4ced49107fe4ab03ee54cb1c8e4caf6064e1dd29c48d4a3e74c38b"),
        (1_000_000, "1dc6622e2b0d38fe9e646130ff9014746cfa84d65e17c919e2834277d318c78a"),
    ])
    func patternMatchesSha256sum(_ length: Int, _ expected: String) {
        #expect(SHA256.hex(Self.pattern(length)) == expected)
    }

    /// Every length around the block and padding boundaries, fed whole and in
    /// random pieces (empty ones included), gives the same digest.
    @Test func piecesGiveTheSameDigestAsTheWhole() {
        var generator = Generator(state: 8)
        let lengths = Array(0...200) + [255, 256, 257, 1000, 4095, 4096, 4097, 65_599, 65_600, 65_601]
        for length in lengths {
            let bytes = Self.randomBytes(length, &generator)
            let whole = SHA256.hex(bytes)
            var hash = SHA256()
            var offset = 0
            while offset < bytes.count {
                let piece = Int.random(in: 0...(Bool.random(using: &generator) ? 70 : 300), using: &generator)
                let end = min(bytes.count, offset + piece)
                hash.update(bytes[offset..<end])
                offset = end
            }
            #expect(hash.finalizeHex() == whole, "length \(length)")
        }
    }

    /// A collection without contiguous storage is hashed like the same bytes in an array.
    @Test func nonContiguousCollection() {
        for length in [0, 63, 64, 65, 200, 5000] {
            let bytes = Self.pattern(length)
            let lazy = (0..<length).lazy.map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            #expect(SHA256.hex(lazy) == SHA256.hex(bytes), "length \(length)")
        }
    }

    /// A copy hashes on independently of the original (the digest state is a value),
    /// and taking a digest does not change what follows.
    @Test func copiesAreIndependentAndDigestsDoNotConsume() {
        var first = SHA256()
        first.update(Array("The quick brown fox ".utf8))
        var second = first
        first.update(Array("jumps over the lazy dog".utf8))
        second.update(Array("is quick".utf8))
        #expect(first.finalizeHex() == "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592")
        #expect(second.finalizeHex() == SHA256.hex(Array("The quick brown fox is quick".utf8)))
        #expect(second.finalize() == second.finalize())
        first.update(Array(".".utf8))
        #expect(first.finalizeHex() == SHA256.hex(Array("The quick brown fox jumps over the lazy dog.".utf8)))
    }
}
