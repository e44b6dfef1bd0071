
/// Finds every whole-word, case-insensitive occurrence of a set of keywords in
/// cue text and turns them into bold-emphasis edits.
///
/// Words are runs of word characters (`WordCharacters`: letters, marks,
/// decimal digits and connector punctuation such as `_`), so "AI" does not
/// match inside "said", "café" matches "CAFÉ" and "rocket" is not found in
/// "rocket_launch". `containsWholeWord(_:in:)` answers with the same rule,
/// so a keyword the decoder keeps is one emphasis can find. Matching happens
/// only inside `.text` runs that are not already bold (never through a tag,
/// never nested in another emphasis); a word at the edge of a run is whole
/// only if the neighbouring text run (across markup, not across a line
/// break) does not continue it. Where keywords overlap, the one matched at
/// the leftmost word wins, and at one word the longest keyword wins.
///
/// All keywords are found in one pass: the text is cut into words once, and
/// each word's lower-cased form is looked up in a hash table of the keywords'
/// first words, so the cost grows with the text and not with keywords × text.
/// ASCII words are lower-cased byte by byte; only words with non-ASCII letters
/// go through the table of `WordCharacters` or `String.lowercased()`.
public struct KeywordEmphasis: Sendable {
    /// What applying the keywords found.
    public struct Result: Sendable, Equatable {
        /// The edits, keyed by cue index (each with its emphasis ranges in text order).
        public var edits: [Int: CueEdit]
        /// How many times each keyword (in the order given) was emphasised.
        public var counts: [Int]
        /// How many times each keyword was found but left plain by the density (`EmphasisDensity`).
        public var left: [Int]
        /// All emphasised occurrences.
        public var occurrences: Int { counts.reduce(0, +) }
        /// All occurrences found but left plain.
        public var occurrencesLeft: Int { left.reduce(0, +) }

        /// A result; nothing left plain unless `left` says.
        public init(edits: [Int: CueEdit], counts: [Int], left: [Int]? = nil) {
            self.edits = edits; self.counts = counts; self.left = left ?? [Int](repeating: 0, count: counts.count)
        }
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

    /// Finds the keywords in `cues` and returns the emphasis edits, of the
    /// occurrences `density` selects (the others are counted in `left`).
    ///
    /// Each cue's runs are walked once (`Cue.forEachRun`) and their text
    /// scanned (`scanRuns`). A cue whose bytes as written are at hand (read
    /// from SRT or WebVTT and not built yet) and hold no `&` and no word that
    /// could start a keyword is passed over before that (`mayMatch`, the one
    /// pre-check).
    public func apply(to cues: [Cue], density: EmphasisDensity = .all) -> Result {
        var counts = [Int](repeating: 0, count: keywords.count)
        var left = counts
        guard !table.isEmpty else { return Result(edits: [:], counts: counts) }
        var selection = EmphasisDensity.Selection(density)
        // Collected in order, then turned into a dictionary of the right size at once.
        var found: [(Int, CueEdit)] = []
        var scratch = Scratch()
        var ranges: [CueEdit.RunRange] = []
        // Reused for every cue: its text runs' text one after another, and
        // each run outlined by its range there.
        var outlines: [RunOutline] = []
        var texts: [UInt8] = []
        // Cues are read in place through the buffer: no copy of a cue per cue.
        cues.withUnsafeBufferPointer { cues in
            for cueIndex in cues.indices {
                if cues[cueIndex].withSourceText({ mayMatch($0, scratch: &scratch.first) }) == false { continue }
                ranges.removeAll(keepingCapacity: true)
                outlines.removeAll(keepingCapacity: true)
                texts.removeAll(keepingCapacity: true)
                cues[cueIndex].forEachRun { run in
                    let start = texts.count
                    if run.kind == .text { run.appendText(to: &texts) }
                    outlines.append(RunOutline(kind: run.kind, style: run.style, source: start..<texts.count))
                }
                texts.withUnsafeBufferPointer { text in
                    scanRuns(outlines, in: text, scratch: &scratch) { keyword, range in
                        guard selection.keeps(keyword: keyword, cue: cueIndex) else {
                            left[keyword] += 1
                            return
                        }
                        counts[keyword] += 1
                        ranges.append(range)
                    }
                }
                if !ranges.isEmpty { found.append((cueIndex, CueEdit(emphasis: ranges))) }
            }
        }
        return Result(edits: Dictionary(uniqueKeysWithValues: found), counts: counts, left: left)
    }

    /// Whether `phrase` occurs in `text` as a whole word (or whole words), by
    /// the rule emphasis places keywords with (`WordCharacters`, case
    /// ignored): the one definition of a whole word, which the suggestion
    /// decoder asks (through the pipeline) before it keeps a keyword. A phrase
    /// with no word character never occurs.
    public static func containsWholeWord(_ phrase: String, in text: String) -> Bool {
        let matcher = KeywordEmphasis(keywords: [phrase])
        guard !matcher.table.isEmpty else { return false }
        var text = text
        var scratch = Scratch()
        var hit = false
        text.withUTF8 { p in
            matcher.scan(p, continues: { _ in false }, scratch: &scratch) { _, _ in hit = true; return false }
        }
        return hit
    }

    /// Scans each text run of `outlines` that is not bold, whose text is the
    /// bytes of `text` at its `source`, calling `found` with each match's
    /// keyword and its run and range in the run, in text order. A word at a
    /// run's edge is whole only when the next text run across markup does not
    /// go on with a word character (`neighbourContinues`).
    private func scanRuns(_ outlines: [RunOutline], in text: UnsafeBufferPointer<UInt8>, scratch: inout Scratch,
                          found: (_ keyword: Int, CueEdit.RunRange) -> Void) {
        for runIndex in outlines.indices {
            let run = outlines[runIndex]
            guard run.kind == .text, !run.style.contains(.bold), !run.source.isEmpty,
                  run.source.lowerBound >= 0, run.source.upperBound <= text.count else { continue }
            scan(UnsafeBufferPointer(rebasing: text[run.source]),
                 continues: { Self.neighbourContinues(outlines, text, runIndex, before: $0) },
                 scratch: &scratch) { pattern, range in
                found(pattern.keyword, CueEdit.RunRange(run: runIndex, utf8: range))
                return true
            }
        }
    }

    /// Scans one run's UTF-8 bytes word by word, calling `found` for each
    /// match, left to right, until it returns false.
    private func scan(_ p: UnsafeBufferPointer<UInt8>, continues: (_ before: Bool) -> Bool,
                      scratch: inout Scratch, found: (Pattern, Range<Int>) -> Bool) {
        var i = 0
        while let (start, end, ascii) = Self.nextWord(p, from: i) {
            guard let hash = firstWordHash(p, start..<end, ascii: ascii, scratch: &scratch.first),
                  let candidates = table.candidates(hash), !(start == 0 && continues(true)) else { i = end; continue }
            i = end
            // The longest keyword whose words follow from here wins.
            for pattern in candidates {
                guard Self.equalFolded(p, start..<end, ascii: ascii, pattern.words[0], scratch: scratch.first),
                      let matchEnd = Self.continueMatch(p, after: end, pattern, scratch: &scratch.other),
                      !(matchEnd == p.count && continues(false)) else { continue }
                guard found(pattern, start..<matchEnd) else { return }
                i = matchEnd
                break
            }
        }
    }

    /// The one pre-check: whether the raw cue text `p` may hold a match. It
    /// has a `&` (a character reference could spell a letter), or a word (cut
    /// and lower-cased as `scan` does) that is the first word of some keyword.
    /// Markup adds words but never hides one, so a cue this says no to has no match.
    private func mayMatch(_ p: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> Bool {
        if p.contains(0x26) { return true }
        var i = 0
        while let (start, end, ascii) = Self.nextWord(p, from: i) {
            if let hash = firstWordHash(p, start..<end, ascii: ascii, scratch: &scratch),
               table.candidates(hash) != nil { return true }
            i = end
        }
        return false
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

    /// Whether the nearest text run before (or after) `runIndex`, across
    /// markup only (never a line break), ends (or starts) with a word
    /// character, so that a word at this run's edge is not whole. The runs'
    /// text is the bytes of `text` at their `source` (valid UTF-8).
    private static func neighbourContinues(_ outlines: [RunOutline], _ text: UnsafeBufferPointer<UInt8>, _ runIndex: Int,
                                           before: Bool) -> Bool {
        var j = before ? runIndex - 1 : runIndex + 1
        while j >= 0 && j < outlines.count {
            let run = outlines[j]
            switch run.kind {
            case .lineBreak: return false
            case .markup: j += before ? -1 : 1
            case .text:
                if run.source.isEmpty { j += before ? -1 : 1; continue }
                guard run.source.lowerBound >= 0, run.source.upperBound <= text.count else { return false }
                let neighbour = UnsafeBufferPointer(rebasing: text[run.source])
                var k = before ? neighbour.count - 1 : 0
                // Back to the first byte of the last scalar.
                if before { while k > 0 && neighbour[k] & 0xC0 == 0x80 { k -= 1 } }
                return WordCharacters.classify(neighbour, k).0
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
