#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TTMLTimeExpression {
    /// The parameter attributes (`ttp:`) of TTML 1 and 2; others are reported as unknown.
    static let knownParameters: Set<String> = [
        "frameRate", "frameRateMultiplier", "subFrameRate", "tickRate", "timeBase", "dropMode", "clockMode",
        "markerMode", "pixelAspectRatio", "cellResolution", "profile", "displayAspectRatio", "version",
        "contentProfiles", "contentProfileCombination", "processorProfiles", "processorProfileCombination",
        "inferProcessorProfileMethod", "inferProcessorProfileSource", "permitFeatureNarrowing",
        "permitFeatureWidening", "validation", "validationAction", "mediaDuration", "mediaOffset",
        "displayMode", "activeArea",
    ]

    /// Applies one `ttp:` parameter from the root element (`value` decoded),
    /// warning about a value it cannot use and about a parameter it does not know.
    mutating func apply(parameter name: String, value rawValue: String, line: Int, warnings: inout CaptionWarningLog) {
        let value = rawValue.trimmingWhitespace()
        func positive(_ s: Substring) -> Int64? {
            guard let v = Int64(s), v > 0 else { return nil }
            return v
        }
        switch name {
        case "frameRate":
            if let v = positive(Substring(value)) { frameRate = v; frameRateSpecified = true }
            else { warnings.warn(line, "ttp:frameRate=\"\(value)\" is not a positive whole number; 30 is used") }
        case "frameRateMultiplier":
            let parts = value.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count == 2, let a = positive(parts[0]), let b = positive(parts[1]) {
                multiplierNumerator = a; multiplierDenominator = b
            } else { warnings.warn(line, "ttp:frameRateMultiplier=\"\(value)\" is not two positive whole numbers; 1:1 is used") }
        case "subFrameRate":
            if let v = positive(Substring(value)) { subFrameRate = v }
            else { warnings.warn(line, "ttp:subFrameRate=\"\(value)\" is not a positive whole number; 1 is used") }
        case "tickRate":
            if let v = positive(Substring(value)) { tickRate = v }
            else { warnings.warn(line, "ttp:tickRate=\"\(value)\" is not a positive whole number; the default is used") }
        case "timeBase":
            switch value {
            case "media": break
            case "smpte": warnings.warn(line, "ttp:timeBase=\"smpte\": time codes are read as media times (frames counted without drop-frame adjustment)")
            case "clock": warnings.warn(line, "ttp:timeBase=\"clock\": clock times are read as media times from the start of the document")
            default: warnings.warn(line, "ttp:timeBase=\"\(value)\" is unknown; read as media")
            }
        case "dropMode":
            if value != "nonDrop" { warnings.warn(line, "ttp:dropMode=\"\(value)\": drop-frame time codes are read without dropping frames") }
        default:
            if !TTMLTimeExpression.knownParameters.contains(name) {
                warnings.warn(line, "unknown timing parameter ttp:\(name) ignored")
            }
        }
    }
}
