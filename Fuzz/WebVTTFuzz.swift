// libFuzzer entry point for the WebVTT reader; built by scripts/fuzz.sh.

/// Reads the bytes as a WebVTT file and applies `CaptionFuzzCheck`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebVTT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CaptionFuzzCheck.run(data, size, reader: WebVTTReader.read)
    return 0
}
