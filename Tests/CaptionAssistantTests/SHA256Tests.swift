import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct SHA256Tests {
    /// FIPS 180-4 / NIST example values.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func knownValues(_ text: String, _ expected: String) {
        #expect(SHA256.hex(Array(text.utf8)) == expected)
    }

    @Test func aMillionAs() {
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length around the block and padding boundaries, fed whole and in
    /// uneven pieces, gives the same digest.
    @Test func piecesGiveTheSameDigestAsTheWhole() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = SHA256.hex(bytes)
            var hash = SHA256()
            var offset = 0
            var step = 1
            while offset < bytes.count {
                let end = min(bytes.count, offset + step)
                hash.update(bytes[offset..<end])
                offset = end
                step = step * 3 % 70 + 1
            }
            let digits = hash.finalize().map { String(format: "%02x", $0) }.joined()
            #expect(digits == whole, "length \(length)")
        }
    }
}
