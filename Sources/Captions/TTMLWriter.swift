/// Writes TTML documents. (Being written: see the TTML work item.)
enum TTMLWriter {
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) throws -> [UInt8] {
        throw CaptionError(.unsupported, message: "TTML writing is not built yet")
    }
    static func render(_ cues: [Cue], from format: CaptionFormat, losses: inout [String]) -> [UInt8] {
        losses.append("TTML conversion is not built yet")
        return []
    }
}
