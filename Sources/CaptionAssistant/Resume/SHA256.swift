#if canImport(CryptoKit)
import CryptoKit
#else
internal import CLibCrypto
#endif

/// SHA-256 (FIPS 180-4) from the system's kept cryptography library: OpenSSL's
/// libcrypto on Linux, CryptoKit on Apple platforms.
///
/// `--resume` records the SHA-256 of each input and output in the sidecar and
/// compares them on the next run. A cryptographic hash is used, not a faster
/// 64-bit one, so that the value means the same thing everywhere (anyone can
/// check it with `sha256sum`) and so that no two different inputs can be
/// mistaken for each other, even deliberately. Both libraries use the
/// processor's SHA instructions where it has them (x86-64 SHA-NI, ARMv8).
///
/// A value type: a copy hashes on from where the original was, independently.
package struct SHA256: Sendable {
    private var context: Context

    /// Starts an empty hash.
    init() { context = Context() }

    /// The lowercase hexadecimal SHA-256 of `bytes`.
    package static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalizeHex()
    }

    /// The lowercase hexadecimal form of `finalize()`.
    func finalizeHex() -> String {
        var hash = self
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in hash.finalize() { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// Adds `bytes` to the hash.
    mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        let done: Void? = bytes.withContiguousStorageIfAvailable { context.update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { context.update($0) } }
    }

    /// The 32-byte digest of everything added so far (this value can still be updated; the digest does not change it).
    mutating func finalize() -> [UInt8] {
        context.copy().finish()
    }
}

#if canImport(CryptoKit)
extension SHA256 {
    /// CryptoKit's hash state, a value type, in a box so that `SHA256` copies it only when shared.
    fileprivate final class Context: @unchecked Sendable {
        var hasher = CryptoKit.SHA256()
        init() {}
        func copy() -> Context { let other = Context(); other.hasher = hasher; return other }
        func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }
        func finish() -> [UInt8] { Array(hasher.finalize()) }
    }
}
#else
extension SHA256 {
    /// One OpenSSL digest context, freed with its box; `SHA256` copies it only when shared.
    ///
    /// The box is `@unchecked Sendable` because it is never mutated while shared:
    /// `SHA256` copies it first (copy on write).
    fileprivate final class Context: @unchecked Sendable {
        private let context: OpaquePointer?

        init() {
            context = EVP_MD_CTX_new()
            // Only fails when memory runs out; `finish` then reports nothing usable and the caller's check fails closed.
            if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
        }

        private init(copying other: Context) {
            context = EVP_MD_CTX_new()
            if let context, let source = other.context { EVP_MD_CTX_copy_ex(context, source) }
        }

        deinit { EVP_MD_CTX_free(context) }

        func copy() -> Context { Context(copying: self) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
            EVP_DigestUpdate(context, base, bytes.count)
        }

        func finish() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            guard let context else { return [] }
            let ok = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
            return ok == 1 && length == 32 ? digest : []
        }
    }
}
#endif
