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
        return AnswerJSON.encode(keywords: keywords, titles: Self.titles, emoji: Self.emoji)
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
        var ascii = ASCIIWordCounts()
        var others: [String: Int] = [:]
        // Words of five or more letters found by the branch-free scan, flushed block by block.
        let blockSize = 4096
        let found = UnsafeMutableBufferPointer<(start: Int, length: Int)>.allocate(capacity: blockSize / 6 + 2)
        defer { found.deallocate() }
        do {
            let n = range.upperBound
            var i = range.lowerBound
            var wordStart = 0
            var letters = 0
            var allASCII = true
            while i < n {
                // Between words, a stretch of ASCII bytes each followed by an ASCII byte (each
                // one Character; CR and LF are no letters either way) is scanned without branches.
                if letters == 0 {
                    let stop = Self.singleASCIIEnd(p, from: i, to: n)
                    if stop - i >= 32 {
                        var run = 0
                        while i < stop {
                            let blockEnd = min(stop, i + blockSize)
                            var k = 0
                            for j in i..<blockEnd {
                                let letter = CharacterSteps.isASCIILetter(p[j]) ? 1 : 0
                                // Written every time, kept (k moves on) only when a long enough word ends here.
                                found[k] = (j &- run, run)
                                k &+= (1 &- letter) & (run >= 5 ? 1 : 0)
                                run = (run &+ 1) &* letter
                            }
                            for w in found[0..<k] { ascii.add(UnsafeBufferPointer(rebasing: p[w.start..<w.start + w.length])) }
                            i = blockEnd
                        }
                        // A word still open at the end of the stretch goes on in the loop below.
                        letters = run
                        wordStart = i &- run
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
                        Self.finishWord(p, wordStart..<i, letters: letters, allASCII: allASCII, &ascii, &others)
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
                    Self.finishWord(p, wordStart..<i, letters: letters, allASCII: allASCII, &ascii, &others)
                    letters = 0; allASCII = true
                }
                i = end
            }
            if letters > 0 { Self.finishWord(p, wordStart..<n, letters: letters, allASCII: allASCII, &ascii, &others) }
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
                                       _ ascii: inout ASCIIWordCounts, _ others: inout [String: Int]) {
        guard letters >= 5 else { return }
        if allASCII {
            ascii.add(UnsafeBufferPointer(rebasing: p[r]))
        } else {
            // The Kelvin sign lower-cases to an ASCII "k": such a word counts with the ASCII ones.
            var lower = CharacterSteps.string(p, r).lowercased()
            if lower.utf8.allSatisfy({ $0 < 0x80 }) {
                lower.withUTF8 { ascii.add($0) }
            } else {
                others[lower, default: 0] += 1
            }
        }
    }
}

/// Counts of lower-cased ASCII words, keyed by their bytes (open addressing, FNV-1a).
private struct ASCIIWordCounts {
    private var bytes: [UInt8] = []
    private var words: [(start: Int, length: Int, hash: UInt64, count: Int)] = []
    private var slots = [Int32](repeating: -1, count: 512)

    mutating func add(_ word: UnsafeBufferPointer<UInt8>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in word { hash = (hash ^ UInt64(CharacterSteps.asciiLower(b))) &* 0x0000_0100_0000_01B3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { break }
            let entry = words[index]
            if entry.hash == hash && entry.length == word.count && equal(entry.start, word) {
                words[index].count += 1
                return
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(words.count)
        words.append((bytes.count, word.count, hash, 1))
        for b in word { bytes.append(CharacterSteps.asciiLower(b)) }
        if words.count * 2 > slots.count { grow() }
    }

    private func equal(_ start: Int, _ word: UnsafeBufferPointer<UInt8>) -> Bool {
        for k in 0..<word.count where bytes[start + k] != CharacterSteps.asciiLower(word[k]) { return false }
        return true
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in words.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    /// The two most frequent words, ties broken by their bytes (which for ASCII is `String` order).
    func bestTwo() -> [(String, Int)] {
        func before(_ a: Int, _ b: Int) -> Bool {
            let x = words[a], y = words[b]
            if x.count != y.count { return x.count > y.count }
            return bytes[x.start..<x.start + x.length].lexicographicallyPrecedes(bytes[y.start..<y.start + y.length])
        }
        var best: [Int] = []
        for index in words.indices {
            if best.count < 2 {
                best.append(index)
                if best.count == 2 && before(best[1], best[0]) { best.swapAt(0, 1) }
            } else if before(index, best[1]) {
                best[1] = index
                if before(best[1], best[0]) { best.swapAt(0, 1) }
            }
        }
        return best.map { index in
            let w = words[index]
            return (String(decoding: bytes[w.start..<w.start + w.length], as: UTF8.self), w.count)
        }
    }
}
