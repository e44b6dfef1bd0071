/// Eight bytes read as one `UInt64` (little-endian: the first byte is the
/// lowest) and asked about at once: the one definition of the tests the byte
/// scans (captions, words, the fallback's text, the review page) make eight
/// bytes at a time.
@usableFromInline
package enum ByteLanes {
    /// 0x01 in every byte.
    @inlinable @inline(__always)
    package static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// 0x80 in every byte.
    @inlinable @inline(__always)
    package static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The high bit of each zero byte of `x`, exact for the lowest one: a
    /// borrow runs upwards from a zero byte, so a byte above one may be marked
    /// too, never one below (and none is marked when no byte is zero).
    @inlinable @inline(__always)
    package static func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }

    /// `zeroBytes` of the bytes of `w` equal to `byte`.
    @inlinable @inline(__always)
    package static func bytes(_ w: UInt64, equalTo byte: UInt8) -> UInt64 { zeroBytes(w ^ (ones &* UInt64(byte))) }

    /// Whether the eight bytes of `w` are ASCII and none is a CR (then each
    /// is one `Character`, when the byte after them is ASCII too).
    @inlinable @inline(__always)
    package static func eightSingleASCII(_ w: UInt64) -> Bool { w & highs == 0 && bytes(w, equalTo: 0x0D) == 0 }
}
