import Foundation
import Testing
@testable import Captions

@Suite struct TextEncodingTests {
    @Test(arguments: [TextEncoding.utf8, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian])
    func roundTripWithByteOrderMark(_ encoding: TextEncoding) throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nZoë — déjà vu ♪ 🎬\n"
        let original = SourceText(bytes: Array(text.utf8), encoding: encoding, hasByteOrderMark: true, warnings: [])
        let data = try original.encode(original.bytes)
        let decoded = try SourceText.decode(data)
        #expect(decoded.encoding == encoding)
        #expect(decoded.hasByteOrderMark)
        #expect(decoded.bytes == Array(text.utf8))
        #expect(try decoded.encode(decoded.bytes) == data)
    }

    @Test func windows1252EveryByteRoundTrips() throws {
        var raw = Data(Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8))
        raw.append(contentsOf: (0x80...0xFF).map { UInt8($0) })
        let decoded = try SourceText.decode(raw)
        #expect(decoded.encoding == .windows1252)
        #expect(decoded.warnings.count == 1)
        #expect(String(decoding: decoded.bytes, as: UTF8.self).contains("€"))
        #expect(try decoded.encode(decoded.bytes) == raw)
        #expect(!TextEncoding.windows1252.canEncode("🎬"))
        #expect(throws: CaptionError.self) { try decoded.encode(decoded.bytes + Array(" 🎬".utf8)) }
    }

    @Test func damagedUTF8StaysUTF8AndKeepsItsBytes() throws {
        let raw = Data(Array("line one é é é\nline two ".utf8) + [0xFF] + Array(" ü\n".utf8))
        let decoded = try SourceText.decode(raw)
        #expect(decoded.encoding == .utf8)
        #expect(decoded.warnings.map(\.line) == [2])
        #expect(try decoded.encode(decoded.bytes) == raw)
    }

    @Test func utf16WithoutByteOrderMarkIsRecognised() throws {
        let text = "WEBVTT\n\n00:01.000 --> 00:02.000\nhello\n"
        var raw = Data()
        for u in text.utf16 { raw.append(UInt8(u & 0xFF)); raw.append(UInt8(u >> 8)) }
        let decoded = try SourceText.decode(raw)
        #expect(decoded.encoding == .utf16LittleEndian)
        #expect(!decoded.hasByteOrderMark)
        #expect(decoded.bytes == Array(text.utf8))
        #expect(try decoded.encode(decoded.bytes) == raw)
    }

    @Test func aNameKeepsTheScalarsFoundationsAlphanumericsHold() {
        // TextEncoding(named:) keeps a name's letters, marks and digits by the scalars'
        // general category (Captions needs only FoundationEssentials, which has no
        // CharacterSet): the same scalars CharacterSet.alphanumerics keeps, over every
        // scalar of Unicode 8.0 (Linux's Foundation lacks some later scripts; no
        // encoding's name has them, so a name with one names no encoding either way).
        let scalars = (0..<0x110000).compactMap(Unicode.Scalar.init).filter { scalar in
            scalar.properties.age.map { $0.major <= 8 } ?? false
        }
        for chunk in stride(from: 0, to: scalars.count, by: 4096) {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[chunk..<min(chunk + 4096, scalars.count)])
            let name = String(view)
            let foundation = String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
            #expect(TextEncoding.squeezed(name) == foundation, "scalars from U+\(String(view.first?.value ?? 0, radix: 16))")
        }
        #expect(TextEncoding.squeezed("UTF-16 LE") == "utf16le" && TextEncoding(named: "utf_16__le") == .utf16LittleEndian)
        #expect(TextEncoding(named: "\u{17000}\u{17001}") == nil && TextEncoding(named: "-\u{1C89}-") == nil)
    }
}
