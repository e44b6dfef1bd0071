/// The distinct lower-case words of a transcript (`FallbackText`), each
/// numbered once, in the order first seen: a word's facts that depend only on
/// its lower case (whether it is a stop word, which languages list it, how
/// often it occurs) are then kept by number and asked once per distinct word.
///
/// Words are the same when their `String`s are equal (canonical equivalence:
/// `café` written with a combining accent is `café`), as the fallback's
/// dictionaries keyed by `String` compared them. An ASCII word is looked up
/// by its bytes (open-addressing hash tables: a word of eight bytes or
/// fewer packed in one entry, hashed from that; a longer one FNV-1a, over
/// bytes kept in one buffer), so a word seen before costs no `String`: an ASCII string is
/// equal only to itself and to strings whose other scalars are the three
/// whose canonical decomposition is ASCII (U+037E → `;`, U+1FEF → `` ` ``,
/// U+212A → `K`), which are looked up by that ASCII form. Other words are
/// looked up as `String`s. It is made with room for the words a text may
/// hold, so it seldom grows.
struct LowerCaseTable {
    /// The words, by number: each the first `String` seen of its equivalents.
    private(set) var strings: [String] = []
    /// The numbers of the words that are not ASCII.
    private var numbers: [String: Int32] = [:]
    /// The numbers of the words not ASCII but equal to an ASCII string, by that string.
    private var asciiForms: [String: Int32] = [:]

    /// The ASCII words of eight bytes or fewer (most words), each one
    /// `ShortWord` by hash (open addressing, a power of two long, at most two
    /// thirds full): a look-up reads one entry and compares its bytes at once.
    private(set) var short: [ShortWord]
    /// How many of `short`'s entries hold a word.
    private var shortCount = 0
    /// The longer ASCII words' bytes, each `ascii[offsets[k]..<offsets[k + 1]]`, with its hash and number.
    private var ascii: [UInt8] = []
    private var offsets: [Int] = [0]
    private(set) var hashes: [UInt64] = []
    private var asciiNumbers: [Int32] = []
    /// Indices into `hashes` by hash (-1: empty), a power of two long, at most half full.
    private var slots: [Int32]

    /// An ASCII word of eight bytes or fewer: its bytes lowered (`packed`),
    /// its number (-1: an empty entry) and its hash finished (`shortFinished`, the low 32 bits).
    struct ShortWord {
        var packed: UInt64 = 0
        var finishedHash: UInt32 = 0
        var number: Int32 = -1
    }

    /// An empty table that holds about `capacity` words before it grows.
    init(capacity: Int = 32) {
        // A larger table starts at 65,536 words and grows as it fills (a long text repeats its words).
        let capacity = min(capacity, 1 << 16)
        var shortCount = 16
        while 2 * shortCount < 3 * capacity { shortCount *= 2 }
        short = [ShortWord](repeating: ShortWord(), count: shortCount)
        // Words longer than eight bytes are the fewer.
        var slotCount = 16
        while slotCount < capacity / 2 { slotCount *= 2 }
        slots = [Int32](repeating: -1, count: slotCount)
        // Room for a short text's words (a long text's distinct words are far fewer than its words).
        let words = min(capacity, 4_096)
        strings.reserveCapacity(words)
        ascii.reserveCapacity(words * 3)
        offsets.reserveCapacity(words / 4 + 1)
        hashes.reserveCapacity(words / 4)
        asciiNumbers.reserveCapacity(words / 4)
    }

    /// How many distinct words it holds.
    var count: Int { strings.count }

    /// The number of the ASCII word `word` in lower case (its bytes lowered:
    /// A–Z made a–z), whose lowered bytes hash to `lowered` (`hash`; a word
    /// of eight bytes or fewer is hashed from its packed bytes instead), given
    /// it (and the next number) when it is new.
    mutating func number(ofASCII word: UnsafeBufferPointer<UInt8>, lowered hash: UInt64) -> Int32 {
        if word.count <= 8 { return number(ofShortASCII: word, lowered: hash) }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.finished(hash)) & mask
        while true {
            let k = slots[slot]
            if k < 0 { break }
            if hashes[Int(k)] == hash && equalsLowered(Int(k), word) { return asciiNumbers[Int(k)] }
            slot = (slot + 1) & mask
        }
        let start = ascii.count
        ascii.append(contentsOf: word)
        ascii.withUnsafeMutableBufferPointer { a in
            for i in start..<a.count where a[i] &- 0x41 < 26 { a[i] |= 0x20 }
        }
        let string = ascii.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start...]), as: UTF8.self) }
        let n = number(ofNewASCII: string)
        slots[slot] = Int32(hashes.count)
        hashes.append(hash)
        offsets.append(ascii.count)
        asciiNumbers.append(n)
        if hashes.count * 2 > slots.count { grow() }
        return n
    }

    /// `number(ofASCII:lowered:)` of a word of eight bytes or fewer (`short`).
    private mutating func number(ofShortASCII word: UnsafeBufferPointer<UInt8>, lowered hash: UInt64) -> Int32 {
        number(ofShortPacked: Self.packedLowered(word), count: word.count)
    }

    /// The number of the ASCII word of `count` bytes (one to eight) that
    /// `packedLowered` packs as `packed`, given it (and the next number) when it is new.
    @inline(__always)
    mutating func number(ofShortPacked packed: UInt64, count: Int) -> Int32 {
        let finished = Self.shortFinished(packed)
        let (slot, found) = short.withUnsafeBufferPointer { Self.find(packed, finished, in: $0) }
        if found >= 0 { return found }
        return add(packed, count: count, finished: finished, at: slot)
    }

    /// Adds the new short word `packed` at entry `slot` of `short`.
    private mutating func add(_ packed: UInt64, count: Int, finished: UInt64, at slot: Int) -> Int32 {
        let string = Self.string(packed: packed, count: count)
        let n = number(ofNewASCII: string)
        short[slot] = ShortWord(packed: packed, finishedHash: UInt32(truncatingIfNeeded: finished), number: n)
        shortCount += 1
        if 3 * shortCount > 2 * short.count { growShort() }
        return n
    }

    /// The number of the short word `packed` (`number(ofShortPacked:count:)`), if the table holds it.
    @inline(__always)
    func number(ifPresentShortPacked packed: UInt64) -> Int32? {
        let number = short.withUnsafeBufferPointer { Self.find(packed, Self.shortFinished(packed), in: $0).number }
        return number < 0 ? nil : number
    }

    /// The number of the ASCII word `string` (lower case) that the table's ASCII words do not hold:
    /// the non-ASCII word's equal to it, else the next number.
    private mutating func number(ofNewASCII string: String) -> Int32 {
        if let equal = asciiForms.isEmpty ? nil : asciiForms[string] { return equal }
        strings.append(string)
        return Int32(strings.count - 1)
    }

    /// The entry of `short` where the word packed as `packed`, whose hash
    /// finished is `finished`, stands, and its number; or the empty entry where it would go, and -1.
    @inline(__always)
    private static func find(_ packed: UInt64, _ finished: UInt64, in short: UnsafeBufferPointer<ShortWord>) -> (slot: Int, number: Int32) {
        let mask = short.count - 1
        var slot = Int(truncatingIfNeeded: finished) & mask
        while true {
            let entry = short[slot]
            if entry.number < 0 || entry.packed == packed { return (slot, entry.number) }
            slot = (slot + 1) & mask
        }
    }

    /// The bytes of the ASCII word `word` (eight or fewer) lowered (A–Z made
    /// a–z), byte `i` in bits `8 i` to `8 i + 7`, a byte 0x80 after them when
    /// they are fewer than eight (so words of different lengths differ) and
    /// zero bytes after that. Made in a register (bytes stored and read back
    /// as one word would wait on the stores).
    @inline(__always)
    static func packedLowered(_ word: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var x: UInt64 = 0
        for i in word.indices { x |= UInt64(word[i]) << UInt64(8 * i) }
        if word.count < 8 { x |= 0x80 << UInt64(8 * word.count) }
        return lowered(packed: x).lowered
    }

    /// The packed bytes `x` (each below 0x80, or 0x80 itself: the mark after a
    /// word of fewer than eight) lowered, and the high bit of each capital.
    /// Adding to a byte carries into no other: a byte from 0x41 to 0x5A reaches
    /// 0x80 with 0x3F added and not with 0x25 (0x80 does both); its 0x80 bit,
    /// moved down to 0x20, lowers it.
    /// The high bit of each byte of `x` that is an ASCII letter (A–Z, a–z);
    /// each byte is below 0x80, or 0x80 itself (the mark after a short word).
    @inline(__always)
    static func letters(packed x: UInt64) -> UInt64 {
        // Each byte with 0x20 set is from 0x61 to 0x7A exactly when it reaches 0x80 with 0x1F
        // added and not with 0x05 (no byte carries into another: each is at most 0xA0).
        let ones: UInt64 = 0x0101_0101_0101_0101
        let lowered = x | (ones &* 0x20)
        return (lowered &+ ones &* 0x1F) & ~(lowered &+ ones &* 0x05) & 0x8080_8080_8080_8080
    }

    @inline(__always)
    static func lowered(packed x: UInt64) -> (lowered: UInt64, capitals: UInt64) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let capitals = (x &+ ones &* 0x3F) & ~(x &+ ones &* 0x25) & 0x8080_8080_8080_8080
        return (x | (capitals >> 2), capitals)
    }

    /// The `count` bytes `packedLowered` packed into `packed`, as a `String`.
    static func string(packed: UInt64, count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { bytes in
            for i in 0..<count { bytes[i] = UInt8(truncatingIfNeeded: packed >> UInt64(8 * i)) }
            return count
        }
    }

    private mutating func growShort() {
        var bigger = [ShortWord](repeating: ShortWord(), count: short.count * 2)
        let mask = bigger.count - 1
        for entry in short where entry.number >= 0 {
            var slot = Int(entry.finishedHash) & mask
            while bigger[slot].number >= 0 { slot = (slot + 1) & mask }
            bigger[slot] = entry
        }
        short = bigger
    }

    /// The number of `word` (in lower case), given it (and the next number) when it is new.
    mutating func number(of word: String) -> Int32 {
        var word = word
        if let ascii = Self.asciiForm(&word) {
            if word.utf8.allSatisfy({ $0 < 0x80 }) {
                return word.withUTF8 { p in number(ofASCII: p, lowered: p.reduce(Self.hashStart) { Self.hash($0, $1) }) }
            }
            if let n = number(ifPresentASCII: ascii) { return n }
        }
        if let n = numbers[word] { return n }
        let n = Int32(strings.count)
        strings.append(word)
        numbers[word] = n
        if let ascii = Self.asciiForm(&word) { asciiForms[ascii] = n }
        return n
    }

    /// The number of `word`, if it holds it.
    func number(ifPresent word: String) -> Int32? {
        var word = word
        if let ascii = Self.asciiForm(&word), let n = number(ifPresentASCII: ascii) { return n }
        return numbers[word]
    }

    /// The number of the ASCII word `word` (lower case), if it holds it.
    private func number(ifPresentASCII word: String) -> Int32? {
        var word = word
        return word.withUTF8 { p in number(ifPresentASCII: p, lowered: p.reduce(Self.hashStart) { Self.hash($0, $1) }) }
    }

    /// The number of the ASCII word `word` in lower case (its bytes lowered),
    /// whose lowered bytes hash to `hash` (`hash`), if it holds it.
    func number(ifPresentASCII word: UnsafeBufferPointer<UInt8>, lowered hash: UInt64) -> Int32? {
        if word.count <= 8 { return number(ifPresentShortPacked: Self.packedLowered(word)) }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.finished(hash)) & mask
        while true {
            let k = slots[slot]
            if k < 0 { return nil }
            if hashes[Int(k)] == hash && equalsLowered(Int(k), word) { return asciiNumbers[Int(k)] }
            slot = (slot + 1) & mask
        }
    }

    /// The ASCII string equal to `word` (as `String`s are), when there is one
    /// and it is in lower case (no other can be in the table): `word` itself
    /// when it is ASCII, else `word` with U+037E, U+1FEF and U+212A made
    /// ASCII when it has no other scalar outside ASCII.
    private static func asciiForm(_ word: inout String) -> String? {
        word.withUTF8 { p -> String? in
            if p.allSatisfy({ $0 < 0x80 }) { return String(decoding: p, as: UTF8.self) }
            // The three scalars' lead bytes (CD BE, E1 BF AF, E2 84 AA): most words have none.
            guard p.contains(where: { $0 == 0xCD || $0 == 0xE1 || $0 == 0xE2 }) else { return nil }
            var out = ""
            for scalar in String(decoding: p, as: UTF8.self).unicodeScalars {
                switch scalar.value {
                case 0..<0x80: out.unicodeScalars.append(scalar)
                case 0x037E: out.append(";")
                case 0x1FEF: out.append("`")
                case 0x212A: out.append("K")
                default: return nil
                }
            }
            return out.utf8.contains { $0 &- 0x41 < 26 } ? nil : out
        }
    }

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

    /// The finished hash of a word of eight bytes or fewer, from its bytes
    /// packed (`packedLowered`) rather than FNV-1a's byte at a time: its two
    /// halves folded, multiplied, the high half kept (each of its bits
    /// depends on every byte). Its low bits pick the entry of `short`, its
    /// high bits `Shared.present`'s bit.
    @inline(__always)
    static func shortFinished(_ packed: UInt64) -> UInt64 {
        ((packed ^ (packed >> 32)) &* 0x9E37_79B9_7F4A_7C15) >> 32
    }
}

extension LowerCaseTable {
    /// A table built once and then only read, with a value for each of its
    /// numbers: a process-wide look-up by a word's bytes (the stop words'
    /// languages, an annotation's emoji). A class, so a look-up copies none
    /// of its arrays.
    final class Shared<Value: Sendable>: Sendable {
        /// The words.
        let words: LowerCaseTable
        /// The value of each word, by number.
        let values: [Value]
        /// A bit for each word's hash (`bit`), about sixteen bits a word: a
        /// word whose bit is clear is not in the table, told with no probe of it.
        let present: [UInt64]
        /// How many high bits of a hash pick its bit in `present`.
        let presentBits: Int
        /// The table of `entries`' words (lower case, ASCII: others are left
        /// out) with their values; a word given twice keeps its first value.
        init(_ entries: [(word: String, value: Value)]) {
            var words = LowerCaseTable(capacity: entries.count)
            var values: [Value] = []
            for (word, value) in entries where word.utf8.allSatisfy({ $0 < 0x80 && $0 &- 0x41 >= 26 }) {
                if Int(words.number(of: word)) == values.count { values.append(value) }
            }
            self.words = words
            self.values = values
            var bits = 12
            while 1 << bits < 16 * values.count { bits += 1 }
            var present = [UInt64](repeating: 0, count: 1 << (bits - 6))
            let finished = words.short.filter { $0.number >= 0 }.map(\.finishedHash)
                + words.hashes.map { UInt32(truncatingIfNeeded: LowerCaseTable.finished($0)) }
            for hash in finished {
                let bit = Self.bit(hash, bits)
                present[bit >> 6] |= 1 << UInt64(bit & 63)
            }
            self.present = present
            presentBits = bits
        }

        /// The bit of `present` of a word whose lowered bytes' hash finished
        /// is `finished` (its low 32 bits, `LowerCaseTable.finished`): their
        /// high `bits` bits (the low bits pick a word's slot).
        @inline(__always)
        private static func bit(_ finished: UInt32, _ bits: Int) -> Int { Int(finished >> UInt32(32 - bits)) }

        /// The value of the ASCII word `word` in lower case (its bytes
        /// lowered), whose lowered bytes hash to `hash` (`LowerCaseTable.hash`), if the table has it.
        @inline(__always)
        func value(ofASCII word: UnsafeBufferPointer<UInt8>, lowered hash: UInt64) -> Value? {
            if word.count <= 8 { return value(ofShortPacked: LowerCaseTable.packedLowered(word)) }
            guard isPresent(LowerCaseTable.finished(hash)) else { return nil }
            return words.number(ifPresentASCII: word, lowered: hash).map { values[Int($0)] }
        }

        /// The value of the ASCII word of eight bytes or fewer that
        /// `LowerCaseTable.packedLowered` packs as `packed`, if the table has it.
        @inline(__always)
        func value(ofShortPacked packed: UInt64) -> Value? {
            guard isPresent(LowerCaseTable.shortFinished(packed)) else { return nil }
            return words.number(ifPresentShortPacked: packed).map { values[Int($0)] }
        }

        /// Whether the bit of `present` of a word whose hash finished is `finished` is set.
        @inline(__always)
        private func isPresent(_ finished: UInt64) -> Bool {
            let bit = Self.bit(UInt32(truncatingIfNeeded: finished), presentBits)
            return present.withUnsafeBufferPointer { $0[bit >> 6] & (1 << UInt64(bit & 63)) != 0 }
        }
    }
}
