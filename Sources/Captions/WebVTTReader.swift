/// Reads WebVTT documents. (Being written: see the WebVTT work item.)
enum WebVTTReader {
    static func read(_ source: SourceText) throws -> CaptionDocument {
        throw CaptionError(.unsupported, message: "WebVTT reading is not built yet")
    }
}
