/// A WebVTT file's header lines (between the `WEBVTT` line and the first
/// blank line): the language its `Language:` line declares, the other
/// lines' names (for conversion losses), and where a line can be added.
///
/// The W3C format gives these lines no meaning; `Kind:` and `Language:` are
/// the ones YouTube, HLS packagers and most tools write and read.
struct WebVTTHeader: Sendable, Equatable {
    /// The language the `Language:` line declares (its name compared ignoring
    /// case; nil when there is no such line, or its value is empty or `und`).
    var language: String?
    /// The byte range of the `Language:` line's value (trimmed), when there is such a line.
    var languageValue: Range<Int>?
    /// The names of the other header lines (`Kind`, `X-TIMESTAMP-MAP`), in order, without repeats.
    var otherNames: [String] = []
    /// Where a header line can be added: the end of the last header line, or,
    /// with no header, the start of the line after the signature line.
    var end: Int
    /// Whether `end` is the end of a line (a new line goes after a line
    /// ending) rather than the start of one (a line ending goes after it).
    var endsLine: Bool
    /// The line ending after the signature line (or the last header line): LF, CRLF or CR.
    var lineEnding: [UInt8]

    /// Reads the header of `bytes` (UTF-8, no byte-order mark), whose header
    /// block the reader found at `block` (nil when there is none).
    init(_ bytes: [UInt8], block: Range<Int>?) {
        func ending(at i: Int) -> [UInt8] {
            guard i < bytes.count else { return [0x0A] }
            if bytes[i] == 0x0D { return i + 1 < bytes.count && bytes[i + 1] == 0x0A ? [0x0D, 0x0A] : [0x0D] }
            return [0x0A]
        }
        if let block, block.lowerBound >= 0, block.upperBound <= bytes.count {
            end = block.upperBound
            endsLine = true
            lineEnding = ending(at: block.upperBound)
            var lineStart = block.lowerBound
            for i in block.lowerBound...block.upperBound where i == block.upperBound || bytes[i] == 0x0A || bytes[i] == 0x0D {
                if i > lineStart { note(line: lineStart..<i, of: bytes) }
                lineStart = i + 1
            }
        } else if let lineEnd = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            // The signature is the first line (the reader skipped blank lines before it, with a warning).
            let signature = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } ?? 0
            let after = signature > lineEnd ? (bytes[signature...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count) : lineEnd
            lineEnding = ending(at: after)
            end = min(bytes.count, after + lineEnding.count)
            endsLine = after >= bytes.count
        } else {
            end = bytes.count
            endsLine = true
            lineEnding = [0x0A]
        }
    }

    private mutating func note(line: Range<Int>, of bytes: [UInt8]) {
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        let separator = bytes[line].firstIndex { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "=") } ?? line.upperBound
        let name = String(decoding: bytes[line.lowerBound..<separator].filter { !isBlank($0) }.prefix(40), as: UTF8.self)
        if name.lowercased() == "language", separator < line.upperBound, bytes[separator] == UInt8(ascii: ":"), languageValue == nil {
            var value = (separator + 1)..<line.upperBound
            while let b = value.first.map({ bytes[$0] }), isBlank(b) { value = (value.lowerBound + 1)..<value.upperBound }
            while let b = value.last.map({ bytes[$0] }), isBlank(b) { value = value.lowerBound..<(value.upperBound - 1) }
            languageValue = value
            language = LanguageTag.declared(String(decoding: bytes[value], as: UTF8.self))
            return
        }
        let shown = name.isEmpty ? "?" : name
        if !otherNames.contains(shown) { otherNames.append(shown) }
    }

    /// The edit that declares `language`: the `Language:` line's value
    /// replaced, or a new line at `end`.
    func languageEdit(_ language: String) -> (range: Range<Int>, bytes: [UInt8]) {
        if let languageValue { return (languageValue, Array(language.utf8)) }
        let line = Array("Language: \(language)".utf8)
        return (end..<end, endsLine ? lineEnding + line : line + lineEnding)
    }
}
