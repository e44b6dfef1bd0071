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
/// every other word, is looked up as a `String`. It is made with room for
/// the words a text may hold, so it seldom grows.
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
    private var slots: [Int32]

    /// An empty table that holds about `capacity` words before it grows.
    init(capacity: Int = 32) {
        var slotCount = 64
        while slotCount < 2 * capacity { slotCount *= 2 }
        slots = [Int32](repeating: -1, count: slotCount)
    }

    /// How many distinct words it holds.
    var count: Int { strings.count }

    /// The number of the ASCII word `word` in lower case (its bytes lowered:
    /// A–Z made a–z), whose lowered bytes hash to `lowered` (`hash`), given
    /// it (and the next number) when it is new.
    mutating func number(ofASCII word: UnsafeBufferPointer<UInt8>, lowered hash: UInt64) -> Int32 {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.finished(hash)) & mask
        while true {
            let k = slots[slot]
            if k < 0 { break }
            if hashes[Int(k)] == hash && equalsLowered(Int(k), word) { return asciiNumbers[Int(k)] }
            slot = (slot + 1) & mask
        }
        let start = ascii.count
        for b in word { ascii.append(b &- 0x41 < 26 ? b | 0x20 : b) }
        let string = ascii.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start...]), as: UTF8.self) }
        let n = number(of: string)
        slots[slot] = Int32(hashes.count)
        hashes.append(hash)
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

    /// Whether the lowered word `k` is `word` with its bytes lowered.
    private func equalsLowered(_ k: Int, _ word: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[k]
        guard offsets[k + 1] - start == word.count else { return false }
        return ascii.withUnsafeBufferPointer { a in
            for i in 0..<word.count {
                let b = word[i]
                if a[start + i] != (b &- 0x41 < 26 ? b | 0x20 : b) { return false }
            }
            return true
        }
    }

    private mutating func grow() {
        var bigger = [Int32](repeating: -1, count: slots.count * 2)
        let mask = bigger.count - 1
        for (k, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: Self.finished(hash)) & mask
            while bigger[slot] >= 0 { slot = (slot + 1) & mask }
            bigger[slot] = Int32(k)
        }
        slots = bigger
    }

    /// The hash of no bytes (FNV-1a's offset basis).
    static let hashStart: UInt64 = 0xCBF2_9CE4_8422_2325

    /// `hash` with byte `b` added (FNV-1a).
    @inline(__always)
    static func hash(_ hash: UInt64, _ b: UInt8) -> UInt64 { (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }

    /// `hash` with its high bits folded into the low ones, which pick the slot.
    @inline(__always)
    static func finished(_ hash: UInt64) -> UInt64 { hash ^ (hash >> 29) }
}
