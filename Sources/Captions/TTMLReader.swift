/// Reads TTML, DFXP and IMSC1 documents into the caption model.
///
/// Four passes over the bytes, none of which expands an entity or touches
/// the network: the DOCTYPE guard refuses entity declarations and external
/// DTDs; the attribute guard refuses a start tag with over 1,000 attributes; libxml2 checks the document is well-formed (streaming, no tree);
/// `TTMLScanner` then reads the structure, keeping the byte ranges of the
/// text so `TTMLWriter` can splice edits into the original bytes.
///
/// One cue per displayed `p`, with exact begin and end: `begin`/`end`/`dur`
/// on `body`, `div`, `p` and `span`, relative to the parent's begin (`par`)
/// or the previous sibling's end (`seq`), `end` and `dur` together giving the
/// earlier end, and ends clipped to the parent's. A `p` with no end of its own
/// ends with its parent; if no ancestor has an end either, it ends when its
/// timed spans end; failing that (an indefinite end) it is shown until the next
/// paragraph that begins later, the last one until the latest time any cue
/// ends, and one warning says how many paragraphs were treated so.
enum TTMLReader {
    static func read(_ source: SourceText) throws -> CaptionDocument {
        try TTMLDocumentTypeGuard.check(source.bytes)
        try TTMLAttributeGuard.check(source.bytes)
        try XMLDocument.checkWellFormed(source.bytes)
        let result = try TTMLScanner.scan(source.bytes)
        return CaptionDocument(format: .ttml, source: source, cues: result.cues,
                               warnings: result.warnings, payload: .ttml(result.payload))
    }
}
