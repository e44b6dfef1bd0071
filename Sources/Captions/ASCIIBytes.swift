/// Byte checks shared by the fast paths that take plain ASCII text as it is.
enum ASCIIBytes {
    /// Whether every byte of `p` is ASCII (eight bytes at a time).
    static func isASCII(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = p.baseAddress else { return true }
        var i = 0
        var bits: UInt64 = 0
        while i + 8 <= p.count { bits |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self); i += 8 }
        while i < p.count { bits |= UInt64(p[i]); i += 1 }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
