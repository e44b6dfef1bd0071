/// Writes SRT documents. (Being written: see the SRT work item.)
enum SRTWriter {
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) throws -> [UInt8] {
        throw CaptionError(.unsupported, message: "SRT writing is not built yet")
    }
    static func render(_ cues: [Cue], from format: CaptionFormat, losses: inout [String]) -> [UInt8] {
        losses.append("SRT conversion is not built yet")
        return []
    }
}
