/// An open-addressing table from the hash of a lower-cased first word to the
/// keyword patterns that start with it, longest first.
///
/// A class (immutable once made): a matcher and the scan sinks that hold it
/// copy one reference, not its seven arrays (each copy retained and released
/// them, once per cue scanned).
final class FirstWordTable: Sendable {
    static let offset: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    static func mix(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }

    private let slots: [Int32]
    /// Bit `b & 63` set when some first word starts with the byte `b` (ASCII first words only; others set all).
    private let firstBytes: UInt64
    /// Bit `min(n, 63)` set when some first word is `n` bytes long.
    private let lengths: UInt64
    private let hashes: [UInt64]
    private let groups: [[KeywordPattern]]
    private let mask: Int
    /// The first words, lower-cased, one for each group.
    let firstWords: [[UInt8]]
    /// Bit `tripleKey` set for the first three bytes of each ASCII first word
    /// of three bytes or more, and for the first two of a two-byte word
    /// followed by any byte (`tripleKey` keeps five bits of each byte, the
    /// same for a letter's two cases, so the text's bytes are looked up as
    /// they are, not lower-cased first).
    private let asciiTriples: [UInt64]
    /// The ASCII first words (nil when there are too many, or one is a single byte: the text is then always scanned).
    private let asciiWords: [[UInt8]]?

    init(_ patterns: [KeywordPattern]) {
        // Distinct first words in order of first appearance, each with its patterns.
        // Found by a linear search when there are few (the usual two or three
        // keywords: no dictionary, no hashing beyond the word's own hash).
        var hashes: [UInt64] = []
        var groups: [[KeywordPattern]] = []
        hashes.reserveCapacity(patterns.count)
        groups.reserveCapacity(patterns.count)
        var byHash: [UInt64: Int] = [:]
        var firstBytes: UInt64 = 0
        var lengths: UInt64 = 0
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
        let mask = size - 1
        var slots = [Int32](repeating: -1, count: size)
        for (g, h) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(g)
        }
        self.mask = mask
        self.slots = slots
        self.firstBytes = firstBytes
        self.lengths = lengths
        self.hashes = hashes
        self.groups = groups
        let firstWords = groups.map { $0[0].words[0] }
        self.firstWords = firstWords
        let ascii = firstWords.filter { $0.allSatisfy { $0 < 0x80 } }
        var asciiTriples: [UInt64] = []
        var asciiWords: [[UInt8]]? = nil
        if ascii.count <= 32, ascii.allSatisfy({ $0.count >= 2 }) {
            asciiTriples = [UInt64](repeating: 0, count: 1 << 15 / 64)
            for word in ascii {
                let thirds = word.count > 2 ? [Int(word[2])] : Array(0..<32)
                for third in thirds {
                    let key = Self.tripleKey(Self.tripleKey(Self.tripleKey(0, Int(word[0])), Int(word[1])), third)
                    asciiTriples[key >> 6] |= 1 << UInt64(key & 63)
                }
            }
            asciiWords = ascii
        }
        self.asciiTriples = asciiTriples
        self.asciiWords = asciiWords
    }

    /// The key of the last three bytes read, `key` the one before `byte`:
    /// five bits of each (a letter's two cases share them, and so does some
    /// punctuation: a key found is only a place to compare the words).
    @inline(__always)
    private static func tripleKey(_ key: Int, _ byte: Int) -> Int { (key &<< 5 | byte & 0x1F) & 0x7FFF }

    /// True only when `text` is ASCII and, lower-cased, holds none of the
    /// first words as bytes: then no word of it (nor of its text runs, which
    /// markup only cuts) lower-cased is a first word, so no keyword starts in
    /// it. False when it may: a non-ASCII byte (the word scan decides), or a
    /// first word found (`firstWordBound(_:)` is nil).
    @inline(__always)
    func asciiHoldsNoFirstWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        firstWordBound(text) == nil
    }

    /// Nil when `text` is ASCII and, lower-cased, holds none of the first
    /// words as bytes (`asciiHoldsNoFirstWord`); otherwise an offset up to
    /// which `text` is ASCII and no first word starts in it lower-cased, as
    /// bytes: where the first one found starts, two bytes before the first
    /// byte that is not ASCII, 0 when there are no ASCII first words to look
    /// for. A word of `text` that starts and ends before it starts no
    /// keyword. Each three bytes are looked up as written in `asciiTriples`
    /// (no lower-casing; a two-byte word is looked for before the text's end
    /// too, as if a byte followed), and only three found are compared with
    /// the words.
    func firstWordBound(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let words = asciiWords else { return 0 }
        let n = text.count
        guard n > 1 else { return n == 0 || text[0] < 0x80 ? nil : 0 }
        return asciiTriples.withUnsafeBufferPointer { triples -> Int? in
            let a = Int(text[0]), b = Int(text[1])
            if a >= 0x80 || b >= 0x80 { return 0 }
            var key = Self.tripleKey(Self.tripleKey(0, a), b)
            var i = 2
            // Eight bytes at a time while they are ASCII (one test for the eight): their eight keys
            // looked up with no branch, and only when one is found, again one by one as below.
            if let base = text.baseAddress {
                while i + 8 <= n {
                    let block = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                    if block & 0x8080_8080_8080_8080 != 0 { break }
                    var x = block, next = key, found: UInt64 = 0
                    for _ in 0..<8 {
                        next = Self.tripleKey(next, Int(truncatingIfNeeded: x))
                        found |= triples[next &>> 6] &>> UInt64(next & 63)
                        x &>>= 8
                    }
                    if found & 1 != 0 {
                        x = block
                        for k in 0..<8 {
                            key = Self.tripleKey(key, Int(truncatingIfNeeded: x))
                            if triples[key &>> 6] & (1 &<< UInt64(key & 63)) != 0, Self.holdsAWord(words, text, at: i + k - 2) { return i + k - 2 }
                            x &>>= 8
                        }
                    }
                    key = next
                    i += 8
                }
            }
            while i < n {
                let c = Int(text[i])
                // The words starting before i - 2 were all looked for.
                if c >= 0x80 { return i - 2 }
                key = Self.tripleKey(key, c)
                if triples[key &>> 6] & (1 &<< UInt64(key & 63)) != 0, Self.holdsAWord(words, text, at: i - 2) { return i - 2 }
                i += 1
            }
            // The last two bytes, as if any byte followed (a two-byte word).
            key = Self.tripleKey(key, 0)
            return triples[key &>> 6] & (1 &<< UInt64(key & 63)) == 0 || !Self.holdsAWord(words, text, at: n - 2) ? nil : n - 2
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
