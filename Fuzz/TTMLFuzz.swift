// libFuzzer entry point for the TTML reader; built by scripts/fuzz.sh.

/// Reads the bytes as a TTML file and applies `CaptionFuzzCheck`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTTML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CaptionFuzzCheck.run(data, size, reader: TTMLReader.read)
    return 0
}
