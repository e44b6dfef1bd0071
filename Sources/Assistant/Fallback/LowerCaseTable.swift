/// The distinct lower-case words of a transcript (`FallbackText`), each
/// numbered once, in the order first seen: a word's facts that depend only on
/// its lower case (whether it is a stop word, which languages list it, how
/// often it occurs) are then kept by number and asked once per distinct word.
///
/// Words are the same when their `String`s are equal (canonical equivalence:
/// `café` written with a combining accent is `café`), as the fallback's
/// dictionaries keyed by `String` compared them. An ASCII word is looked up
/// by its bytes first (an open-addressing hash table, FNV-1a, over bytes kept
/// in one buffer), so a word seen before costs no `String`; a new one, and
/// every other word, is looked up as a `String`.
struct LowerCaseTable {
    /// The words, by number: each the first `String` seen of its equivalents.
    private(set) var strings: [String] = []
    private var numbers: [String: Int32] = [:]

    /// The ASCII words' bytes, each `ascii[offsets[k]..<offsets[k + 1]]`, with its hash and number.
    private var ascii: [UInt8] = []
    private var offsets: [Int] = [0]
    private var hashes: [UInt64] = []
    private var asciiNumbers: [Int32] = []
    /// Indices into `hashes` by hash (-1: empty), a power of two long, at most half full.
    private var slots = [Int32](repeating: -1, count: 64)

    /// How many distinct words it holds.
    var count: Int { strings.count }

    /// The number of the ASCII word whose bytes are `bytes`, given it (and the next number) when it is new.
    mutating func number(ofASCII bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while true {
            let k = slots[slot]
            if k < 0 { break }
            if hashes[Int(k)] == hash && equals(Int(k), bytes) { return asciiNumbers[Int(k)] }
            slot = (slot + 1) & (slots.count - 1)
        }
        let n = number(of: String(decoding: bytes, as: UTF8.self))
        slots[slot] = Int32(hashes.count)
        hashes.append(hash)
        ascii.append(contentsOf: bytes)
        offsets.append(ascii.count)
        asciiNumbers.append(n)
        if hashes.count * 2 > slots.count { grow() }
        return n
    }

    /// The number of `word`, given it (and the next number) when it is new.
    mutating func number(of word: String) -> Int32 {
        if let n = numbers[word] { return n }
        let n = Int32(strings.count)
        strings.append(word)
        numbers[word] = n
        return n
    }

    /// The number of `word`, if it holds it.
    func number(ifPresent word: String) -> Int32? { numbers[word] }

    private func equals(_ k: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[k], end = offsets[k + 1]
        guard end - start == bytes.count else { return false }
        return ascii.withUnsafeBufferPointer { a in
            for i in 0..<bytes.count where a[start + i] != bytes[i] { return false }
            return true
        }
    }

    private mutating func grow() {
        var bigger = [Int32](repeating: -1, count: slots.count * 2)
        let mask = bigger.count - 1
        for (k, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while bigger[slot] >= 0 { slot = (slot + 1) & mask }
            bigger[slot] = Int32(k)
        }
        slots = bigger
    }

    /// FNV-1a of `bytes`, its high bits folded into the low ones (the table uses the low bits).
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h ^ (h >> 29)
    }
}
