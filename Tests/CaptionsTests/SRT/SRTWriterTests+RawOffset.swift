import Testing
@testable import Captions

/// `SRTWriter.rawOffset` takes ASCII text one byte per byte; it must agree
/// with decoding scalar by scalar (invalid bytes read as U+FFFD, 3 bytes).
@Suite struct SRTRawOffsetTests {
    static func reference(_ raw: ArraySlice<UInt8>, _ plainOffset: Int) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = raw.makeIterator()
        var plain = 0, consumed = 0
        while plain < plainOffset {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): plain += scalar.count; consumed += scalar.count
            case .error(let length): plain += 3; consumed += length
            case .emptyInput: return consumed
            }
        }
        return consumed
    }

    @Test func asciiAndDamagedTextMapAsByDecoding() {
        let samples: [[UInt8]] = [Array("plain text".utf8), Array("café déjà".utf8), [0x61, 0xFF, 0x62, 0xE2, 0x82, 0x63], [], [0xC3], Array("ab".utf8) + [0x80, 0x80]]
        for bytes in samples {
            let padded = [0x7A, 0x7A] + bytes
            let raw = padded[2...]
            for offset in -1...(bytes.count + 4) {
                #expect(SRTWriter.rawOffset(raw, offset) == Self.reference(raw, offset), "\(bytes) at \(offset)")
            }
        }
    }
}
