#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The character encoding a caption file came in, and so the one it is written back in.
///
/// The Unicode encodings and Windows-1252 are the tool's own; any other is a
/// legacy set ICU converts (`LegacyCharset`), named as reports name it
/// (`Shift_JIS`, `GB18030`, `Big5`, `EUC-KR`, `KOI8-R`, `Windows-1251`, `ISO-8859-2`).
public struct TextEncoding: RawRepresentable, Sendable, Hashable {
    /// The encoding's name, as reports and messages give it.
    public let rawValue: String

    /// The encoding named exactly `rawValue` (see `init?(named:)` for a name as a person types it).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// UTF-8.
    public static let utf8 = TextEncoding(rawValue: "UTF-8")
    /// UTF-16, little-endian.
    public static let utf16LittleEndian = TextEncoding(rawValue: "UTF-16LE")
    /// UTF-16, big-endian.
    public static let utf16BigEndian = TextEncoding(rawValue: "UTF-16BE")
    /// UTF-32, little-endian.
    public static let utf32LittleEndian = TextEncoding(rawValue: "UTF-32LE")
    /// UTF-32, big-endian.
    public static let utf32BigEndian = TextEncoding(rawValue: "UTF-32BE")
    /// Windows-1252: detected, declared, or the reading of a file whose
    /// encoding could not be told (every byte reads as one character and is
    /// written back as the same byte, so such a file is never damaged).
    public static let windows1252 = TextEncoding(rawValue: "Windows-1252")

    /// The encodings the tool converts itself; every other goes through ICU.
    static let ownEncodings: [TextEncoding] = [.utf8, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .windows1252]

    /// Whether this is UTF-8, UTF-16 or UTF-32.
    public var isUnicode: Bool { self != .windows1252 && Self.ownEncodings.contains(self) }

    /// The encoding a person names `name` (`--input-encoding`): the Unicode
    /// ones with their byte order (`utf-8`, `UTF-16LE`, `utf32be`),
    /// `windows-1252`/`cp1252`, and any name or alias ICU's converters know
    /// (`gbk`, `gb18030`, `big5`, `euc-kr`, `shift_jis`, `sjis`, `euc-jp`,
    /// `koi8-r`, `windows-1251`, `iso-8859-2`, …). nil for a name no
    /// converter has, and for UTF-16 or UTF-32 without a byte order (a file
    /// with a byte-order mark needs no name).
    public init?(named name: String) {
        let squeezed = Self.squeezed(name)
        if let own = Self.ownEncodings.first(where: { $0.squeezed == squeezed }) { self = own; return }
        if squeezed == "cp1252" { self = .windows1252; return }
        guard !squeezed.isEmpty, let display = LegacyCharset.displayName(of: name) else { return nil }
        if let own = Self.ownEncodings.first(where: { $0.squeezed == TextEncoding(rawValue: display).squeezed }) { self = own; return }
        // UTF-16 and UTF-32 with no byte order, UTF-7 and the like: not a text of single-byte-compatible lines ICU may write a mark into.
        if display.uppercased().hasPrefix("UTF") || display.uppercased().hasPrefix("UNICODE") { return nil }
        self.init(rawValue: display)
    }

    /// The name lowercased without punctuation (`utf16le`), for matching what a person types.
    private var squeezed: String { Self.squeezed(rawValue) }

    /// `name` lowercased with only its letters, marks and digits kept (the
    /// general categories L, M and N: what Foundation's
    /// `CharacterSet.alphanumerics` holds, which on Linux lacks some scripts
    /// of Unicode 9.0 and later, such as Tangut; no encoding's name has them),
    /// told by the scalars' own properties so that this module needs no more
    /// of Foundation than FoundationEssentials.
    static func squeezed(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber: true
            default: false
            }
        })
    }

    /// Whether `text` can be written in this encoding without loss.
    public func canEncode(_ text: String) -> Bool {
        if isUnicode { return true }
        if self == .windows1252 { return text.unicodeScalars.allSatisfy { Windows1252.byte(for: $0) != nil } }
        return LegacyCharset.encode(Array(text.utf8), to: rawValue) != nil
    }
}

/// A caption file's text as UTF-8 bytes, with what is needed to write it back
/// exactly as it came: the encoding and whether it started with a byte-order mark.
///
/// Readers work on `bytes` (UTF-8, byte-order mark removed). UTF-8 files are
/// not copied or transcoded; invalid UTF-8 sequences inside an otherwise UTF-8
/// file stay in `bytes` as they came, so untouched text is written back as is.
public struct SourceText: Sendable {
    /// The text as UTF-8 (possibly with invalid sequences kept as they came), without a byte-order mark.
    public let bytes: [UInt8]
    /// The encoding of the original file.
    public let encoding: TextEncoding
    /// Whether the original file began with a byte-order mark.
    public let hasByteOrderMark: Bool
    /// What decoding had to repair or guess, with line numbers where known.
    public let warnings: [CaptionWarning]
    /// Whether the encoding is known rather than guessed: declared, shown by
    /// a byte-order mark, UTF-8 (valid, or nearly so), or detected with
    /// confidence and checked by converting the text back to the same bytes.
    /// Text whose encoding is not known is read as Windows-1252 only so that
    /// its readable parts can be shown; nothing may be spliced into it.
    public let encodingIsKnown: Bool
    /// The encodings that read a file whose encoding is not known (best
    /// first; `CharsetDetection`), for the message that asks which it is;
    /// empty when the encoding is known or nothing reads it.
    public internal(set) var encodingCandidates: [TextEncoding] = []

    /// Wraps UTF-8 text (for tests and standard input of known text).
    public init(utf8 string: String) {
        bytes = Array(string.utf8); encoding = .utf8; hasByteOrderMark = false; warnings = []; encodingIsKnown = true
    }

    init(bytes: [UInt8], encoding: TextEncoding, hasByteOrderMark: Bool, warnings: [CaptionWarning], known: Bool = true) {
        self.bytes = bytes; self.encoding = encoding
        self.hasByteOrderMark = hasByteOrderMark; self.warnings = warnings; self.encodingIsKnown = known
    }

    /// Decodes a file's bytes: byte-order marks for UTF-8, UTF-16 and UTF-32;
    /// then the encoding `declared`, when given; UTF-16 without a mark when
    /// the pattern of zero bytes shows it; UTF-8; otherwise the legacy set
    /// ICU's detector names with confidence, when converting the text back
    /// gives the same bytes and no other encoding reads it as other text
    /// (`CharsetDetection`, the one rule); and failing all that Windows-1252,
    /// with `encodingIsKnown` false and the candidates in `encodingCandidates`.
    public static func decode(_ data: Data, declared: TextEncoding? = nil) throws -> SourceText {
        try decode(bytes: [UInt8](data), declared: declared)
    }

    /// Decodes a file's bytes (see `decode(_:declared:)`). A UTF-8 file
    /// without a byte-order mark keeps `raw`'s buffer: no copy is made.
    public static func decode(bytes raw: [UInt8], declared: TextEncoding? = nil) throws -> SourceText {
        // The marks by their first bytes (no array made per test).
        let n = raw.count
        let b0 = n > 0 ? raw[0] : 1, b1 = n > 1 ? raw[1] : 1
        func starts(_ p: [UInt8]) -> Bool { raw.count >= p.count && raw.starts(with: p) }
        if b0 == 0xEF && starts([0xEF, 0xBB, 0xBF]) {
            let body = Array(raw[3...])
            return SourceText(bytes: body, encoding: .utf8, hasByteOrderMark: true,
                              warnings: UTF8Check.warnings(for: body))
        }
        if b0 == 0xFF || b0 == 0 || b0 == 0xFE {
            if starts([0xFF, 0xFE, 0, 0]) { return try decodeWide(raw, skip: 4, encoding: .utf32LittleEndian, bom: true) }
            if starts([0, 0, 0xFE, 0xFF]) { return try decodeWide(raw, skip: 4, encoding: .utf32BigEndian, bom: true) }
            if b1 == 0xFE && starts([0xFF, 0xFE]) { return try decodeWide(raw, skip: 2, encoding: .utf16LittleEndian, bom: true) }
            if b1 == 0xFF && starts([0xFE, 0xFF]) { return try decodeWide(raw, skip: 2, encoding: .utf16BigEndian, bom: true) }
        }
        if let declared { return try decode(raw, as: declared) }
        if let guess = guessUnmarkedUTF16(raw) {
            var decoded = try decodeWide(raw, skip: 0, encoding: guess, bom: false)
            decoded = SourceText(bytes: decoded.bytes, encoding: guess, hasByteOrderMark: false,
                                 warnings: [CaptionWarning(line: nil, message: "no byte-order mark; the zero bytes show \(guess.rawValue), read as such")] + decoded.warnings)
            return decoded
        }
        let check = UTF8Check.scan(raw)
        if check.invalidSequences == 0 {
            return SourceText(bytes: raw, encoding: .utf8, hasByteOrderMark: false, warnings: [])
        }
        if check.isDamagedUTF8 {
            return SourceText(bytes: raw, encoding: .utf8, hasByteOrderMark: false,
                              warnings: UTF8Check.warnings(for: raw))
        }
        switch CharsetDetection.find(raw) {
        case .known(let encoding, let decoded, let confidence):
            return SourceText(bytes: decoded, encoding: encoding, hasByteOrderMark: false, warnings: [CaptionWarning(
                line: check.firstInvalidLine, message: "not valid UTF-8 and no byte-order mark: detected as \(encoding.rawValue) (ICU's confidence \(confidence) of 100, and no reading of other text comes close), and converting the text back gives the same bytes")])
        case .unknown(let candidates, let why):
            var source = SourceText(bytes: windows1252(raw), encoding: .windows1252, hasByteOrderMark: false, warnings: [CaptionWarning(
                line: check.firstInvalidLine,
                message: "not valid UTF-8, no byte-order mark, and its encoding could not be told (\(why)): read as Windows-1252 only to show its text, and written unchanged")],
                known: false)
            source.encodingCandidates = candidates
            return source
        }
    }

    /// `raw` read in the encoding the user declared (after any byte-order
    /// mark, which wins): invalid UTF-8 kept as it came, as for a UTF-8 file;
    /// a legacy set only when converting the text back gives the same bytes
    /// (otherwise read as an unknown encoding is, and said).
    private static func decode(_ raw: [UInt8], as declared: TextEncoding) throws -> SourceText {
        switch declared {
        case .utf8:
            // Bytes that are mostly not UTF-8 are not read as it because it was declared: an edit would mix encodings in one file.
            let check = UTF8Check.scan(raw)
            if check.invalidSequences == 0 || check.isDamagedUTF8 {
                return SourceText(bytes: raw, encoding: .utf8, hasByteOrderMark: false, warnings: UTF8Check.warnings(for: raw))
            }
            return notDeclared(raw, declared)
        case .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian:
            return try decodeWide(raw, skip: 0, encoding: declared, bom: false)
        case .windows1252:
            return SourceText(bytes: windows1252(raw), encoding: .windows1252, hasByteOrderMark: false, warnings: [])
        default:
            if let decoded = legacy(raw, as: declared) {
                return SourceText(bytes: decoded, encoding: declared, hasByteOrderMark: false, warnings: [])
            }
            return notDeclared(raw, declared)
        }
    }

    /// `raw`, whose bytes are not in the encoding `declared` for it: read as
    /// an unknown encoding is (Windows-1252 only to show its text), and said.
    private static func notDeclared(_ raw: [UInt8], _ declared: TextEncoding) -> SourceText {
        SourceText(bytes: windows1252(raw), encoding: .windows1252, hasByteOrderMark: false, warnings: [CaptionWarning(
            line: nil, message: "declared \(declared.rawValue), but the bytes are not \(declared.rawValue) text (or do not convert back to the same bytes): read as Windows-1252 only to show its text, and written unchanged")],
            known: false)
    }

    /// `raw` in the legacy set `encoding` as UTF-8, when converting that back
    /// gives `raw` exactly; nil otherwise (then nothing may be spliced into it).
    static func legacy(_ raw: [UInt8], as encoding: TextEncoding) -> [UInt8]? {
        if encoding == .windows1252 { return windows1252(raw) }
        guard let decoded = LegacyCharset.decode(raw, from: encoding.rawValue),
              LegacyCharset.encode(decoded, to: encoding.rawValue) == raw else { return nil }
        return decoded
    }

    /// `raw` read as Windows-1252 (every byte one character), as UTF-8.
    private static func windows1252(_ raw: [UInt8]) -> [UInt8] {
        var out = [UInt8](); out.reserveCapacity(raw.count + raw.count / 8)
        for b in raw { Windows1252.appendUTF8(of: b, to: &out) }
        return out
    }

    /// Encodes UTF-8 bytes produced from this source back into its encoding,
    /// with its byte-order mark. Throws if a character cannot be represented.
    public func encode(_ utf8: [UInt8]) throws -> Data {
        var out = Data()
        switch encoding {
        case .utf8:
            if hasByteOrderMark { out.append(contentsOf: [0xEF, 0xBB, 0xBF]) }
            out.append(contentsOf: utf8)
        case .windows1252:
            out.reserveCapacity(utf8.count)
            var line = 1
            for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
                if scalar == "\n" { line += 1 }
                guard let b = Windows1252.byte(for: scalar) else {
                    throw CaptionError(.unencodableCharacter, line: line,
                                       message: "U+\(String(scalar.value, radix: 16, uppercase: true)) cannot be written in Windows-1252")
                }
                out.append(b)
            }
        case .utf16LittleEndian, .utf16BigEndian:
            let little = encoding == .utf16LittleEndian
            if hasByteOrderMark { out.append(contentsOf: little ? [0xFF, 0xFE] : [0xFE, 0xFF]) }
            out.reserveCapacity(utf8.count * 2 + 2)
            for unit in String(decoding: utf8, as: UTF8.self).utf16 {
                let hi = UInt8(unit >> 8), lo = UInt8(unit & 0xFF)
                out.append(contentsOf: little ? [lo, hi] : [hi, lo])
            }
        case .utf32LittleEndian, .utf32BigEndian:
            let little = encoding == .utf32LittleEndian
            if hasByteOrderMark { out.append(contentsOf: little ? [0xFF, 0xFE, 0, 0] : [0, 0, 0xFE, 0xFF]) }
            for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
                let v = scalar.value
                let be: [UInt8] = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
                out.append(contentsOf: little ? be.reversed() : be)
            }
        default:
            // A legacy set: the whole text converted, so every edit lies between
            // whole characters of the set (the text was checked to convert back
            // to the input's bytes when it was read).
            if let encoded = LegacyCharset.encode(utf8, to: encoding.rawValue) { return Data(encoded) }
            var line = 1
            for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
                if scalar == "\n" { line += 1 }
                guard scalar.value >= 0x80, !encoding.canEncode(String(scalar)) else { continue }
                throw CaptionError(.unencodableCharacter, line: line,
                                   message: "U+\(String(scalar.value, radix: 16, uppercase: true)) cannot be written in \(encoding.rawValue)")
            }
            throw CaptionError(.unencodableCharacter, line: nil, message: "the text cannot be written in \(encoding.rawValue)")
        }
        return out
    }

    private static func decodeWide(_ raw: [UInt8], skip: Int, encoding: TextEncoding, bom: Bool) throws -> SourceText {
        let body = raw[skip...]
        var warnings: [CaptionWarning] = []
        var out = [UInt8](); out.reserveCapacity(body.count)
        switch encoding {
        case .utf16LittleEndian, .utf16BigEndian:
            let little = encoding == .utf16LittleEndian
            if body.count % 2 != 0 {
                warnings.append(CaptionWarning(line: nil, message: "\(encoding.rawValue) text ends with half a character; the last byte was dropped"))
            }
            var units = [UInt16](); units.reserveCapacity(body.count / 2)
            var i = body.startIndex
            while i + 1 < body.endIndex {
                let a = UInt16(body[i]), b = UInt16(body[i + 1])
                units.append(little ? (b << 8 | a) : (a << 8 | b)); i += 2
            }
            var bad = 0
            _ = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: false) { out.append($0) }
            // transcode replaces lone surrogates with U+FFFD; count them for the report.
            var it = units.makeIterator(); var dec = UTF16()
            loop: while true {
                switch dec.decode(&it) { case .scalarValue: continue; case .emptyInput: break loop; case .error: bad += 1 }
            }
            if bad > 0 { warnings.append(CaptionWarning(line: nil, message: "\(bad) unpaired UTF-16 surrogate(s) replaced with U+FFFD")) }
        default:
            let little = encoding == .utf32LittleEndian
            if body.count % 4 != 0 {
                warnings.append(CaptionWarning(line: nil, message: "\(encoding.rawValue) text ends with part of a character; it was dropped"))
            }
            var i = body.startIndex
            var invalid = CaptionWarningLog()
            while i + 3 < body.endIndex {
                let q = (0..<4).map { UInt32(body[i + $0]) }
                let v = little ? (q[3] << 24 | q[2] << 16 | q[1] << 8 | q[0]) : (q[0] << 24 | q[1] << 16 | q[2] << 8 | q[3])
                let s = Unicode.Scalar(v) ?? "\u{FFFD}"
                if Unicode.Scalar(v) == nil {
                    invalid.warn(nil, "invalid UTF-32 value 0x\(String(v, radix: 16)) replaced with U+FFFD")
                }
                out.append(contentsOf: Array(String(s).utf8)); i += 4
            }
            warnings += invalid.finish()
        }
        return SourceText(bytes: out, encoding: encoding, hasByteOrderMark: bom, warnings: warnings)
    }

    /// UTF-16 without a byte-order mark: ASCII-heavy text shows a zero byte in
    /// every other position.
    static func guessUnmarkedUTF16(_ raw: [UInt8]) -> TextEncoding? {
        let n = min(raw.count, 512) & ~1
        guard n >= 8 else { return nil }
        var evenZeros = 0, oddZeros = 0
        raw.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            var i = 0
            // Eight bytes at a time: the high bit of each zero byte (exact),
            // counted at even and at odd offsets.
            while i + 8 <= n {
                let x = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
                let zeros = ~(((x & low) &+ low) | x | low)
                evenZeros += (zeros & 0x0080_0080_0080_0080).nonzeroBitCount
                oddZeros += (zeros & 0x8000_8000_8000_8000).nonzeroBitCount
                i += 8
            }
            while i < n {
                if p[i] == 0 { evenZeros += 1 }
                if p[i + 1] == 0 { oddZeros += 1 }
                i += 2
            }
        }
        let pairs = n / 2
        if oddZeros * 10 >= pairs * 7 && evenZeros * 10 <= pairs { return .utf16LittleEndian }
        if evenZeros * 10 >= pairs * 7 && oddZeros * 10 <= pairs { return .utf16BigEndian }
        return nil
    }
}

/// Validation of UTF-8 bytes without building a `String`.
enum UTF8Check {
    struct Result {
        var invalidSequences = 0; var validMultibyte = 0; var firstInvalidLine: Int?
        /// A few bad bytes among many good multi-byte sequences: a damaged
        /// UTF-8 file (its bad bytes kept as they came), not another encoding.
        var isDamagedUTF8: Bool { validMultibyte > 0 && invalidSequences * 4 <= validMultibyte }
    }

    /// Counts valid multi-byte sequences and invalid ones; the line of the first invalid byte.
    static func scan(_ bytes: [UInt8]) -> Result {
        var r = Result()
        bytes.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            var i = 0
            let n = p.count
            while i < n {
                // Eight ASCII bytes at a time (most caption text); the line of
                // the first invalid byte is counted only when there is one.
                if i + 32 <= n {
                    let r = UnsafeRawPointer(base + i)
                    let any = r.loadUnaligned(as: UInt64.self) | r.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        | r.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | r.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                    if any & 0x8080_8080_8080_8080 == 0 { i += 32; continue }
                }
                if i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8; continue
                }
                let b = p[i]
                if b < 0x80 { i += 1; continue }
                let len = sequenceLength(p, i)
                if len > 0 { r.validMultibyte += 1; i += len }
                else {
                    r.invalidSequences += 1
                    if r.firstInvalidLine == nil { r.firstInvalidLine = 1 + p[0..<i].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
                    i += 1
                }
            }
        }
        return r
    }

    /// One warning per line holding invalid UTF-8, capped by `CaptionWarningLog`, and the count when capped.
    static func warnings(for bytes: [UInt8]) -> [CaptionWarning] {
        var lines: [Int] = []
        var total = 0
        bytes.withUnsafeBufferPointer { p in
            var i = 0, line = 1
            while i < p.count {
                let b = p[i]
                if b < 0x80 { if b == 0x0A { line += 1 }; i += 1; continue }
                let len = sequenceLength(p, i)
                if len > 0 { i += len } else {
                    total += 1
                    if lines.last != line { lines.append(line) }
                    i += 1
                }
            }
        }
        var log = CaptionWarningLog()
        for line in lines { log.warn(line, "invalid UTF-8 bytes: kept as they came in the output, shown as U+FFFD in the transcript") }
        if lines.count > CaptionWarningLog.perKind {
            log.append(CaptionWarning(line: nil, message: "\(total) invalid UTF-8 bytes in all, on \(lines.count) lines"))
        }
        return log.finish()
    }

    /// Length of the valid UTF-8 sequence starting at `i`, or 0 if it is invalid.
    @inline(__always)
    static func sequenceLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let b = p[i], n = p.count
        func cont(_ j: Int) -> Bool { j < n && p[j] & 0xC0 == 0x80 }
        switch b {
        case 0xC2...0xDF: return cont(i + 1) ? 2 : 0
        case 0xE0: return i + 1 < n && (0xA0...0xBF).contains(p[i + 1]) && cont(i + 2) ? 3 : 0
        case 0xE1...0xEC, 0xEE, 0xEF: return cont(i + 1) && cont(i + 2) ? 3 : 0
        case 0xED: return i + 1 < n && (0x80...0x9F).contains(p[i + 1]) && cont(i + 2) ? 3 : 0
        case 0xF0: return i + 1 < n && (0x90...0xBF).contains(p[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF1...0xF3: return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF4: return i + 1 < n && (0x80...0x8F).contains(p[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : 0
        default: return 0
        }
    }
}

/// Windows-1252, with the five undefined bytes mapped to the C1 controls of the
/// same value so that every byte round-trips.
enum Windows1252 {
    static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    static func appendUTF8(of byte: UInt8, to out: inout [UInt8]) {
        if byte < 0x80 { out.append(byte); return }
        let v: UInt32 = (0x80...0x9F).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
        UTF8Repair.appendScalar(v, to: &out)
    }

    static func byte(for scalar: Unicode.Scalar) -> UInt8? {
        let v = scalar.value
        if v < 0x80 || (0xA0...0xFF).contains(v) { return UInt8(v) }
        if let i = high.firstIndex(of: v) { return UInt8(0x80 + i) }
        return nil
    }
}
