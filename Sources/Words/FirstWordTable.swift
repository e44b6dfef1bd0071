/// An open-addressing table from the hash of a lower-cased first word to the
/// keyword patterns that start with it, longest first.
struct FirstWordTable: Sendable {
    static let offset: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    static func mix(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }

    private var slots: [Int32]
    /// Bit `b & 63` set when some first word starts with the byte `b` (ASCII first words only; others set all).
    private var firstBytes: UInt64 = 0
    /// Bit `min(n, 63)` set when some first word is `n` bytes long.
    private var lengths: UInt64 = 0
    private var hashes: [UInt64]
    private var groups: [[KeywordPattern]]
    private let mask: Int
    /// The first words, lower-cased, one for each group.
    let firstWords: [[UInt8]]
    /// Bit `pairKey(a, b)` set for the first two bytes `a`, `b` of each ASCII
    /// first word of two bytes or more, in each of their cases (so that the
    /// text's bytes are looked up as they are, not lower-cased first).
    private var asciiPairs: [UInt64] = []
    /// The ASCII first words (nil when there are too many, or one is a single byte: the text is then always scanned).
    private var asciiWords: [[UInt8]]? = nil

    init(_ patterns: [KeywordPattern]) {
        // Distinct first words in order of first appearance, each with its patterns.
        // Found by a linear search when there are few (the usual two or three
        // keywords: no dictionary, no hashing beyond the word's own hash).
        var hashes: [UInt64] = []
        var groups: [[KeywordPattern]] = []
        hashes.reserveCapacity(patterns.count)
        groups.reserveCapacity(patterns.count)
        var byHash: [UInt64: Int] = [:]
        let indexed = patterns.count > 16
        for p in patterns {
            let first = p.words[0]
            firstBytes |= first[0] < 0x80 ? 1 << UInt64(first[0] & 63) : UInt64.max
            lengths |= 1 << UInt64(min(first.count, 63))
            let h = first.reduce(FirstWordTable.offset, FirstWordTable.mix)
            if let g = indexed ? byHash[h] : hashes.firstIndex(of: h) {
                groups[g].append(p)
                continue
            }
            if indexed { byHash[h] = hashes.count }
            hashes.append(h)
            groups.append([p])
        }
        // Longest first (most words, then most bytes), then the keyword given first.
        for g in groups.indices where groups[g].count > 1 {
            groups[g].sort {
                ($0.words.count, $0.byteLength, -$0.keyword) > ($1.words.count, $1.byteLength, -$1.keyword)
            }
        }
        var size = 8
        while size < hashes.count * 4 { size *= 2 }
        mask = size - 1
        slots = [Int32](repeating: -1, count: size)
        for (g, h) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(g)
        }
        self.hashes = hashes
        self.groups = groups
        firstWords = groups.map { $0[0].words[0] }
        let ascii = firstWords.filter { $0.allSatisfy { $0 < 0x80 } }
        if ascii.count <= 32, ascii.allSatisfy({ $0.count >= 2 }) {
            asciiPairs = [UInt64](repeating: 0, count: 1 << 14 / 64)
            for word in ascii {
                for a in Self.cases(word[0]) {
                    for b in Self.cases(word[1]) {
                        let key = Self.pairKey(Int(a), Int(b))
                        asciiPairs[key >> 6] |= 1 << UInt64(key & 63)
                    }
                }
            }
            asciiWords = ascii
        }
    }

    /// The ASCII bytes that lower-case to the lower-case ASCII byte `b`: itself, and its capital for a letter.
    private static func cases(_ b: UInt8) -> [UInt8] {
        b &- 0x61 < 26 ? [b, b & ~0x20] : [b]
    }

    /// Where the ASCII bytes `a`, `b` (as written) fall in `asciiPairs`:
    /// their 14 bits, so that no two pairs share a bit.
    @inline(__always)
    private static func pairKey(_ a: Int, _ b: Int) -> Int { (a &<< 7 | b) & 0x3FFF }

    /// True only when `text` is ASCII and, lower-cased, holds none of the
    /// first words as bytes: then no word of it (nor of its text runs, which
    /// markup only cuts) lower-cased is a first word, so no keyword starts in
    /// it. False when it may: a non-ASCII byte (the word scan decides), or a
    /// first word found. Each pair of bytes is looked up as written in
    /// `asciiPairs` (no lower-casing), and only a pair found is compared with
    /// the words.
    func asciiHoldsNoFirstWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let words = asciiWords else { return false }
        let n = text.count
        guard n > 1 else { return n == 0 || text[0] < 0x80 }
        return asciiPairs.withUnsafeBufferPointer { pairs in
            var a = Int(text[0])
            if a >= 0x80 { return false }
            for i in 1..<n {
                let b = Int(text[i])
                if b >= 0x80 { return false }
                let key = Self.pairKey(a, b)
                if pairs[key &>> 6] & (1 &<< UInt64(key & 63)) != 0, Self.holdsAWord(words, text, at: i - 1) { return false }
                a = b
            }
            return true
        }
    }

    /// Whether one of `words` (lower-cased ASCII, two bytes or more) is at `start` of `text`, lower-cased.
    private static func holdsAWord(_ words: [[UInt8]], _ text: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        words.contains { word in
            guard start + word.count <= text.count else { return false }
            var k = 0
            while k < word.count && WordFold.asciiLower(text[start + k]) == word[k] { k += 1 }
            return k == word.count
        }
    }

    var isEmpty: Bool { groups.isEmpty }

    /// Whether a word whose lower-cased form starts with the ASCII byte
    /// `first` may be the first word of a keyword (a cheap filter).
    @inline(__always)
    func mayStart(with first: UInt8) -> Bool {
        firstBytes & (1 << UInt64(first & 63)) != 0
    }

    /// Whether a word whose lower-cased form is `length` bytes long may be
    /// the first word of a keyword (a cheap filter; an ASCII word's length is
    /// its lower-cased form's).
    @inline(__always)
    func mayHave(length: Int) -> Bool {
        lengths & (1 << UInt64(min(length, 63))) != 0
    }

    @inline(__always)
    func candidates(_ hash: UInt64) -> [KeywordPattern]? {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let g = slots[slot]
            if g < 0 { return nil }
            if hashes[Int(g)] == hash { return groups[Int(g)] }
            slot = (slot + 1) & mask
        }
    }
}
