/// Copies UTF-8 bytes the way `String(decoding:as: UTF8.self)` reads them.
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
            let b = p[i]
            if b < 0x80 { i += 1; continue }
            @inline(__always) func cont(_ k: Int) -> Bool { i + k < n && p[i + k] & 0xC0 == 0x80 }
            switch b {
            case 0xC2...0xDF:
                guard cont(1) else { return false }
                i += 2
            case 0xE0...0xEF:
                guard cont(1), cont(2) else { return false }
                let c = p[i + 1]
                if b == 0xE0 && c < 0xA0 { return false }  // overlong
                if b == 0xED && c > 0x9F { return false }  // surrogates
                i += 3
            case 0xF0...0xF4:
                guard cont(1), cont(2), cont(3) else { return false }
                let c = p[i + 1]
                if b == 0xF0 && c < 0x90 { return false }  // overlong
                if b == 0xF4 && c > 0x8F { return false }  // above U+10FFFF
                i += 4
            default:
                return false
            }
        }
        return true
    }
}
