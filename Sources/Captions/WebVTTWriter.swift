/// Writes WebVTT documents. (Being written: see the WebVTT work item.)
enum WebVTTWriter {
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) throws -> [UInt8] {
        throw CaptionError(.unsupported, message: "WebVTT writing is not built yet")
    }
    static func render(_ cues: [Cue], from format: CaptionFormat, losses: inout [String]) -> [UInt8] {
        losses.append("WebVTT conversion is not built yet")
        return []
    }
}
