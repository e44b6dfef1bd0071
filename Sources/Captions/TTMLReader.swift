/// Reads TTML, DFXP and IMSC1 documents into the caption model.
///
/// Three passes over the bytes, none of which expands an entity or touches
/// the network: the DOCTYPE guard refuses entity declarations and external
/// DTDs; libxml2 checks the document is well-formed (streaming, no tree);
/// `TTMLScanner` then reads the structure, keeping the byte ranges of the
/// text so `TTMLWriter` can splice edits into the original bytes.
enum TTMLReader {
    static func read(_ source: SourceText) throws -> CaptionDocument {
        try TTMLDocumentTypeGuard.check(source.bytes)
        try XMLDocument.checkWellFormed(source.bytes)
        let result = try TTMLScanner.scan(source.bytes)
        return CaptionDocument(format: .ttml, source: source, cues: result.cues,
                               warnings: result.warnings, payload: .ttml(result.payload))
    }
}
