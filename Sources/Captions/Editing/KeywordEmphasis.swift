import Words

/// Finds every whole-word, case-insensitive occurrence of a set of keywords in
/// cue text and turns them into bold-emphasis edits.
///
/// Words are the one word rule's (`Words`: Unicode word boundaries as ICU
/// finds them, in every script), so "AI" does not match inside "said",
/// "café" matches "CAFÉ", "rocket" is not found in "rocket_launch" or
/// "rocket's", and "ラーメン" is found in a Japanese sentence: the rule
/// (`WholeWords`) the suggestion decoder keeps keywords by. A cue's text runs are cut
/// into words together (markup adds nothing, a line break separates), so a
/// word continued across markup is one word; a match is emphasised only
/// where it lies in text runs that are not already bold and crosses no markup
/// (never through a tag, never nested in another emphasis). A phrase may
/// cross a line break inside a cue (`real-time⏎analytics`): each line's part
/// is emphasised, and it counts as one occurrence. Where keywords overlap, the
/// one matched at the leftmost word wins, and at one word the longest keyword
/// wins.
///
/// Speaker labels, sound and music descriptions and credit lines
/// (`CueLineParts`) are never emphasised: a keyword that is also a label
/// (`MAN:` and "a wrinkly man") is emphasised in the text only.
///
/// All keywords are found in one pass (`KeywordMatcher`): the cost grows with
/// the text, not with keywords × text.
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

    /// The keywords, as given.
    public let keywords: [String]
    private let matcher: KeywordMatcher

    /// Prepares `keywords` for matching. What stands before a keyword's first
    /// word and after its last is ignored; a keyword with no word never matches.
    public init(keywords: [String]) {
        self.keywords = keywords
        matcher = KeywordMatcher(keywords)
    }

    /// Finds the keywords in `cues` and returns the emphasis edits, of the
    /// occurrences `density` selects (the others are counted in `left`).
    ///
    /// Each cue's runs are walked once (`Cue.forEachRun`): their text, one
    /// line break byte for each line break, is cut into words and matched. A
    /// cue whose bytes as written are at hand (read from SRT or WebVTT and
    /// not built yet) and hold no `&` (a character reference could spell a
    /// letter) and no word that could start a keyword is passed over before
    /// that (`KeywordMatcher.mayMatch`'s two tests, the one pre-check: markup
    /// adds words and separates words but never joins two, so a cue it says
    /// no to has no match). A cue whose bytes as written are that text (an
    /// SRT cue without markup whose lines end with LFs: `Cue.withSourceText`)
    /// is neither walked nor copied, one with CRs copied with LFs for them:
    /// one scan of the text both decides and cuts its words
    /// (`KeywordMatcher.words(of:from:into:scanner:scratch:)`), from about the
    /// first place one of the keywords' first words may start.
    public func apply(to cues: [Cue], density: EmphasisDensity = .all) -> Result {
        var tally = Tally(counts: [Int](repeating: 0, count: keywords.count), selection: EmphasisDensity.Selection(density))
        guard !matcher.isEmpty else { return Result(edits: [:], counts: tally.counts) }
        // Collected in order, then turned into a dictionary of the right size at once.
        var found: [(Int, CueEdit)] = []
        let scanner = WordScanner()
        var scratch = KeywordMatcher.Scratch()
        // Reused for every cue: its runs' text one after another, and each
        // run outlined by its range there; the words of a cue cut on its bytes as written.
        var outlines: [RunOutline] = []
        var texts: [UInt8] = []
        var words: [Range<Int>] = []
        // Cues are read in place through the buffer: no copy of a cue per cue.
        cues.withUnsafeBufferPointer { cues in
            for cueIndex in cues.indices {
                // (Most cues leave both empty: no call to empty them.)
                if !tally.ranges.isEmpty { tally.ranges.removeAll(keepingCapacity: true) }
                if !outlines.isEmpty { outlines.removeAll(keepingCapacity: true) }
                // Whether the cue is done with: matched on its bytes as written, or passed over (the pre-check).
                let done = cues[cueIndex].withSourceText { raw, lineEnds -> Bool in
                    // A character reference could spell a letter: the runs are walked.
                    if Self.holdsAmpersand(raw) { return false }
                    // No word before `bound` starts a keyword; none at all when it is nil.
                    guard let bound = matcher.firstWordBound(raw) else { return true }
                    switch lineEnds() {
                    case nil:
                        return !matcher.holdsAWordThatMayStartAKeyword(raw, from: bound, scratch: &scratch)
                    case .lineFeeds?:
                        Self.emphasiseLines(raw, from: bound, cue: cueIndex, matcher, scanner, &words, &outlines, &scratch, &tally)
                    case .carriageReturns?:
                        texts.removeAll(keepingCapacity: true)
                        Cue.appendReadableLines(of: raw, to: &texts)
                        let readableBound = SRTReader.readableLength(of: raw, upTo: bound)
                        texts.withUnsafeBufferPointer { text in
                            Self.emphasiseLines(text, from: readableBound, cue: cueIndex, matcher, scanner, &words, &outlines, &scratch, &tally)
                        }
                    }
                    return true
                }
                if done != true {
                    texts.removeAll(keepingCapacity: true)
                    cues[cueIndex].forEachRun { run in
                        let start = texts.count
                        switch run.kind {
                        case .text: run.appendText(to: &texts)
                        case .lineBreak: texts.append(0x0A)
                        case .markup: break
                        }
                        outlines.append(RunOutline(kind: run.kind, style: run.style, source: start..<texts.count))
                    }
                    texts.withUnsafeBufferPointer { text in
                        outlines.withUnsafeBufferPointer { runs in
                            scanner.scan(text)
                            Self.emphasise(text, words: scanner.words, from: 0, cue: cueIndex, runs: runs, matcher, &scratch, &tally)
                        }
                    }
                }
                // A copy of its own size: the edit would otherwise share `ranges`' buffer (as large as
                // the largest cue's so far), and the next cue's `removeAll(keepingCapacity:)` make another.
                if !tally.ranges.isEmpty { found.append((cueIndex, CueEdit(emphasis: tally.ranges.withUnsafeBufferPointer { Array($0) }))) }
            }
        }
        return Result(edits: Dictionary(uniqueKeysWithValues: found), counts: tally.counts, left: tally.left)
    }

    /// What matching has found so far, and the emphasis ranges of the cue at hand.
    private struct Tally {
        /// Emphasised occurrences of each keyword.
        var counts: [Int]
        /// Occurrences of each keyword the density left plain.
        var left: [Int]
        /// The density's choice.
        var selection: EmphasisDensity.Selection
        /// The emphasis of the cue at hand, in text order.
        var ranges: [CueEdit.RunRange] = []

        init(counts: [Int], selection: EmphasisDensity.Selection) {
            self.counts = counts; left = counts; self.selection = selection
        }
    }

    /// Matches the keywords in cue `cueIndex`, whose runs are its lines and
    /// their text (`\n` for each line break) `text`: one scan of it, from
    /// about `bound` (no word before it starts a keyword:
    /// `KeywordMatcher.firstWordBound(_:)`), both decides and cuts its words
    /// (`KeywordMatcher.words(of:from:into:scanner:scratch:)`); its runs are
    /// outlined from it only when a keyword may start in it.
    private static func emphasiseLines(_ text: UnsafeBufferPointer<UInt8>, from bound: Int, cue cueIndex: Int, _ matcher: KeywordMatcher,
                                       _ scanner: WordScanner, _ words: inout [Range<Int>], _ outlines: inout [RunOutline],
                                       _ scratch: inout KeywordMatcher.Scratch, _ tally: inout Tally) {
        guard let first = matcher.words(of: text, from: bound, into: &words, scanner: scanner, scratch: &scratch) else { return }
        Cue.appendLineOutlines(of: text, offset: 0, to: &outlines)
        outlines.withUnsafeBufferPointer { runs in
            emphasise(text, words: words, from: first, cue: cueIndex, runs: runs, matcher, &scratch, &tally)
        }
    }

    /// Matches the keywords in cue `cueIndex`'s `text` (its runs' text, `\n`
    /// for each line break), cut into `words`, from word `start`; its runs
    /// are outlined in `runs`. The emphasis goes to `tally.ranges`.
    private static func emphasise(_ text: UnsafeBufferPointer<UInt8>, words: [Range<Int>], from start: Int, cue cueIndex: Int,
                                  runs: UnsafeBufferPointer<RunOutline>, _ matcher: KeywordMatcher,
                                  _ scratch: inout KeywordMatcher.Scratch, _ tally: inout Tally) {
        // Speaker labels, descriptions and credits are never emphasised: the parts of the lines
        // a match lies in (`CueLineParts` finds them line by line), made once a match is found there.
        var partsLines = 0..<0
        var parts: [CueLineParts.Part] = []
        matcher.forEachMatch(in: text, words: words, from: start, scratch: &scratch,
                             accept: { range in
                                 guard liesInPlainText(range, runs) else { return false }
                                 if range.lowerBound < partsLines.lowerBound || range.upperBound > partsLines.upperBound || partsLines.isEmpty {
                                     partsLines = lines(around: range, text)
                                     parts = CueLineParts.parts(in: UnsafeBufferPointer(rebasing: text[partsLines]))
                                 }
                                 let inLines = range.lowerBound - partsLines.lowerBound..<range.upperBound - partsLines.lowerBound
                                 return !parts.contains { $0.range.overlaps(inLines) }
                             }) { keyword, range in
            guard tally.selection.keeps(keyword: keyword, cue: cueIndex) else {
                tally.left[keyword] += 1
                return true
            }
            tally.counts[keyword] += 1
            appendParts(of: range, runs, text, to: &tally.ranges)
            return true
        }
    }

    /// The whole lines of `text` (cut at `\n`) that `range` lies in, without
    /// the line breaks before and after them.
    static func lines(around range: Range<Int>, _ text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = min(range.lowerBound, text.count)
        while lower > 0, text[lower - 1] != 0x0A { lower -= 1 }
        var upper = max(range.upperBound, lower)
        while upper < text.count, text[upper] != 0x0A { upper += 1 }
        return lower..<upper
    }

    /// Whether `p` holds a `&` (eight bytes at a time).
    private static func holdsAmpersand(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if let base = p.baseAddress {
            while i + 8 <= p.count {
                if SRTReader.equal(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self), 0x2626_2626_2626_2626) != 0 { return true }
                i += 8
            }
        }
        while i < p.count {
            if p[i] == 0x26 { return true }
            i += 1
        }
        return false
    }

    /// Whether the bytes `range` of a cue's text lie in text runs that are not
    /// bold (line breaks between them allowed) and no markup stands inside it.
    private static func liesInPlainText(_ range: Range<Int>, _ outlines: UnsafeBufferPointer<RunOutline>) -> Bool {
        for run in outlines {
            if run.source.lowerBound >= range.upperBound { break }
            switch run.kind {
            case .markup:
                if run.source.lowerBound > range.lowerBound { return false }
            case .text:
                if run.source.upperBound > range.lowerBound && run.style.contains(.bold) { return false }
            case .lineBreak:
                break
            }
        }
        return true
    }

    /// Appends the part of `range` in each text run it covers, as a range in
    /// that run's own text; where a run's edge cuts the match (a line break
    /// inside it), white space at that end of the part is left out.
    private static func appendParts(of range: Range<Int>, _ outlines: UnsafeBufferPointer<RunOutline>, _ text: UnsafeBufferPointer<UInt8>,
                                    to ranges: inout [CueEdit.RunRange]) {
        for index in outlines.indices where outlines[index].kind == .text {
            let run = outlines[index]
            if run.source.lowerBound >= range.upperBound { break }
            let lower = max(range.lowerBound, run.source.lowerBound), upper = min(range.upperBound, run.source.upperBound)
            guard lower < upper else { continue }
            // A match starts and ends with a word: only an end cut by the run can be white space.
            let part = lower == range.lowerBound && upper == range.upperBound
                ? lower..<upper : KeywordMatcher.trimmingWhiteSpace(text, lower..<upper)
            guard !part.isEmpty else { continue }
            ranges.append(CueEdit.RunRange(run: index, utf8: part.lowerBound - run.source.lowerBound..<part.upperBound - run.source.lowerBound))
        }
    }
}
