/// Reads SRT documents. (Being written: see the SRT work item.)
enum SRTReader {
    static func read(_ source: SourceText) throws -> CaptionDocument {
        throw CaptionError(.unsupported, message: "SRT reading is not built yet")
    }
}
