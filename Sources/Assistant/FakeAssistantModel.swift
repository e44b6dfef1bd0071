/// A deterministic model for tests and `-test-fake-assistant`: it never calls anything.
///
/// It records every prompt unless told not to (the command line's fake does
/// not, so memory stays flat over a long batch), and can wait a fixed time
/// before each answer, without holding a thread, to stand in for a slow model.
/// It answers JSON with fixed titles, the emoji 🎬
/// and, as keywords, the two most frequent words of five or more letters in
/// the transcript part of the prompt (compared and returned in lower case, ties
/// broken alphabetically). It is always available.
public struct FakeAssistantModel: AssistantModel, AvailabilityProvider {
    /// The backend name used in reports.
    public static let backendName = "fake"
    /// The three titles the fake always suggests.
    public static let titles = ["Highlights from the captions", "What this video covers", "The story in brief"]
    /// The emoji the fake always suggests.
    public static let emoji = "🎬"

    /// The answer after its keywords (the fixed titles and emoji), written once.
    static let answerTail = AnswerJSON.tail(titles: titles, emoji: emoji)

    /// The prompts received, in order (empty when `recordsPrompts` is false).
    public let log = PromptLog()
    /// Whether each prompt is kept in `log`.
    public let recordsPrompts: Bool
    /// How long each answer takes (`Task.sleep`, so no thread is held while waiting).
    public let delay: Duration

    /// Creates a fake with an empty log, recording prompts unless `recordsPrompts`
    /// is false, and answering after `delay`.
    public init(recordsPrompts: Bool = true, delay: Duration = .zero) {
        self.recordsPrompts = recordsPrompts
        self.delay = delay
    }

    /// True when there is no `delay`: the answer is computed at once.
    public var answersWithoutWaiting: Bool { delay <= .zero }

    /// Every prompt received so far.
    public var prompts: [String] { log.prompts }

    /// Records the prompt, waits `delay`, and answers JSON built from its transcript part.
    public func respond(to prompt: String) async throws -> String {
        if recordsPrompts { log.record(prompt) }
        if delay > .zero { try await Task.sleep(for: delay) }
        // The transcript block is read in place, with no copy of it.
        let keywords = CharacterSteps.withBytes(prompt) { p, text in
            Prompt.transcriptRange(in: p).map { Self.keywords(p, $0, text: text) } ?? []
        }
        return AnswerJSON.encode(keywords: keywords, tail: Self.answerTail)
    }

    /// Always `.available`.
    public func currentAvailability() async -> Availability { .available }

    /// The two most frequent words of five or more letters in `text`, lower-cased, ties broken alphabetically.
    ///
    /// A word is a run of letters (any script); digits, apostrophes and
    /// punctuation separate words. Letters and word lengths are counted in
    /// `Character`s; the text is walked by UTF-8 offset, ASCII byte by byte
    /// (`CharacterSteps`), and only non-ASCII characters are looked at as
    /// `Character`s. All-ASCII words are counted in a table keyed by their
    /// bytes, the others in a `String` dictionary (so canonically equivalent
    /// spellings count as one word, as `String` equality says). A word whose
    /// lower case is ASCII goes to the table (the Kelvin sign becomes "k");
    /// the two never share a key, because no lower-cased word with a non-ASCII
    /// character is canonically equivalent to an ASCII one.
    public static func keywords(in text: String) -> [String] {
        CharacterSteps.withBytes(text) { p, text in keywords(p, 0..<p.count, text: text) }
    }

    /// `keywords(in:)` of the text at `range` of `p`, the UTF-8 of `text`.
    /// The range must start and end at `Character` boundaries that a line
    /// feed or the text's ends make (as the prompt's transcript block does).
    static func keywords(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, text: String) -> [String] {
        let ascii = ASCIIWordCounts()
        var others: [String: Int] = [:]
        do {
            let n = range.upperBound
            var i = range.lowerBound
            var wordStart = 0
            var letters = 0
            var allASCII = true
            while i < n {
                // Between words, a stretch of ASCII bytes each followed by an ASCII byte (each
                // one Character; CR and LF are no letters either way) is scanned 64 bytes at a time.
                if letters == 0 {
                    let stop = Self.singleASCIIEnd(p, from: i, to: n)
                    if stop - i >= 32 {
                        // A word still open at the end of the stretch goes on in the loop below.
                        letters = Self.countLetterWords(p, i..<stop, ascii)
                        wordStart = stop &- letters
                        i = stop
                        continue
                    }
                }
                let b = p[i]
                // ASCII followed by ASCII (or the end) is one Character; CR LF is not a letter either way.
                if b < 0x80 && (i + 1 == n || p[i + 1] < 0x80) {
                    if CharacterSteps.isASCIILetter(b) {
                        if letters == 0 { wordStart = i }
                        // The letters after it that are single Characters too.
                        var j = i + 1
                        while j < n, CharacterSteps.isASCIILetter(p[j]), j + 1 == n || p[j + 1] < 0x80 { j += 1 }
                        letters += j - i
                        i = j
                        continue
                    }
                    if letters > 0 {
                        Self.finishWord(p, wordStart..<i, letters: letters, allASCII: allASCII, ascii, &others)
                        letters = 0; allASCII = true
                    }
                    i += 1
                    continue
                }
                // Clamped: a CR at the end of the range would join the line feed after it.
                let end = min(CharacterSteps.end(of: i, in: p, text: text), n)
                let isLetter: Bool
                if CharacterSteps.isSingleASCII(p, i..<end) {
                    isLetter = CharacterSteps.isASCIILetter(b)
                } else {
                    let simple = CharacterSteps.simpleLength(p, i)
                    if simple == end - i {
                        let value = CharacterSteps.simpleScalar(p, i, length: simple)
                        isLetter = CharacterSteps.simpleClass[CharacterSteps.simpleIndex(value)] & CharacterSteps.letterBit != 0
                    } else {
                        isLetter = CharacterSteps.character(p, i..<end).isLetter
                    }
                    if isLetter { allASCII = false }
                }
                if isLetter {
                    if letters == 0 { wordStart = i }
                    letters += 1
                } else if letters > 0 {
                    Self.finishWord(p, wordStart..<i, letters: letters, allASCII: allASCII, ascii, &others)
                    letters = 0; allASCII = true
                }
                i = end
            }
            if letters > 0 { Self.finishWord(p, wordStart..<n, letters: letters, allASCII: allASCII, ascii, &others) }
        }
        // The best two of each kind, then the best two of those four.
        func before(_ a: (key: String, value: Int), _ b: (key: String, value: Int)) -> Bool {
            a.value != b.value ? a.value > b.value : a.key < b.key
        }
        func bestTwo(_ entries: some Sequence<(key: String, value: Int)>) -> [(key: String, value: Int)] {
            var best: [(key: String, value: Int)] = []
            for entry in entries {
                if best.count < 2 {
                    best.append(entry)
                    if best.count == 2 && before(best[1], best[0]) { best.swapAt(0, 1) }
                } else if before(entry, best[1]) {
                    best[1] = entry
                    if before(best[1], best[0]) { best.swapAt(0, 1) }
                }
            }
            return best
        }
        let candidates = ascii.bestTwo().map { (key: $0, value: $1) } + bestTwo(others.lazy.map { (key: $0.key, value: $0.value) })
        return bestTwo(candidates).map(\.key)
    }
}

extension FakeAssistantModel {
    /// Where the stretch from `i` of ASCII bytes each followed by an ASCII byte
    /// (or by `n`) ends: the last ASCII byte before a non-ASCII one is left out.
    fileprivate static func singleASCIIEnd(_ p: UnsafeBufferPointer<UInt8>, from i: Int, to n: Int) -> Int {
        var j = i
        if let base = p.baseAddress {
            while j + 8 <= n, UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { j += 8 }
        }
        while j < n, p[j] < 0x80 { j += 1 }
        return j == n ? n : max(i, j - 1)
    }

    /// Counts the word at `r` (of `letters` letters) when it has five or more.
    fileprivate static func finishWord(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, letters: Int, allASCII: Bool,
                                       _ ascii: ASCIIWordCounts, _ others: inout [String: Int]) {
        guard letters >= 5, let base = p.baseAddress else { return }
        if allASCII {
            ascii.addLetters(base + r.lowerBound, r.count)
        } else {
            // The Kelvin sign lower-cases to an ASCII "k": such a word counts with the ASCII ones.
            // (Letters lower-case to letters; a word that somehow did not stays a `String` key,
            // which no word of the table can equal, so nothing is counted twice.)
            var lower = CharacterSteps.string(p, r).lowercased()
            let table = lower.utf8.count >= 5 && lower.utf8.allSatisfy(CharacterSteps.isASCIILetter)
            if table {
                lower.withUTF8 { u in if let b = u.baseAddress { ascii.addLetters(b, u.count) } }
            } else {
                others[lower, default: 0] += 1
            }
        }
    }

    /// Counts the words of five or more letters in `r`, a stretch of ASCII bytes that
    /// are each one `Character`, 64 bytes at a time from a bit mask of its letters;
    /// returns the length of the run of letters still open at its end.
    static func countLetterWords(_ p: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ ascii: ASCIIWordCounts) -> Int {
        guard let base = p.baseAddress else { return 0 }
        var run = 0
        var j = r.lowerBound
        let stop = r.upperBound
        while j < stop {
            let count = min(64, stop &- j)
            var m = letterMask(base + j, count)
            if run > 0 {
                // The letters that go on with the open run.
                let t = (~m).trailingZeroBitCount
                if t >= count {
                    run &+= count
                    j &+= count
                    continue
                }
                run &+= t
                if run >= 5 { ascii.addLetters(base + (j &+ t &- run), run) }
                run = 0
                m &= UInt64.max &<< t
            }
            // The run of letters that reaches the block's end stays open for the next block.
            let open = (~(m &<< UInt64(64 &- count))).leadingZeroBitCount
            run = open
            if open > 0 { m &= open == count ? 0 : UInt64.max &>> UInt64(64 &- (count &- open)) }
            // Every run left is closed on both sides; those of five or more letters start where
            // five letters in a row start and the byte before is no letter.
            let five = m & (m &>> 1) & (m &>> 2) & (m &>> 3) & (m &>> 4)
            var starts = five & ~(m &<< 1)
            while starts != 0 {
                let s = starts.trailingZeroBitCount
                ascii.addLetters(base + (j &+ s), (~(m &>> UInt64(s))).trailingZeroBitCount)
                starts &= starts &- 1
            }
            j &+= count
        }
        return run
    }

    /// Bit k set where byte k of the `count` (at most 64) ASCII bytes at `q` is an ASCII letter.
    @inline(__always)
    static func letterMask(_ q: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var mask: UInt64 = 0
        var k = 0
        while k &+ 8 <= count {
            let w = UInt64(littleEndian: UnsafeRawPointer(q + k).loadUnaligned(as: UInt64.self))
            // For bytes below 0x80: the high bit of each byte of `low` is set from "a" (lower-cased)
            // up, that of `high` from "{" up; no sum carries into the next byte.
            let y = w | 0x2020_2020_2020_2020
            let low = y &+ 0x1F1F_1F1F_1F1F_1F1F
            let high = y &+ 0x0505_0505_0505_0505
            let bits = low & ~high & 0x8080_8080_8080_8080
            // Gathers the eight high bits into the top byte.
            mask |= (((bits &>> 7) &* 0x0102_0408_1020_4080) &>> 56) &<< UInt64(k)
            k &+= 8
        }
        while k < count {
            if CharacterSteps.isASCIILetter(q[k]) { mask |= 1 &<< UInt64(k) }
            k &+= 1
        }
        return mask
    }
}
