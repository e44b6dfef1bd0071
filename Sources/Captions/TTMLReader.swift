/// Reads TTML documents. (Being written: see the TTML work item.)
enum TTMLReader {
    static func read(_ source: SourceText) throws -> CaptionDocument {
        throw CaptionError(.unsupported, message: "TTML reading is not built yet")
    }
}
