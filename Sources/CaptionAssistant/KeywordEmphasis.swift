import Captions

/// Finds every whole-word, case-insensitive occurrence of a set of keywords in
/// cue text and turns them into bold-emphasis edits.
///
/// Words are runs of Unicode letters, marks and decimal digits, so "AI" does
/// not match inside "said" and "café" matches "CAFÉ". Matching happens only
/// inside `.text` runs that are not already bold (never through a tag, never
/// nested in another emphasis); a word at the edge of a run is whole only if
/// the neighbouring text run (across markup, not across a line break) does not
/// continue it. Where keywords overlap, the one matched at the leftmost word
/// wins, and at one word the longest keyword wins.
///
/// All keywords are found in one pass: the text is cut into words once, and
/// each word's lower-cased form is looked up in a hash table of the keywords'
/// first words, so the cost grows with the text and not with keywords × text.
/// ASCII words are lower-cased byte by byte; only words with non-ASCII letters
/// go through `String.lowercased()`.
public struct KeywordEmphasis: Sendable {
    /// What applying the keywords found.
    public struct Result: Sendable, Equatable {
        /// The edits, keyed by cue index (each with its emphasis ranges in text order).
        public var edits: [Int: CueEdit]
        /// How many times each keyword (in the order given) was emphasised.
        public var counts: [Int]
        /// All emphasised occurrences.
        public var occurrences: Int { counts.reduce(0, +) }
    }

    /// One keyword as lower-cased words and the exact separators between them.
    struct Pattern: Sendable {
        var keyword: Int
        var words: [[UInt8]]
        var separators: [[UInt8]]
        var byteLength: Int
    }

    /// The keywords, as given.
    public let keywords: [String]
    private let table: FirstWordTable

    /// Prepares `keywords` for matching. A keyword's leading and trailing
    /// characters that are not word characters are ignored; a keyword with no
    /// word characters at all never matches.
    public init(keywords: [String]) {
        self.keywords = keywords
        var patterns: [Pattern] = []
        for (index, keyword) in keywords.enumerated() {
            if let p = KeywordEmphasis.pattern(for: keyword, index: index) { patterns.append(p) }
        }
        table = FirstWordTable(patterns)
    }

    static func pattern(for keyword: String, index: Int) -> Pattern? {
        let bytes = Array(keyword.utf8)
        var words: [[UInt8]] = []
        var separators: [[UInt8]] = []
        var pendingSeparator: [UInt8] = []
        var i = 0
        bytes.withUnsafeBufferPointer { p in
            while i < p.count {
                let (isWord, len) = WordCharacters.classify(p, i)
                if !isWord { if !words.isEmpty { pendingSeparator.append(contentsOf: p[i..<i + len]) }; i += len; continue }
                var end = i + len
                var ascii = len == 1
                while end < p.count {
                    let (w, l) = WordCharacters.classify(p, end)
                    if !w { break }
                    if l > 1 { ascii = false }
                    end += l
                }
                if !words.isEmpty { separators.append(pendingSeparator) }
                pendingSeparator = []
                var folded: [UInt8] = []
                WordCharacters.fold(p, i..<end, ascii: ascii, into: &folded)
                words.append(folded)
                i = end
            }
        }
        guard !words.isEmpty else { return nil }
        let length = words.reduce(0) { $0 + $1.count } + separators.reduce(0) { $0 + $1.count }
        return Pattern(keyword: index, words: words, separators: separators, byteLength: length)
    }

    /// Finds the keywords in `cues` and returns the emphasis edits.
    public func apply(to cues: [Cue]) -> Result {
        var counts = [Int](repeating: 0, count: keywords.count)
        guard !table.isEmpty else { return Result(edits: [:], counts: counts) }
        // Collected in order, then turned into a dictionary of the right size at once.
        var found: [(Int, CueEdit)] = []
        var scratch = Scratch()
        var ranges: [CueEdit.RunRange] = []
        for (cueIndex, cue) in cues.enumerated() {
            ranges.removeAll(keepingCapacity: true)
            let runs = cue.runs
            for runIndex in runs.indices {
                let run = runs[runIndex]
                guard run.kind == .text, !run.style.contains(.bold), !run.text.isEmpty else { continue }
                var text = run.text
                text.withUTF8 { p in
                    scan(p, runs: runs, runIndex: runIndex, scratch: &scratch) { pattern, range in
                        counts[pattern.keyword] += 1
                        ranges.append(CueEdit.RunRange(run: runIndex, utf8: range))
                    }
                }
            }
            if !ranges.isEmpty { found.append((cueIndex, CueEdit(emphasis: ranges))) }
        }
        return Result(edits: Dictionary(uniqueKeysWithValues: found), counts: counts)
    }

    /// Scans one run's UTF-8 bytes, calling `found` for each match, left to right.
    private func scan(_ p: UnsafeBufferPointer<UInt8>, runs: [TextRun], runIndex: Int,
                      scratch: inout Scratch, found: (Pattern, Range<Int>) -> Void) {
        let n = p.count
        var i = 0
        while i < n {
            let b = p[i]
            var end: Int
            var ascii: Bool
            if b < 0x80 {
                // ASCII fast path: no decoding, no table.
                guard WordCharacters.isASCIIWord(b) else { i += 1; continue }
                end = i + 1
                ascii = true
            } else {
                let (isWord, len) = WordCharacters.classify(p, i)
                guard isWord else { i += len; continue }
                end = i + len
                ascii = false
            }
            let start = i
            var hash = FirstWordTable.offset
            while end < n {
                let c = p[end]
                if c < 0x80 {
                    if WordCharacters.isASCIIWord(c) { end += 1; continue }
                    break
                }
                let (w, l) = WordCharacters.classify(p, end)
                if !w { break }
                ascii = false
                end += l
            }
            if !ascii {
                WordCharacters.fold(p, start..<end, ascii: false, into: &scratch.first)
                for b in scratch.first { hash = FirstWordTable.mix(hash, b) }
            }
            i = end
            // Most words cannot start a keyword: rule them out by first letter and length before hashing.
            if ascii && !table.mayStart(WordCharacters.asciiLower(p[start]), length: end - start) { continue }
            if ascii {
                for k in start..<end { hash = FirstWordTable.mix(hash, WordCharacters.asciiLower(p[k])) }
            }
            guard let candidates = table.candidates(hash) else { continue }
            if start == 0 && Self.neighbourContinues(runs, runIndex, before: true) { continue }
            for pattern in candidates {
                guard Self.equalFolded(p, start..<end, ascii: ascii, pattern.words[0], scratch: scratch.first) else { continue }
                guard let matchEnd = Self.continueMatch(p, after: end, pattern, scratch: &scratch.other) else { continue }
                if matchEnd == n && Self.neighbourContinues(runs, runIndex, before: false) { continue }
                found(pattern, start..<matchEnd)
                i = matchEnd
                break
            }
        }
    }

    /// Whether the first word of the run at `start..<end` folds to `word`.
    /// For non-ASCII words `scratch` already holds the folded bytes.
    private static func equalFolded(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, ascii: Bool,
                                    _ word: [UInt8], scratch: [UInt8]) -> Bool {
        if !ascii { return scratch == word }
        guard r.count == word.count else { return false }
        var k = 0
        for j in r {
            if WordCharacters.asciiLower(p[j]) != word[k] { return false }
            k += 1
        }
        return true
    }

    /// Matches the separators and words after the first word; the end of the match, or nil.
    private static func continueMatch(_ p: UnsafeBufferPointer<UInt8>, after firstEnd: Int, _ pattern: Pattern,
                                      scratch: inout [UInt8]) -> Int? {
        var at = firstEnd
        let n = p.count
        for k in pattern.separators.indices {
            let sep = pattern.separators[k]
            guard at + sep.count <= n else { return nil }
            for (o, b) in sep.enumerated() where p[at + o] != b { return nil }
            at += sep.count
            guard at < n else { return nil }
            let (isWord, len) = WordCharacters.classify(p, at)
            guard isWord else { return nil }
            var end = at + len
            var ascii = len == 1
            while end < n {
                let (w, l) = WordCharacters.classify(p, end)
                if !w { break }
                if l > 1 { ascii = false }
                end += l
            }
            if !ascii { WordCharacters.fold(p, at..<end, ascii: false, into: &scratch) }
            guard equalFolded(p, at..<end, ascii: ascii, pattern.words[k + 1], scratch: scratch) else { return nil }
            at = end
        }
        return at
    }

    /// Whether the nearest text run before (or after) `runIndex`, across markup
    /// only, ends (or starts) with a word character, so that a word at this
    /// run's edge is not whole.
    private static func neighbourContinues(_ runs: [TextRun], _ runIndex: Int, before: Bool) -> Bool {
        var j = before ? runIndex - 1 : runIndex + 1
        while j >= 0 && j < runs.count {
            let run = runs[j]
            switch run.kind {
            case .lineBreak: return false
            case .markup: j += before ? -1 : 1
            case .text:
                if run.text.isEmpty { j += before ? -1 : 1; continue }
                let scalar = before ? run.text.unicodeScalars.last : run.text.unicodeScalars.first
                return scalar.map(WordCharacters.isWord) ?? false
            }
        }
        return false
    }
}

/// Reusable buffers for lower-cased non-ASCII words: the first word of a
/// possible match, and the word being compared after it.
struct Scratch {
    var first: [UInt8] = []
    var other: [UInt8] = []
}

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
    private var groups: [[KeywordEmphasis.Pattern]]
    private let mask: Int

    init(_ patterns: [KeywordEmphasis.Pattern]) {
        var byHash: [UInt64: [KeywordEmphasis.Pattern]] = [:]
        var order: [UInt64] = []
        for p in patterns {
            let first = p.words[0]
            firstBytes |= first[0] < 0x80 ? 1 << UInt64(first[0] & 63) : UInt64.max
            lengths |= 1 << UInt64(min(first.count, 63))
            let h = first.reduce(FirstWordTable.offset, FirstWordTable.mix)
            if byHash[h] == nil { order.append(h) }
            byHash[h, default: []].append(p)
        }
        var size = 8
        while size < order.count * 4 { size *= 2 }
        mask = size - 1
        slots = [Int32](repeating: -1, count: size)
        hashes = []
        groups = []
        for h in order {
            let sorted = (byHash[h] ?? []).sorted {
                ($0.words.count, $0.byteLength, -$0.keyword) > ($1.words.count, $1.byteLength, -$1.keyword)
            }
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(groups.count)
            hashes.append(h)
            groups.append(sorted)
        }
    }

    var isEmpty: Bool { groups.isEmpty }

    /// Whether an ASCII word starting with the lower-case byte `first` and
    /// `length` bytes long may be the first word of a keyword (a cheap filter).
    @inline(__always)
    func mayStart(_ first: UInt8, length: Int) -> Bool {
        firstBytes & (1 << UInt64(first & 63)) != 0 && lengths & (1 << UInt64(min(length, 63))) != 0
    }

    @inline(__always)
    func candidates(_ hash: UInt64) -> [KeywordEmphasis.Pattern]? {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let g = slots[slot]
            if g < 0 { return nil }
            if hashes[Int(g)] == hash { return groups[Int(g)] }
            slot = (slot + 1) & mask
        }
    }
}

/// What counts as a word character, read straight from UTF-8 bytes.
enum WordCharacters {
    @inline(__always)
    static func asciiLower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    @inline(__always)
    static func isASCIIWord(_ b: UInt8) -> Bool {
        b &- 0x30 < 10 || (b | 0x20) &- 0x61 < 26
    }

    /// Whether a scalar is a letter, a mark or a decimal digit.
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x800 { return twoByteTable[Int(scalar.value)] & wordBit != 0 }
        return isWordByProperties(scalar)
    }

    static func isWordByProperties(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIIWord(UInt8(scalar.value)) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    static let wordBit: UInt32 = 1 << 31
    static let noSimpleLowercase: UInt32 = 0x7FFF_FFFF

    /// For every scalar below U+0800 (ASCII and the two-byte UTF-8 range:
    /// Latin, Greek, Cyrillic, Hebrew, Arabic…): whether it is a word
    /// character (`wordBit`) and its lower-case scalar (or `noSimpleLowercase`
    /// when lower-casing gives more than one scalar), so the common scripts
    /// never need `String.lowercased()` or a Unicode property lookup per character.
    static let twoByteTable: [UInt32] = (0..<0x800).map { (v: UInt32) -> UInt32 in
        guard let scalar = Unicode.Scalar(v) else { return noSimpleLowercase }
        var entry: UInt32 = isWordByProperties(scalar) ? wordBit : 0
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        entry |= lower.count == 1 ? (lower.first?.value ?? noSimpleLowercase) : noSimpleLowercase
        return entry
    }

    /// Whether the character at byte `i` is a word character, and its length in bytes.
    /// Bytes that are not valid UTF-8 count as one-byte non-word characters.
    @inline(__always)
    static func classify(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Bool, Int) {
        let b = p[i]
        if b < 0x80 { return (isASCIIWord(b), 1) }
        let n = p.count
        if b >= 0xC2 && b <= 0xDF {
            guard i + 1 < n, p[i + 1] & 0xC0 == 0x80 else { return (false, 1) }
            let v = Int(b & 0x1F) << 6 | Int(p[i + 1] & 0x3F)
            return (twoByteTable[v] & wordBit != 0, 2)
        }
        var value: UInt32
        var len: Int
        switch b {
        case 0xE0...0xEF: len = 3; value = UInt32(b & 0x0F)
        case 0xF0...0xF4: len = 4; value = UInt32(b & 0x07)
        default: return (false, 1)
        }
        guard i + len <= n else { return (false, 1) }
        for k in 1..<len {
            let c = p[i + k]
            guard c & 0xC0 == 0x80 else { return (false, 1) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return (false, 1) }
        return (isWordByProperties(scalar), len)
    }

    /// Lower-cases the word at `r` into `out` (replacing its contents).
    ///
    /// ASCII and two-byte characters with a one-scalar lower case are mapped
    /// through the table; a word with anything else goes through `String.lowercased()`.
    static func fold(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, ascii: Bool, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        if ascii {
            for j in r { out.append(asciiLower(p[j])) }
            return
        }
        var j = r.lowerBound
        while j < r.upperBound {
            let b = p[j]
            if b < 0x80 { out.append(asciiLower(b)); j += 1; continue }
            if b >= 0xC2 && b <= 0xDF && j + 1 < r.upperBound {
                let lower = twoByteTable[Int(b & 0x1F) << 6 | Int(p[j + 1] & 0x3F)] & ~wordBit
                if lower < 0x80 { out.append(UInt8(lower)); j += 2; continue }
                if lower < 0x800 {
                    out.append(0xC0 | UInt8(lower >> 6)); out.append(0x80 | UInt8(lower & 0x3F)); j += 2; continue
                }
            }
            out.removeAll(keepingCapacity: true)
            out.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: p[r]), as: UTF8.self).lowercased().utf8)
            return
        }
    }
}
