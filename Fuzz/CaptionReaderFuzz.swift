// libFuzzer entry point for the caption readers; built by scripts/fuzz.sh
// together with the Captions module's own sources. One binary serves the three
// fuzz targets (the Captions module is compiled once); CAPTION_FUZZ_READER
// (srt, vtt or ttml) says which reader this run fuzzes.
import Foundation

/// The reader named by CAPTION_FUZZ_READER, read once.
let fuzzedReader: @Sendable (SourceText) throws -> CaptionDocument = {
    switch ProcessInfo.processInfo.environment["CAPTION_FUZZ_READER"] {
    case "srt": return SRTReader.read
    case "vtt": return WebVTTReader.read
    case "ttml": return TTMLReader.read
    default: fatalError("set CAPTION_FUZZ_READER to srt, vtt or ttml")
    }
}()

/// Reads the bytes with the chosen reader and applies `CaptionFuzzCheck`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCaptionReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CaptionFuzzCheck.run(data, size, reader: fuzzedReader)
    return 0
}
