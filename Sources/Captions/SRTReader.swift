extension SRTReader {
    /// Reads a document: its cues and warnings, or a `CaptionError` with a line
    /// number when no cue can be read (binary data, an unreadable timing line,
    /// or no timing line at all).
    static func read(_ source: SourceText) throws -> CaptionDocument {
        // Only the results leave the closure, never the parser and its pointer.
        let result = source.bytes.withUnsafeBufferPointer { buffer in
            let found = SRTReader(bytes: buffer, source: source.bytes).parse()
            return (cues: found.cues, warnings: found.warnings.finish(), firstMalformedLine: found.firstMalformedLine)
        }
        if result.cues.isEmpty {
            // NUL bytes never occur in text: binary data that format detection let
            // through (e.g. read as Windows-1252, which hides a PNG signature).
            if source.bytes.contains(0) {
                throw CaptionError(.binaryFile, message: "this is binary data, not a caption file")
            }
            if let line = result.firstMalformedLine {
                throw CaptionError(.malformedTiming, line: line,
                                   message: "no cue could be read: the timing line cannot be read (expected HH:MM:SS,mmm --> HH:MM:SS,mmm)")
            }
            throw CaptionError(.noCues, message: "no SRT cue found: there is no timing line such as 00:00:01,000 --> 00:00:02,000")
        }
        return CaptionDocument(format: .srt, source: source, cues: result.cues, warnings: result.warnings)
    }
}
