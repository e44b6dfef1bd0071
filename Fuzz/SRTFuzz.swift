// libFuzzer entry point for the SRT reader; built by scripts/fuzz.sh.

/// Reads the bytes as a SRT file and applies `CaptionFuzzCheck`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSRT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CaptionFuzzCheck.run(data, size, reader: SRTReader.read)
    return 0
}
