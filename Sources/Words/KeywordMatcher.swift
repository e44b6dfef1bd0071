/// Finds keywords (words or phrases) in a text cut into words, whole words
/// only and case ignored, all keywords in one pass over the words.
///
/// Each word's lower-cased form is looked up in a hash table of the
/// keywords' first words (`FirstWordTable`), so the cost grows with the text
/// and not with keywords × text. A keyword matches where its words follow one
/// another in the text with the same text between them (`KeywordPattern`;
/// or, for `.anyWithinLine`, anything but a line break between them).
package struct KeywordMatcher: Sendable {
    /// What may stand between two words of a keyword in the text.
    package enum Separators: Sendable {
        /// What the keyword has there, white space runs compared as one space.
        case asWritten
        /// Anything without a line break (a phrase compared word for word within one line).
        case anyWithinLine
        /// Anything (a phrase compared word for word, across lines too).
        case any
    }

    /// Reusable buffers for lower-cased non-ASCII words.
    package struct Scratch {
        var first: [UInt8] = []
        var other: [UInt8] = []
        /// Empty buffers.
        package init() {}
    }

    /// How many keywords were given.
    package let keywordCount: Int
    private let table: FirstWordTable
    private let separators: Separators

    /// Prepares `keywords` (a keyword with no word never matches).
    package init(_ keywords: [String], separators: Separators = .asWritten) {
        let scanner = WordScanner()
        var patterns: [KeywordPattern] = []
        for (index, keyword) in keywords.enumerated() {
            if let pattern = KeywordPattern(keyword, index: index, scanner: scanner) { patterns.append(pattern) }
        }
        keywordCount = keywords.count
        table = FirstWordTable(patterns)
        self.separators = separators
    }

    /// `range` of `text` without the white space (Unicode White_Space) at its ends.
    package static func trimmingWhiteSpace(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        while lower < range.upperBound {
            let length = KeywordPattern.whiteSpaceLength(text, lower)
            if length == 0 { break }
            lower += length
        }
        // The end: walked forward, keeping where the last character that is not white space ends.
        var upper = lower
        var i = lower
        while i < range.upperBound {
            let length = KeywordPattern.whiteSpaceLength(text, i)
            if length > 0 {
                i += length
            } else {
                i += KeywordPattern.scalar(text, i)?.1 ?? 1
                upper = min(i, range.upperBound)
            }
        }
        return lower..<upper
    }

    /// Whether no keyword has a word.
    package var isEmpty: Bool { table.isEmpty }

    /// Whether `text` may hold a match. Cut into words without keeping them
    /// where the simple path can: false when no word may be the first word of
    /// a keyword, true as soon as one may. Text that needs ICU's iterator
    /// (whose words depend on the text around them) is lower-cased whole
    /// instead (`WordFold.lowered`), and false only when it holds no keyword's
    /// first word even as bytes: a word lower-cased on its own is a part of
    /// the text lower-cased whole, scalar by scalar. A pre-check for text read as it
    /// was written (markup around it only adds and separates words).
    package func mayMatch(_ text: UnsafeBufferPointer<UInt8>, scratch: inout Scratch) -> Bool {
        // ASCII text that holds no first word even as bytes, lower-cased, has no word to start a keyword either.
        guard let bound = firstWordBound(text) else { return false }
        return holdsAWordThatMayStartAKeyword(text, from: bound, scratch: &scratch)
    }

    /// `mayMatch` after its first test (`asciiHoldsNoFirstWord`): the cut
    /// into words, up to the first word that may start a keyword, from
    /// about `bound` (no word of `text` that ends before it starts a keyword:
    /// `firstWordBound(_:)`'s, 0 when none is known), as
    /// `words(of:from:into:scanner:scratch:)` cuts them.
    package func holdsAWordThatMayStartAKeyword(_ text: UnsafeBufferPointer<UInt8>, from bound: Int = 0, scratch: inout Scratch) -> Bool {
        let start = WordScanner.simpleScanStart(atOrBefore: bound, in: text)
        // The scratch buffer is moved in and out (not copied, which would copy it on the first write).
        var probe = FirstWordProbe(matcher: self, text: text, offset: start, folded: [])
        swap(&probe.folded, &scratch.first)
        let end = WordScanner.scanSimple(UnsafeBufferPointer(rebasing: text[start...]), into: &probe)
        swap(&probe.folded, &scratch.first)
        switch end {
        case .finished: return false
        case .stopped: return true
        case .complex: return holdsAFirstWord(text)
        }
    }

    /// Cuts `text` (UTF-8, every byte of it matched: no markup in it) into
    /// `words` (`WordScanner`'s words, replacing what it held) and returns
    /// the index of the first that may start a keyword, or nil when no word
    /// may: then `forEachMatch` finds nothing in `text`, and `words` may be
    /// left partial. The pre-check `mayMatch` and the cut into words in one
    /// scan (text that `asciiHoldsNoFirstWord` rules out needs neither): the
    /// words before the one returned start no keyword, so `forEachMatch`
    /// from that word finds what it finds from the first.
    ///
    /// `bound` is an offset such that no word of `text` that ends before it
    /// starts a keyword (`firstWordBound(_:)`'s, 0 when none is known):
    /// `words` then holds only the words from a little before it on (from
    /// `WordScanner.simpleScanStart(atOrBefore:in:)`), which are `text`'s
    /// own words there (the ones ICU's iterator cuts from the whole text when
    /// the simple path cannot: then all of them).
    package func words(of text: UnsafeBufferPointer<UInt8>, from bound: Int = 0, into words: inout [Range<Int>], scanner: WordScanner,
                       scratch: inout Scratch) -> Int? {
        if !words.isEmpty { words.removeAll(keepingCapacity: true) }
        let start = WordScanner.simpleScanStart(atOrBefore: bound, in: text)
        // The buffers are moved in and out (not copied, which would copy them on the first write).
        var sink = CandidateWords(matcher: self, text: text, offset: start, words: [], folded: [])
        swap(&sink.words, &words)
        swap(&sink.folded, &scratch.first)
        let end = WordScanner.scanSimple(UnsafeBufferPointer(rebasing: text[start...]), into: &sink)
        swap(&sink.words, &words)
        swap(&sink.folded, &scratch.first)
        if end != .complex { return sink.first }
        // As `mayMatch` does: ICU's iterator only for text that holds a first word as bytes.
        guard holdsAFirstWord(text) else { return nil }
        scanner.scan(text)
        words.removeAll(keepingCapacity: true)
        words.append(contentsOf: scanner.words)
        return words.isEmpty ? nil : 0
    }

    /// Keeps every word (of the text from `offset` on, moved back to offsets
    /// in `text`), and the index of the first that may start a keyword.
    private struct CandidateWords: WordSink {
        let matcher: KeywordMatcher
        let text: UnsafeBufferPointer<UInt8>
        let offset: Int
        var words: [Range<Int>]
        var folded: [UInt8]
        var first: Int? = nil

        mutating func take(_ part: Range<Int>) -> Bool {
            let word = part.lowerBound + offset..<part.upperBound + offset
            if first == nil, matcher.firstCandidates(text, word, scratch: &folded) != nil { first = words.count }
            words.append(word)
            return true
        }
    }

    /// Nil when `text` is ASCII and, lower-cased, holds no keyword's first
    /// word even as bytes (`asciiHoldsNoFirstWord`); otherwise an offset
    /// before which no word of `text` starts a keyword, for
    /// `words(of:from:into:scanner:scratch:)` (`FirstWordTable.firstWordBound(_:)`).
    @inline(__always)
    package func firstWordBound(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        table.firstWordBound(text)
    }

    /// True only when `text` is ASCII and, lower-cased, holds no keyword's
    /// first word even as bytes: then no word of it, nor of the text its
    /// markup cuts, starts a keyword (`mayMatch`'s first, cheapest test).
    @inline(__always)
    package func asciiHoldsNoFirstWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        table.asciiHoldsNoFirstWord(text)
    }

    /// Whether `text`, lower-cased whole, holds the bytes of some keyword's first word.
    private func holdsAFirstWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let lowered = WordFold.lowered(text)
        return lowered.withUnsafeBufferPointer { hay in
            table.firstWords.contains { word in
                guard let first = word.first, word.count <= hay.count else { return false }
                var i = 0
                while i + word.count <= hay.count {
                    if hay[i] == first && word.indices.allSatisfy({ hay[i + $0] == word[$0] }) { return true }
                    i += 1
                }
                return false
            }
        }
    }

    /// Stops the scan (of the text from `offset` on) at the first word that may start a keyword.
    private struct FirstWordProbe: WordSink {
        let matcher: KeywordMatcher
        let text: UnsafeBufferPointer<UInt8>
        let offset: Int
        var folded: [UInt8]

        mutating func take(_ part: Range<Int>) -> Bool {
            matcher.firstCandidates(text, part.lowerBound + offset..<part.upperBound + offset, scratch: &folded) == nil
        }
    }

    /// Calls `found` with each match in `text`, whose words are `words` (byte
    /// ranges from `WordScanner`), left to right from word `start`, until it
    /// returns false.
    ///
    /// At each word the longest keyword that matches there and that `accept`
    /// takes (it may refuse a byte range, e.g. one crossing markup) wins, and
    /// the search goes on after it; with `overlapping`, every keyword that
    /// matches at a word is reported and the search goes on at the next word.
    package func forEachMatch(in text: UnsafeBufferPointer<UInt8>, words: [Range<Int>], from start: Int = 0, overlapping: Bool = false,
                              scratch: inout Scratch, accept: (Range<Int>) -> Bool = { _ in true },
                              found: (_ keyword: Int, _ bytes: Range<Int>) -> Bool) {
        var w = max(start, 0)
        while w < words.count {
            let r = words[w]
            var next = w + 1
            if let (candidates, ascii) = firstCandidates(text, r, scratch: &scratch.first) {
                for k in candidates.indices {
                    guard equalFirst(text, r, candidates[k].words[0], ascii: ascii, folded: scratch.first),
                          let last = continueMatch(text, words, from: w, candidates[k], scratch: &scratch.other) else { continue }
                    let range = r.lowerBound..<words[last].upperBound
                    guard accept(range) else { continue }
                    guard found(candidates[k].keyword, range) else { return }
                    if !overlapping {
                        next = last + 1
                        break
                    }
                }
            }
            w = next
        }
    }

    /// The patterns whose first word may be the word at `r` (same hash of the
    /// lower-cased word), and whether the word is ASCII; a word that is not is
    /// left lower-cased in `folded`. The first byte and the length rule out
    /// most words before any hashing.
    @inline(__always)
    fileprivate func firstCandidates(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>,
                                     scratch folded: inout [UInt8]) -> (patterns: [KeywordPattern], ascii: Bool)? {
        // A word that starts with an ASCII byte starts with its lower case once folded.
        let first = p[r.lowerBound]
        if first < 0x80 && !table.mayStart(with: WordFold.asciiLower(first)) { return nil }
        var hash = FirstWordTable.offset
        for j in r {
            let b = p[j]
            if b >= 0x80 {
                WordFold.fold(p, r, into: &folded)
                guard table.mayHave(length: folded.count) else { return nil }
                hash = FirstWordTable.offset
                for c in folded { hash = FirstWordTable.mix(hash, c) }
                return table.candidates(hash).map { ($0, false) }
            }
            hash = FirstWordTable.mix(hash, WordFold.asciiLower(b))
        }
        guard table.mayHave(length: r.count) else { return nil }
        return table.candidates(hash).map { ($0, true) }
    }

    /// Whether the word at `r` is `word`; when it is not ASCII, `folded` holds it lower-cased.
    @inline(__always)
    private func equalFirst(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ word: [UInt8], ascii: Bool, folded: [UInt8]) -> Bool {
        if !ascii { return folded == word }
        guard r.count == word.count else { return false }
        var k = 0
        for j in r {
            if WordFold.asciiLower(p[j]) != word[k] { return false }
            k += 1
        }
        return true
    }

    /// Matches the separators and words of `pattern` after its first word,
    /// which is word `first`; the index of its last word, or nil.
    private func continueMatch(_ p: UnsafeBufferPointer<UInt8>, _ words: [Range<Int>], from first: Int,
                               _ pattern: KeywordPattern, scratch: inout [UInt8]) -> Int? {
        var w = first
        for k in pattern.separators.indices {
            let next = w + 1
            guard next < words.count else { return nil }
            let between = UnsafeBufferPointer(rebasing: p[words[w].upperBound..<words[next].lowerBound])
            switch separators {
            case .asWritten: guard KeywordPattern.separatorMatches(between, pattern.separators[k]) else { return nil }
            case .anyWithinLine: guard KeywordPattern.isWithinLine(between) else { return nil }
            case .any: break
            }
            guard WordFold.equal(p, words[next], pattern.words[k + 1], scratch: &scratch) else { return nil }
            w = next
        }
        return w
    }
}
