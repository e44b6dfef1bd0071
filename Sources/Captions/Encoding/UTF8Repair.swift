/// UTF-8 without `String`s: copying bytes the way `String(decoding:as: UTF8.self)`
/// reads them, checking them, and writing a scalar's bytes.
enum UTF8Repair {
    /// Appends `bytes` to `out` as `String(decoding: bytes, as: UTF8.self).utf8`
    /// would give them: as they are when they are valid UTF-8 (checked here,
    /// with no string made), repaired by the standard library otherwise.
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if isValid(bytes) {
            out.append(contentsOf: bytes)
        } else {
            out.append(contentsOf: String(decoding: bytes, as: UTF8.self).utf8)
        }
    }

    /// Appends the UTF-8 bytes of the scalar value `v` (nothing when `v` is
    /// not one): what the WebVTT and XML readers write for a decoded reference.
    @inline(__always)
    static func appendScalar(_ v: UInt32, to out: inout [UInt8]) {
        guard let s = Unicode.Scalar(v) else { return }
        UTF8.encode(s) { out.append($0) }
    }

    /// Whether `p` is well-formed UTF-8 (no overlong forms, surrogates or values above U+10FFFF).
    static func isValid(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = p.count
        var i = 0
        while i < n {
            // Most caption text is ASCII: skipped eight bytes at a time.
            if i + 8 <= n, let base = p.baseAddress,
               UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            if p[i] < 0x80 { i += 1; continue }
            let len = UTF8Check.sequenceLength(p, i)
            if len == 0 { return false }
            i += len
        }
        return true
    }
}
