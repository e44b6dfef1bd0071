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
    /// Whether no keyword has a line break between its words, so that no
    /// match can span two lines of a cue.
    private let separatorsOnOneLine: Bool

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
        separatorsOnOneLine = !patterns.contains { $0.separators.contains { $0.contains(0x0A) || $0.contains(0x0D) } }
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
    ///
    /// With `source` (the document's UTF-8 bytes, for SRT and WebVTT, whose
    /// cue text in `textRange` holds every text run's bytes as written, except
    /// through character references), a cue whose raw bytes hold no `&` and no
    /// word that could start a keyword is passed over without building its runs.
    ///
    /// With `sourceIsText` too (SRT, where a text run's text is exactly its
    /// source bytes when they are valid UTF-8), a cue whose bytes are valid
    /// UTF-8 is matched on those bytes, through its lines (no markup) or
    /// `Cue.appendRunOutlines(to:)`, without making its runs' strings; a cue
    /// with invalid bytes (repaired in its runs' text) goes through `runs`.
    public func apply(to cues: [Cue], source: [UInt8]? = nil, sourceIsText: Bool = false) -> Result {
        var counts = [Int](repeating: 0, count: keywords.count)
        guard !table.isEmpty else { return Result(edits: [:], counts: counts) }
        // Collected in order, then turned into a dictionary of the right size at once.
        var found: [(Int, CueEdit)] = []
        var scratch = Scratch()
        var ranges: [CueEdit.RunRange] = []
        // Reused for every cue that has markup.
        var outlines: [RunOutline] = []
        let bytes = source ?? []
        let byPairs = table.pairsCoverAll
        // SRT cues of plain ASCII lines are matched in one piece (see `plainASCIIHasPair`).
        let wholeCues = sourceIsText && source != nil && byPairs && separatorsOnOneLine
        // Cues are read in place through the buffer: no copy of a cue (and no
        // retain of its strings and source) per cue.
        cues.withUnsafeBufferPointer { cues in
            bytes.withUnsafeBufferPointer { all in
                for cueIndex in cues.indices {
                    let textRange = cues[cueIndex].textRange
                    let inSource = source != nil && textRange.lowerBound >= 0 && textRange.upperBound <= all.count
                    let raw = inSource ? UnsafeBufferPointer(rebasing: all[textRange]) : UnsafeBufferPointer(start: nil, count: 0)
                    if wholeCues, inSource, Cue.hasUnbuiltSRTRuns(cues, at: cueIndex), let hasPair = plainASCIIHasPair(raw) {
                        guard hasPair else { continue }
                        ranges.removeAll(keepingCapacity: true)
                        matchPlainASCII(raw, scratch: &scratch) { pattern, run, range in
                            counts[pattern.keyword] += 1
                            ranges.append(CueEdit.RunRange(run: run, utf8: range))
                        }
                        if !ranges.isEmpty { found.append((cueIndex, CueEdit(emphasis: ranges))) }
                        continue
                    }
                    if inSource, !mayMatch(raw, scratch: &scratch.first) { continue }
                    ranges.removeAll(keepingCapacity: true)
                    if sourceIsText, inSource, let ascii = Self.textKind(raw) {
                        // The runs' text is their source bytes (valid UTF-8): match
                        // there, with no string made.
                        let fast = ascii && byPairs
                        // A cue without markup: its text runs are its lines, with line
                        // breaks (or nothing) around each, so a word at a run's edge is whole.
                        let plain = cues[cueIndex].forEachPlainSRTTextRun { runIndex, source in
                            guard source.upperBound <= all.count else { return }
                            let text = UnsafeBufferPointer(rebasing: all[source])
                            // Closures passed straight in (not held in a variable),
                            // so what they capture stays on the stack.
                            if fast {
                                scanASCII(text, continues: { _ in false }, scratch: &scratch) { pattern, range in
                                    counts[pattern.keyword] += 1
                                    ranges.append(CueEdit.RunRange(run: runIndex, utf8: range))
                                }
                            } else {
                                scan(text, continues: { _ in false }, scratch: &scratch) { pattern, range in
                                    counts[pattern.keyword] += 1
                                    ranges.append(CueEdit.RunRange(run: runIndex, utf8: range))
                                }
                            }
                        }
                        if !plain {
                            outlines.removeAll(keepingCapacity: true)
                            cues[cueIndex].appendRunOutlines(to: &outlines)
                            for runIndex in outlines.indices {
                                let run = outlines[runIndex]
                                guard run.kind == .text, !run.style.contains(.bold), !run.source.isEmpty,
                                      run.source.lowerBound >= 0, run.source.upperBound <= all.count else { continue }
                                let text = UnsafeBufferPointer(rebasing: all[run.source])
                                if fast {
                                    scanASCII(text, continues: { Self.neighbourContinues(outlines, all, runIndex, before: $0) },
                                              scratch: &scratch) { pattern, range in
                                        counts[pattern.keyword] += 1
                                        ranges.append(CueEdit.RunRange(run: runIndex, utf8: range))
                                    }
                                } else {
                                    scan(text, continues: { Self.neighbourContinues(outlines, all, runIndex, before: $0) },
                                         scratch: &scratch) { pattern, range in
                                        counts[pattern.keyword] += 1
                                        ranges.append(CueEdit.RunRange(run: runIndex, utf8: range))
                                    }
                                }
                            }
                        }
                    } else {
                        let runs = cues[cueIndex].runs
                        for runIndex in runs.indices {
                            let run = runs[runIndex]
                            guard run.kind == .text, !run.style.contains(.bold), !run.text.isEmpty else { continue }
                            var text = run.text
                            text.withUTF8 { p in
                                scan(p, continues: { Self.neighbourContinues(runs, runIndex, before: $0) }, scratch: &scratch) { pattern, range in
                                    counts[pattern.keyword] += 1
                                    ranges.append(CueEdit.RunRange(run: runIndex, utf8: range))
                                }
                            }
                        }
                    }
                    if !ranges.isEmpty { found.append((cueIndex, CueEdit(emphasis: ranges))) }
                }
            }
        }
        return Result(edits: Dictionary(uniqueKeysWithValues: found), counts: counts)
    }

    /// For an SRT cue's text whose runs are its lines (no `<` or `{`) and
    /// which is all ASCII: whether some pair of bytes is the lower-cased
    /// start of a keyword's first word (without one, no word can match).
    /// Nil for any other cue (a non-ASCII byte, a `<` or a `{`). Sixteen
    /// bytes at a time; call only when `table.pairsCoverAll`.
    private func plainASCIIHasPair(_ p: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let base = p.baseAddress else { return false }
        let n = p.count
        let pairs = table.pairs
        guard n >= 17 else {
            var hit = false
            for i in 0..<n {
                let b = p[i]
                if b >= 0x80 || b == 0x3C || b == 0x7B { return nil }
                if i + 1 < n {
                    let b0 = UInt64(b | 0x20), b1 = UInt64(p[i + 1] | 0x20)
                    if pairs.contains(where: { $0.first & 0xFF | 0x20 == b0 && $0.second & 0xFF | 0x20 == b1 }) { hit = true }
                }
            }
            return hit
        }
        typealias V = SIMD16<UInt8>
        let lowerBits = V(repeating: 0x20), highBit = V(repeating: 0x80)
        let lt = V(repeating: 0x3C), brace = V(repeating: 0x7B)
        var bad = V(repeating: 0)
        var hits = SIMDMask<V.MaskStorage>(repeating: false)
        var i = 0
        while true {
            // The last window overlaps the one before; that changes no answer.
            let at = min(i, n - 17)
            let x0 = UnsafeRawPointer(base + at).loadUnaligned(as: V.self)
            let x1 = UnsafeRawPointer(base + at + 1).loadUnaligned(as: V.self)
            bad |= (x0 | x1) & highBit
            bad |= V(repeating: 0x01).replacing(with: 0, where: .!((x0 .== lt) .| (x0 .== brace) .| (x1 .== lt) .| (x1 .== brace)))
            let l0 = x0 | lowerBits, l1 = x1 | lowerBits
            for pair in pairs {
                hits .|= (l0 .== V(repeating: UInt8(truncatingIfNeeded: pair.first) | 0x20))
                    .& (l1 .== V(repeating: UInt8(truncatingIfNeeded: pair.second) | 0x20))
            }
            if at == n - 17 { break }
            i += 16
        }
        let b = unsafeBitCast(bad, to: SIMD2<UInt64>.self)
        if b[0] | b[1] != 0 { return nil }
        let h = unsafeBitCast(hits, to: SIMD2<UInt64>.self)
        return h[0] | h[1] != 0
    }

    /// Matches a cue that `plainASCIIHasPair` accepted, all its lines in one
    /// scan (no keyword has a line break between words, and line breaks are
    /// not word characters, so no match spans two lines and each is found as
    /// in its line alone), and calls `found` with the index in `runs` of the
    /// line's text run and the range in it: the runs are the non-empty lines,
    /// with a line-break run between lines (LF, CR or CR LF), as `SRTParser` makes them.
    private func matchPlainASCII(_ p: UnsafeBufferPointer<UInt8>, scratch: inout Scratch,
                                 found: (Pattern, Int, Range<Int>) -> Void) {
        let n = p.count
        // The line being mapped to: where it starts and ends, and its run's index.
        var lineStart = 0, lineEnd = -1, run = -1
        scanASCII(p, continues: { _ in false }, scratch: &scratch) { pattern, range in
            while range.lowerBound > lineEnd || lineEnd < 0 {
                if lineEnd >= 0 {
                    // Past the line break after the line (CR LF is one).
                    var next = lineEnd + 1
                    if p[lineEnd] == 0x0D && next < n && p[next] == 0x0A { next += 1 }
                    lineStart = next
                    run += 1  // the line-break run
                }
                lineEnd = lineStart
                while lineEnd < n && p[lineEnd] != 0x0A && p[lineEnd] != 0x0D { lineEnd += 1 }
                if lineEnd > lineStart { run += 1 }
            }
            found(pattern, run, range.lowerBound - lineStart..<range.upperBound - lineStart)
        }
    }

    /// Scans one run's UTF-8 bytes, calling `found` for each match, left to right.
    private func scan(_ p: UnsafeBufferPointer<UInt8>, continues: (_ before: Bool) -> Bool,
                      scratch: inout Scratch, found: (Pattern, Range<Int>) -> Void) {
        var i = 0
        while let (start, end, ascii) = Self.nextWord(p, from: i) {
            i = match(p, word: start..<end, ascii: ascii, continues: continues, scratch: &scratch, found: found) ?? end
        }
    }

    /// The keyword (longest first) whose first word is `word` and whose other
    /// words follow it in `p`, reported through `found`; returns where the
    /// match ends, or nil when none matches there. A match touching an end of
    /// `p` counts only when the text does not go on there (`continues`).
    @inline(__always)
    private func match(_ p: UnsafeBufferPointer<UInt8>, word: Range<Int>, ascii: Bool, continues: (_ before: Bool) -> Bool,
                       scratch: inout Scratch, found: (Pattern, Range<Int>) -> Void) -> Int? {
        guard let hash = firstWordHash(p, word, ascii: ascii, scratch: &scratch.first),
              let candidates = table.candidates(hash) else { return nil }
        if word.lowerBound == 0 && continues(true) { return nil }
        for pattern in candidates {
            guard Self.equalFolded(p, word, ascii: ascii, pattern.words[0], scratch: scratch.first) else { continue }
            guard let matchEnd = Self.continueMatch(p, after: word.upperBound, pattern, scratch: &scratch.other) else { continue }
            if matchEnd == p.count && continues(false) { continue }
            found(pattern, word.lowerBound..<matchEnd)
            return matchEnd
        }
        return nil
    }

    /// `scan` for an all-ASCII run, when `table.pairsCoverAll`: only where a
    /// word's first two bytes, lower-cased, are those of some keyword's first
    /// word (found eight bytes at a time, as `asciiMayMatch` does) is the word
    /// cut and looked up. Every other word has no candidates in `scan` either,
    /// so the matches are the same, found left to right.
    private func scanASCII(_ p: UnsafeBufferPointer<UInt8>, continues: (_ before: Bool) -> Bool,
                           scratch: inout Scratch, found: (Pattern, Range<Int>) -> Void) {
        guard let base = p.baseAddress else { return }
        let n = p.count
        // Where the next word may start: after the last match.
        var resume = 0
        @inline(__always) func tryWord(at j: Int) {
            guard j >= resume, WordCharacters.isASCIIWord(p[j]) else { return }
            if j > 0 && WordCharacters.isASCIIWord(p[j - 1]) { return }
            var end = j + 1
            while end < n, WordCharacters.isASCIIWord(p[end]) { end += 1 }
            if let matchEnd = match(p, word: j..<end, ascii: true, continues: continues, scratch: &scratch, found: found) {
                resume = matchEnd
            }
        }
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, caseBits: UInt64 = 0x2020_2020_2020_2020
        /// The high bit of each byte of `y` that is zero (exact: no carry crosses bytes).
        @inline(__always) func zeros(_ y: UInt64) -> UInt64 { ~(((y & low) &+ low) | y | low) }
        let pairs = table.pairs
        var i = 0
        while i + 9 <= n {
            let x0 = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) | caseBits
            let x1 = UInt64(littleEndian: UnsafeRawPointer(base + i + 1).loadUnaligned(as: UInt64.self)) | caseBits
            var m: UInt64 = 0
            for pair in pairs { m |= zeros(x0 ^ (pair.first | caseBits)) & zeros(x1 ^ (pair.second | caseBits)) }
            while m != 0 {
                tryWord(at: i + m.trailingZeroBitCount / 8)
                m &= m &- 1
            }
            i += 8
        }
        while i + 1 < n {
            let b0 = UInt64(p[i] | 0x20), b1 = UInt64(p[i + 1] | 0x20)
            if pairs.contains(where: { $0.first & 0xFF | 0x20 == b0 && $0.second & 0xFF | 0x20 == b1 }) { tryWord(at: i) }
            i += 1
        }
    }

    /// Whether the raw cue text `p` may hold a match: it has a `&` (a character
    /// reference could spell a letter), or a word (cut and lower-cased as
    /// `scan` does) that is the first word of some keyword. Markup adds words
    /// but never hides one, so a cue this says no to has no match.
    private func mayMatch(_ p: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> Bool {
        if table.pairsCoverAll, let quick = asciiMayMatch(p) { return quick }
        let n = p.count
        var i = 0
        // One pass: `&` is never part of a word, so every `&` is met between words.
        while i < n {
            let b = p[i]
            var end: Int
            var ascii = true
            if b < 0x80 {
                guard WordCharacters.isASCIIWord(b) else {
                    if b == 0x26 { return true }
                    i += 1
                    continue
                }
                end = i + 1
                while end < n, WordCharacters.isASCIIWord(p[end]) { end += 1 }
                // A non-ASCII word character may continue it.
                if end < n && p[end] >= 0x80 { (end, ascii) = Self.wordEnd(p, from: i) }
            } else {
                let (isWord, length) = WordCharacters.classify(p, i)
                guard isWord else { i += length; continue }
                (end, ascii) = Self.wordEnd(p, from: i)
            }
            if let hash = firstWordHash(p, i..<end, ascii: ascii, scratch: &scratch),
               table.candidates(hash) != nil { return true }
            i = end
        }
        return false
    }

    /// `mayMatch` by byte pairs, eight bytes at a time: a word can be a
    /// keyword's first word only where its first two bytes, lower-cased, are
    /// those of one (`FirstWordTable.pairs`); only there is a word cut and
    /// looked up. Call only when `table.pairsCoverAll`.
    ///
    /// Non-ASCII bytes are allowed: a word with a non-ASCII character folds to
    /// non-ASCII bytes there, except for U+0130 and U+212A (whose lower case
    /// starts with `i` and is `k`), so such a word can match only through two
    /// ASCII bytes at its start, where the pairs find it. Where a non-ASCII
    /// byte touches a word found so, the answer is yes (a may, never a miss).
    /// Nil when the cue holds U+0130 or U+212A: `mayMatch` decides then.
    private func asciiMayMatch(_ p: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let base = p.baseAddress else { return false }
        let n = p.count
        let high: UInt64 = 0x8080_8080_8080_8080, low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let ampersands: UInt64 = 0x2626_2626_2626_2626, caseBits: UInt64 = 0x2020_2020_2020_2020
        /// The high bit of each byte of `y` that is zero (exact: no carry crosses bytes).
        @inline(__always) func zeros(_ y: UInt64) -> UInt64 { ~(((y & low) &+ low) | y | low) }
        let pairs = table.pairs
        var sawHigh: UInt64 = 0
        /// Whether the window of nine bytes at `i` has a `&` or a word that is a
        /// first word, at the pair starts whose bits are in `keep`.
        @inline(__always) func window(_ i: Int, keep: UInt64) -> Bool {
            let x0 = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let x1 = UInt64(littleEndian: UnsafeRawPointer(base + i + 1).loadUnaligned(as: UInt64.self))
            if (x0 | x1) & high != 0 {
                // Where C4 B0 (U+0130) or E2 84 (U+212A's first two bytes) may start.
                sawHigh |= zeros(x0 ^ 0xC4C4_C4C4_C4C4_C4C4) & zeros(x1 ^ 0xB0B0_B0B0_B0B0_B0B0)
                    | zeros(x0 ^ 0xE2E2_E2E2_E2E2_E2E2) & zeros(x1 ^ 0x8484_8484_8484_8484)
            }
            if zeros(x0 ^ ampersands) & keep != 0 { return true }
            // `| 0x20` lower-cases letters; other bytes may then pass too, and are checked below.
            let l0 = x0 | caseBits, l1 = x1 | caseBits
            var m: UInt64 = 0
            for pair in pairs { m |= zeros(l0 ^ (pair.first | caseBits)) & zeros(l1 ^ (pair.second | caseBits)) }
            m &= keep
            while m != 0 {
                if asciiWordMayBeFirstWord(p, at: i + m.trailingZeroBitCount / 8) { return true }
                m &= m &- 1
            }
            return false
        }
        var i = 0
        if n >= 17 {
            // Sixteen bytes at a time; the last window overlaps the one before
            // (a position looked at twice gives the same answer).
            typealias V = SIMD16<UInt8>
            let amp = V(repeating: 0x26), lowerBits = V(repeating: 0x20)
            @inline(__always) func bits(_ m: SIMDMask<V.MaskStorage>) -> (UInt64, UInt64) {
                let w = unsafeBitCast(m, to: SIMD2<UInt64>.self)
                return (w[0] & high, w[1] & high)
            }
            /// Whether any lane is set (`any(_:)` is not inlined).
            @inline(__always) func some(_ m: SIMDMask<V.MaskStorage>) -> Bool {
                let w = unsafeBitCast(m, to: SIMD2<UInt64>.self)
                return w[0] | w[1] != 0
            }
            var kelvin = SIMDMask<V.MaskStorage>(repeating: false)
            while true {
                let at = min(i, n - 17)
                let x0 = UnsafeRawPointer(base + at).loadUnaligned(as: V.self)
                let x1 = UnsafeRawPointer(base + at + 1).loadUnaligned(as: V.self)
                if some(x0 .== amp) { return true }
                kelvin .|= (x0 .== V(repeating: 0xC4)) .& (x1 .== V(repeating: 0xB0))
                kelvin .|= (x0 .== V(repeating: 0xE2)) .& (x1 .== V(repeating: 0x84))
                let l0 = x0 | lowerBits, l1 = x1 | lowerBits
                var m = SIMDMask<V.MaskStorage>(repeating: false)
                for pair in pairs {
                    m .|= (l0 .== V(repeating: UInt8(truncatingIfNeeded: pair.first) | 0x20))
                        .& (l1 .== V(repeating: UInt8(truncatingIfNeeded: pair.second) | 0x20))
                }
                if some(m) {
                    var (lo, hi) = bits(m)
                    while lo != 0 {
                        if asciiWordMayBeFirstWord(p, at: at + lo.trailingZeroBitCount / 8) { return true }
                        lo &= lo &- 1
                    }
                    while hi != 0 {
                        if asciiWordMayBeFirstWord(p, at: at + 8 + hi.trailingZeroBitCount / 8) { return true }
                        hi &= hi &- 1
                    }
                }
                if at == n - 17 { break }
                i += 16
            }
            if some(kelvin) { sawHigh = high }
        } else if n >= 9 {
            while i + 9 <= n {
                if window(i, keep: high) { return true }
                i += 8
            }
            // The last pair starts, in one window ending at the last byte; those seen already masked off.
            if i < n - 1 {
                let s = n - 9
                if window(s, keep: high << UInt64((i - s) * 8)) { return true }
            }
        } else {
            while i < n {
                let b = p[i]
                if b >= 0x80 { sawHigh = high }
                if b == 0x26 { return true }
                if i + 1 < n {
                    let b0 = UInt64(b | 0x20), b1 = UInt64(p[i + 1] | 0x20)
                    if pairs.contains(where: { $0.first & 0xFF | 0x20 == b0 && $0.second & 0xFF | 0x20 == b1 }),
                       asciiWordMayBeFirstWord(p, at: i) { return true }
                }
                i += 1
            }
        }
        if sawHigh != 0 {
            // U+0130 (C4 B0) or U+212A (E2 84 AA) lower-case to ASCII.
            var k = 0
            while k + 1 < n {
                let b = p[k]
                if b == 0xC4 && p[k + 1] == 0xB0 { return nil }
                if b == 0xE2 && p[k + 1] == 0x84 && k + 2 < n && p[k + 2] == 0xAA { return nil }
                k += 1
            }
        }
        return false
    }

    /// Whether the word that may start at `j` (after a byte that is not an
    /// ASCII word character), cut and lower-cased as `scan` does, may be some
    /// keyword's first word: true too when a non-ASCII byte follows its ASCII
    /// part (it may continue the word).
    @inline(__always)
    private func asciiWordMayBeFirstWord(_ p: UnsafeBufferPointer<UInt8>, at j: Int) -> Bool {
        guard WordCharacters.isASCIIWord(p[j]) else { return false }
        if j > 0 && WordCharacters.isASCIIWord(p[j - 1]) { return false }
        var end = j + 1
        while end < p.count, WordCharacters.isASCIIWord(p[end]) { end += 1 }
        if end < p.count && p[end] >= 0x80 { return true }
        var hash = FirstWordTable.offset
        guard table.mayStart(WordCharacters.asciiLower(p[j]), length: end - j) else { return false }
        for k in j..<end { hash = FirstWordTable.mix(hash, WordCharacters.asciiLower(p[k])) }
        return table.candidates(hash) != nil
    }

    /// The table hash of the word at `r`, lower-cased (folded into `scratch`
    /// when it is not ASCII, where `equalFolded` then finds it); nil when its
    /// first letter and length rule out every keyword before any hashing.
    @inline(__always)
    private func firstWordHash(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, ascii: Bool,
                               scratch: inout [UInt8]) -> UInt64? {
        var hash = FirstWordTable.offset
        if ascii {
            guard table.mayStart(WordCharacters.asciiLower(p[r.lowerBound]), length: r.count) else { return nil }
            for k in r { hash = FirstWordTable.mix(hash, WordCharacters.asciiLower(p[k])) }
        } else {
            WordCharacters.fold(p, r, ascii: false, into: &scratch)
            for b in scratch { hash = FirstWordTable.mix(hash, b) }
        }
        return hash
    }

    /// The next word at or after `i`: where it starts and ends, and whether it
    /// is all ASCII; nil when no word is left. Words are runs of word characters
    /// (`WordCharacters`), with an ASCII fast path that decodes nothing.
    @inline(__always)
    private static func nextWord(_ p: UnsafeBufferPointer<UInt8>, from i: Int) -> (start: Int, end: Int, ascii: Bool)? {
        var i = i
        let n = p.count
        while i < n {
            let b = p[i]
            if b < 0x80 {
                if WordCharacters.isASCIIWord(b) { break }
                i += 1
                continue
            }
            let (isWord, len) = WordCharacters.classify(p, i)
            if isWord { break }
            i += len
        }
        guard i < n else { return nil }
        let (end, ascii) = wordEnd(p, from: i)
        return (i, end, ascii)
    }

    /// Where the word that starts at `start` (a word character) ends, and whether it is all ASCII.
    @inline(__always)
    private static func wordEnd(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, ascii: Bool) {
        var end = start, ascii = true
        let n = p.count
        while end < n {
            let c = p[end]
            if c < 0x80 {
                if WordCharacters.isASCIIWord(c) { end += 1; continue }
                break
            }
            let (isWord, len) = WordCharacters.classify(p, end)
            if !isWord { break }
            ascii = false
            end += len
        }
        return (end, ascii)
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
            guard WordCharacters.classify(p, at).0 else { return nil }
            let (end, ascii) = wordEnd(p, from: at)
            if !ascii { WordCharacters.fold(p, at..<end, ascii: false, into: &scratch) }
            guard equalFolded(p, at..<end, ascii: ascii, pattern.words[k + 1], scratch: scratch) else { return nil }
            at = end
        }
        return at
    }

    /// `neighbourContinues` for outlines of runs whose text is their bytes in
    /// `source` (valid UTF-8): the neighbour's last (or first) scalar, decoded there.
    private static func neighbourContinues(_ outlines: [RunOutline], _ source: UnsafeBufferPointer<UInt8>, _ runIndex: Int,
                                           before: Bool) -> Bool {
        var j = before ? runIndex - 1 : runIndex + 1
        while j >= 0 && j < outlines.count {
            let run = outlines[j]
            switch run.kind {
            case .lineBreak: return false
            case .markup: j += before ? -1 : 1
            case .text:
                if run.source.isEmpty { j += before ? -1 : 1; continue }
                guard run.source.lowerBound >= 0, run.source.upperBound <= source.count else { return false }
                let text = UnsafeBufferPointer(rebasing: source[run.source])
                var k = before ? text.count - 1 : 0
                if text[k] < 0x80 { return WordCharacters.isASCIIWord(text[k]) }
                // Back to the first byte of the last scalar.
                if before { while k > 0 && text[k] & 0xC0 == 0x80 { k -= 1 } }
                return WordCharacters.classify(text, k).0
            }
        }
        return false
    }

    /// Whether `p` is all ASCII (true), valid UTF-8 with some non-ASCII (false),
    /// or not valid UTF-8 (nil: its runs' text is repaired, so not its bytes).
    private static func textKind(_ p: UnsafeBufferPointer<UInt8>) -> Bool? {
        if ASCIIBytes.isASCII(p) { return true }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = p.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .error: return nil
            case .emptyInput: return false
            }
        }
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
