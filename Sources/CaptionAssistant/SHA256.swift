import CSHA256

/// SHA-256 (FIPS 180-4), written here because the package may use no outside
/// libraries and Foundation on Linux has no hash functions.
///
/// `--resume` records the SHA-256 of each input and output in the sidecar and
/// compares them on the next run. A cryptographic hash is used, not a faster
/// 64-bit one, so that the value means the same thing everywhere (anyone can
/// check it with `sha256sum`) and so that no two different inputs can be
/// mistaken for each other, even deliberately.
///
/// Padding and the digest are done here; the 64-byte blocks go, as many at a
/// time as there are, to the C target `CSHA256`: the processor's SHA
/// instructions where there are some (x86-64 SHA-NI, found by cpuid at run
/// time; AArch64 built with the crypto extension, as Apple's chips are), and
/// portable C elsewhere. Every input and output of a batch is hashed, so this
/// shows at scale: with SHA-NI it costs about 0.6 ms per megabyte (measured on
/// an AMD EPYC), the portable C about 3 ms.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// The bytes of a block not yet complete (fewer than 64).
    private var pending: [UInt8] = []
    private var length: UInt64 = 0
    /// Whether blocks go to the portable C even where SHA instructions are found (for tests).
    private let portable: Bool

    /// Starts an empty hash.
    public init() { self.init(portable: false) }

    /// Starts an empty hash whose blocks go to the portable C when `portable`,
    /// so that tests can hold the hardware path against it.
    init(portable: Bool) {
        self.portable = portable
        pending.reserveCapacity(64)
    }

    /// Whether `SHA256()` uses the processor's SHA instructions on this machine.
    static var usesHardware: Bool { ca_sha256_hardware() != 0 }

    /// The lowercase hexadecimal SHA-256 of `bytes`.
    public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
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
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let take = min(64 - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBufferPointer { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = rest.count / 64 * 64
        if whole > 0 {
            let done: Void? = rest.prefix(whole).withContiguousStorageIfAvailable { compress($0) }
            if done == nil { Array(rest.prefix(whole)).withUnsafeBufferPointer { compress($0) } }
            rest = rest.dropFirst(whole)
        }
        pending.append(contentsOf: rest)
    }

    /// The 32-byte digest (the hash cannot be updated afterwards).
    public mutating func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBufferPointer { compress($0) }
        pending.removeAll()
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// Compresses the whole 64-byte blocks of `blocks` (a trailing part block is left alone).
    private mutating func compress(_ blocks: UnsafeBufferPointer<UInt8>) {
        guard let data = blocks.baseAddress, blocks.count >= 64 else { return }
        let count = blocks.count / 64
        let portable = portable
        withUnsafeMutablePointer(to: &state) { tuple in
            // A homogeneous tuple is laid out as a C array of its element type.
            tuple.withMemoryRebound(to: UInt32.self, capacity: 8) { words in
                if portable { ca_sha256_blocks_portable(words, data, count) } else { ca_sha256_blocks(words, data, count) }
            }
        }
    }
}
