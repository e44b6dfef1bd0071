/// The reader's entry points (`read`, `parse`), what it reports, and its byte classes.
extension WebVTTReader {
    /// A block that is not a cue, found while reading (for tests and tools).
    struct Block: Sendable, Hashable {
        /// What the block is.
        enum Kind: Sendable, Hashable { case header, note, style, region }
        /// What the block is.
        var kind: Kind
        /// The 1-based line of its first line.
        var line: Int
        /// Its bytes in the source, from its first byte to the end of its last line.
        var range: Range<Int>
    }

    /// Everything the reader found.
    struct Parsed {
        var cues: [Cue]
        var warnings: [CaptionWarning]
        var blocks: [Block]
    }

    /// Reads a WebVTT document.
    static func read(_ source: SourceText) throws -> CaptionDocument {
        let parsed = try parse(source.bytes)
        return CaptionDocument(format: .vtt, source: source, cues: parsed.cues, warnings: parsed.warnings,
                               payload: .vtt(Set(parsed.blocks.map(\.kind)),
                                             header: WebVTTHeader(source.bytes, block: parsed.blocks.first { $0.kind == .header }?.range)))
    }

    /// Parses WebVTT bytes (UTF-8, without a byte-order mark).
    static func parse(_ bytes: [UInt8]) throws -> Parsed {
        try bytes.withUnsafeBufferPointer { p in
            try byteClasses.withUnsafeBufferPointer { classes in
                var parser = WebVTTReader(p, classes: classes)
                parser.source = bytes
                return try parser.run()
            }
        }
    }

    // Byte classes for the line scanner.
    static let lineEnd: UInt8 = 1, greater: UInt8 = 2, less: UInt8 = 4, ampersand: UInt8 = 8,
               nul: UInt8 = 16, nonASCII: UInt8 = 32, arrow: UInt8 = 64

    static let byteClasses: [UInt8] = (0...255).map { b -> UInt8 in
        switch b {
        case 0x0A, 0x0D: return lineEnd
        case 0x3E: return greater
        case 0x3C: return less
        case 0x26: return ampersand
        case 0x00: return nul
        case 0x80...: return nonASCII
        default: return 0
        }
    }
}

/// Builds a WebVTT cue's runs on demand (see `Cue.runs`), with the reader's own tokenizer.
enum WebVTTRunBuilder {
    static func runs(in range: Range<Int>, of bytes: [UInt8]) -> [TextRun] {
        guard !range.isEmpty else { return [] }
        return bytes.withUnsafeBufferPointer { p in
            WebVTTReader.byteClasses.withUnsafeBufferPointer { classes in
                var parser = WebVTTReader(p, classes: classes)
                // Warnings were collected when the file was read; these are dropped.
                parser.tokenize(range, firstLine: 1, start: 0, end: .max)
                return parser.runs
            }
        }
    }
}
