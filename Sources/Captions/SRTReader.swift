/// Reads SRT (SubRip) documents, leniently, the way real files demand.
///
/// Cues are found by their timing line (a line with `-->` and a time on each
/// side), so missing, zero, negative or out-of-order cue numbers, extra blank
/// lines, blank lines inside cue text and a missing final newline all read.
/// Every repair is recorded as a warning with its line number; nothing that
/// has a readable timing line is dropped.
///
/// Choices worth knowing:
/// - The milliseconds field may follow `,` or `.` and have 1–3 digits. It is
///   read as a decimal fraction of a second, like any time value: `,5` is
///   500 ms and `,05` is 50 ms (a warning says so when there are not 3 digits).
/// - A line with `-->` whose times cannot be read is reported and its block is
///   left out of the model; its bytes are still written back, since the writer
///   splices edits into the original bytes.
/// - Cue text ends at a blank line only when what follows is a cue: a timing
///   line, or a line directly above one (the cue number). Other text after a
///   blank line belongs to the cue (the blank lines become line breaks). A cue
///   that starts right after text with no blank line (a number line above a
///   readable timing line, or a readable timing line) is read and reported.
/// - Times past 24 hours are reported once, at the first such cue, with a count.
/// - SRT has no character references, so a `.text` run's text is exactly its
///   raw bytes (`&amp;` stays as written) and a `<` that does not start a tag is
///   text. (Invalid bytes in a damaged UTF-8 file read as U+FFFD; the writer
///   maps emphasis offsets past them to the raw bytes.)
/// - Line numbers count CR LF, a bare CR and a bare LF as one line end each.
enum SRTReader {
    static func read(_ source: SourceText) throws -> CaptionDocument {
        // Only the results leave the closure, never the parser and its pointer.
        let result = source.bytes.withUnsafeBufferPointer { buffer in
            let found = SRTParser(bytes: buffer, source: source.bytes).parse()
            return (cues: found.cues, warnings: found.warnings, firstMalformedLine: found.firstMalformedLine)
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
