import Words

/// A transcript as the local fallback reads it (`LocalFallback`): its lines
/// joined with spaces into one text (its UTF-8 bytes kept beside it), every
/// line's words, and the facts about each word the fallback asks (its lower
/// case, its length, whether it is a content word), each found once.
///
/// The fallback asks the same questions of one word many times: in the
/// language count, the word counts, every sentence, clause and line it
/// stands in, and the titles made of them. Asked of `Substring`s, each was
/// a `Character` walk and a new string; here each is a look-up, and ASCII
/// text is read as bytes with no `Character` work (a byte below 0x80 is a
/// `Character` on its own, except CR LF, which the lines never hold).
/// Non-ASCII text is asked through the standard library, as before, so
/// the answers are exactly `Character`'s.
struct FallbackText {
    /// What the fallback asks of one word.
    struct Word {
        /// The word's bytes in `FallbackText.text`.
        var range: Range<Int>
        /// The word in lower case (`String.lowercased()`), as its number in
        /// `FallbackText.lowers`: words with the same lower case have the same one.
        var lower: Int32
        /// Its length in `Character`s.
        var characters: Int32
        /// Whether one of its `Character`s is a letter.
        var hasLetter: Bool
        /// Whether every scalar is hiragana (Japanese particles and endings).
        var allHiragana: Bool
        /// Whether it is written in lower case (its form is its lower case).
        var formIsLower: Bool
        /// Whether it is a content word (`LocalFallback.isContent`), once the stop words are known.
        var isContent = false
        /// For a line word after the first: whether the bytes from the end of
        /// the line word before it to its own end are all ASCII (so as many
        /// `Character`s as bytes: the lines hold no CR LF).
        var asciiSincePrevious = false
    }

    /// The transcript's lines (not empty), joined with single spaces.
    let text: String
    /// `text`'s UTF-8.
    let bytes: [UInt8]
    /// Each line's bytes in `text`.
    let lines: [Range<Int>]
    /// Every line's words in order (each line cut on its own, as the fallback
    /// always cut them), then any word a piece of text was found to have that
    /// no line scan gave (`words(in:)`).
    private(set) var words: [Word]
    /// How many of `words` are the lines' words.
    private(set) var lineWordCount = 0
    /// The index in `words` where each line's words start, and one past the last.
    private(set) var lineStarts: [Int] = []
    /// The words' distinct lower cases (`Word.lower`).
    private(set) var lowers: LowerCaseTable
    /// 0, 1, 2, … for each line word: a run of line words as an `ArraySlice` of it, with no array made.
    private var lineWordIndices: [Int] = []
    /// Where each line word starts in `text` (`words[i].range.lowerBound`),
    /// packed for the binary search; empty for a text of 2 GiB or more (then `words` are searched).
    private var lineWordStarts: [Int32] = []
    /// For each line, how many lines before it needed ICU's word iterator
    /// (`WordScanner.lastScanWasSimple`), and the total after the last.
    private var complexLinesBefore: [Int] = []
    /// The start and the end of the last piece `lineWordRun` was asked
    /// about, each with the first line word at or after it.
    private var lastStart = (offset: -1, word: 0)
    private var lastEnd = (offset: -1, word: 0)
    /// The stop words `markContent` was given, and whether each lower case is one (-1: not asked yet).
    private var stop: Set<String> = []
    private var isStop: [Int8] = []
    /// Each lower case's `LocalFallback.stopWordLanguages` (-1: not looked up
    /// yet), by number: an ASCII word's found when it is first read, by its bytes.
    private var languageBits: [Int16] = []
    private let scanner = WordScanner()
    /// `LocalFallback.asciiStopWords`, read once (a static's every read checks that it was made).
    private let stopWordTable = LocalFallback.asciiStopWords

    /// Cuts `transcript` into lines (at every `Character` that is a newline,
    /// empty lines left out, as `split(whereSeparator: \.isNewline)` does)
    /// and each line into words (`WordScanner`).
    init(_ transcript: String) {
        var source = transcript
        source.makeContiguousUTF8()
        let (joined, lines) = source.utf8.withContiguousStorageIfAvailable(Self.joinedLines) ?? ([], [])
        text = String(decoding: joined, as: UTF8.self)
        bytes = joined
        self.lines = lines
        words = []
        // About one word in five bytes of captions (a long text grows its array as it goes).
        words.reserveCapacity(min(joined.count / 4 + 16, 16_384))
        var starts: [Int] = []
        starts.reserveCapacity(lines.count + 1)
        var complex: [Int] = [0]
        complex.reserveCapacity(lines.count + 1)
        // About one distinct word in ten bytes of a transcript's start: the table seldom grows.
        lowers = LowerCaseTable(capacity: joined.count / 10)
        for line in lines {
            starts.append(words.count)
            bytes.withUnsafeBufferPointer { p in scanner.scan(UnsafeBufferPointer(rebasing: p[line])) }
            complex.append(complex[complex.count - 1] + (scanner.lastScanWasSimple ? 0 : 1))
            appendWords(ofLine: line)
        }
        starts.append(words.count)
        lineStarts = starts
        lineWordCount = words.count
        lineWordIndices = Array(0..<words.count)
        if joined.count <= Int(Int32.max) { lineWordStarts = words.map { Int32(truncatingIfNeeded: $0.range.lowerBound) } }
        complexLinesBefore = complex
    }

    /// Appends the words the scanner cut of `line` (`makeWord`), each with its
    /// `asciiSincePrevious`. (A method of its own: in `init` the word loop did not inline `makeWord`.)
    private mutating func appendWords(ofLine line: Range<Int>) {
        // In a line all ASCII, the bytes between two of its words are.
        let lineIsASCII = isASCII(line)
        for (k, r) in scanner.words.enumerated() {
            var word = makeWord((r.lowerBound + line.lowerBound)..<(r.upperBound + line.lowerBound))
            // An ASCII word (as many bytes as `Character`s) after ASCII bytes since the word before it.
            if let previous = words.last?.range, Int(word.characters) == word.range.count {
                word.asciiSincePrevious = (k > 0 && lineIsASCII) || isASCII(previous.upperBound..<word.range.lowerBound)
            }
            words.append(word)
        }
    }

    /// How often each of `matcher`'s phrases occurs in the transcript as
    /// whole words, and the index of the word its first occurrence starts at
    /// (`WholeWords.occurrences(of:in:)` of `transcript`, this text's source).
    ///
    /// When every line was cut by the simple path, the transcript's words are
    /// the lines' words (a line break ends a word, as the end of a line does),
    /// and this text differs from it only in its white space between lines
    /// (one space for each run of line breaks, empty lines left out), which a
    /// phrase's separator compares as one space: the lines' words are
    /// matched in this text, with no second scan.
    func occurrences(of matcher: KeywordMatcher, transcript: String) -> [(count: Int, firstWord: Int?)] {
        guard complexLinesBefore[lines.count] == 0 else { return WholeWords.occurrences(of: matcher, in: transcript) }
        let ranges = words.prefix(lineWordCount).map(\.range)
        return bytes.withUnsafeBufferPointer { WholeWords.occurrences(of: matcher, in: $0, words: ranges) }
    }

    /// The lines of the UTF-8 text `p` (at every newline scalar, empty
    /// lines left out) joined with single spaces, and each line's bytes in
    /// the joined text. (Its state is passed in and out, not captured by a
    /// nested function: captured variables are checked for exclusive access
    /// as the program runs.)
    static func joinedLines(_ p: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8], lines: [Range<Int>]) {
        var joined: [UInt8] = []
        var lines: [Range<Int>] = []
        joined.reserveCapacity(p.count)
        func endLine(_ start: Int, _ end: Int, _ joined: inout [UInt8], _ lines: inout [Range<Int>]) {
            guard end > start else { return }
            if !lines.isEmpty { joined.append(0x20) }
            let at = joined.count
            joined.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<end]))
            lines.append(at..<joined.count)
        }
        var start = 0, i = 0
        while i < p.count {
            // Eight ASCII bytes none of which is below 0x0E: no newline starts among them.
            if i + 8 <= p.count, let base = p.baseAddress {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if (w | (w &- 0x0E0E_0E0E_0E0E_0E0E)) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            // Newline scalars are `Character`s of their own (CR LF one of two): LF, VT, FF, CR, NEL, LS, PS.
            let length = newlineLength(p, i)
            if length > 0 {
                endLine(start, i, &joined, &lines)
                i += length
                start = i
            } else {
                i += 1
            }
        }
        endLine(start, p.count, &joined, &lines)
        return (joined, lines)
    }

    /// The UTF-8 length of the newline scalar at `i`, or 0.
    @inline(__always)
    static func newlineLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let b = p[i]
        if b < 0x80 { return b &- 0x0A < 4 ? 1 : 0 }
        if b == 0xC2 { return i + 1 < p.count && p[i + 1] == 0x85 ? 2 : 0 }
        if b == 0xE2 { return i + 2 < p.count && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9) ? 3 : 0 }
        return 0
    }

    /// The words of the bytes at `range` of `text`, cut on their own, as byte ranges of `text`.
    private func scan(_ range: Range<Int>) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { p in
            scanner.scan(UnsafeBufferPointer(rebasing: p[range]))
            return scanner.words.map { ($0.lowerBound + range.lowerBound)..<($0.upperBound + range.lowerBound) }
        }
    }

    /// `text` from byte `range.lowerBound` to `range.upperBound` (both on scalar boundaries).
    func substring(_ range: Range<Int>) -> Substring { Self.substring(text, range) }

    /// `text` from byte `range.lowerBound` to `range.upperBound` (both on scalar boundaries).
    static func substring(_ text: String, _ range: Range<Int>) -> Substring {
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return text[lower..<utf8.index(lower, offsetBy: range.count)]
    }

    /// Whether the bytes at `range` are all ASCII (eight at a time, then one at a time).
    func isASCII(_ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return true }
            var i = range.lowerBound
            while i + 8 <= range.upperBound {
                if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                i += 8
            }
            return !p[i..<range.upperBound].contains { $0 >= 0x80 }
        }
    }

    /// The facts of the word at `range`, its lower case numbered (`lowers`).
    /// An ASCII word is read once, its bytes lowered as they are hashed and compared.
    @inline(__always)
    private mutating func makeWord(_ range: Range<Int>) -> Word {
        // Most words: eight bytes or fewer, read with one load (`shortASCII`).
        if range.count <= 8, range.lowerBound + 8 <= bytes.count,
           let short = bytes.withUnsafeBufferPointer({ p in
               p.baseAddress.flatMap { Self.shortASCII(UnsafeRawPointer($0 + range.lowerBound).loadUnaligned(as: UInt64.self), count: range.count) }
           }) {
            let lower = lowers.number(ofShortPacked: short.packed, count: range.count)
            // A new lower case: its stop-word languages from its bytes, as it is read.
            if Int(lower) == languageBits.count { languageBits.append(Int16(stopWordTable.value(ofShortPacked: short.packed) ?? 0)) }
            return Word(range: range, lower: lower, characters: Int32(range.count), hasLetter: short.hasLetter,
                        allHiragana: false, formIsLower: !short.hasCapital)
        }
        let ascii = bytes.withUnsafeBufferPointer { p -> (hash: UInt64, hasLetter: Bool, hasCapital: Bool)? in
            var hash = LowerCaseTable.hashStart
            var hasLetter = false, hasCapital = false
            for i in range {
                let b = p[i]
                if b >= 0x80 { return nil }
                let capital = b &- 0x41 < 26
                hasCapital = hasCapital || capital
                hasLetter = hasLetter || capital || b &- 0x61 < 26
                hash = LowerCaseTable.hash(hash, capital ? b | 0x20 : b)
            }
            return (hash, hasLetter, hasCapital)
        }
        if let ascii {
            let lower = bytes.withUnsafeBufferPointer { p in
                let word = UnsafeBufferPointer(rebasing: p[range])
                let n = lowers.number(ofASCII: word, lowered: ascii.hash)
                // A new lower case: its stop-word languages from its bytes, as it is read.
                if Int(n) == languageBits.count {
                    languageBits.append(Int16(LocalFallback.stopWordLanguages(ofASCII: word, lowered: ascii.hash, in: stopWordTable)))
                }
                return n
            }
            return Word(range: range, lower: lower, characters: Int32(range.count), hasLetter: ascii.hasLetter,
                        allHiragana: false, formIsLower: !ascii.hasCapital)
        }
        let word = substring(range)
        let lowerCase = word.lowercased()
        let n = lowers.number(of: lowerCase)
        // Looked up when first asked (`stopWordLanguages(_:)`).
        if Int(n) == languageBits.count { languageBits.append(-1) }
        return Word(range: range, lower: n, characters: Int32(word.count),
                    hasLetter: word.contains(where: \.isLetter),
                    allHiragana: word.unicodeScalars.allSatisfy { (0x3040...0x309F).contains($0.value) },
                    formIsLower: lowerCase == word)
    }

    /// The facts `makeWord` needs of an ASCII word of `count` bytes (one to
    /// eight), the first `count` bytes of `w` (read little-endian; the bytes
    /// after them are ignored), found for all its bytes at once: nil when one
    /// is not ASCII; else its bytes lowered and packed as
    /// `LowerCaseTable.packedLowered` packs them, whether one is an ASCII
    /// letter and whether one is a capital (A–Z).
    @inline(__always)
    static func shortASCII(_ w: UInt64, count: Int) -> (packed: UInt64, hasLetter: Bool, hasCapital: Bool)? {
        let high: UInt64 = 0x8080_8080_8080_8080
        let shift = UInt64(8 * count)
        // The word's bytes, then a byte 0x80 when they are fewer than eight, then zero bytes.
        let bytes = count >= 8 ? UInt64(littleEndian: w) : UInt64(littleEndian: w) & ((1 << shift) &- 1)
        guard bytes & high == 0 else { return nil }
        let x = count >= 8 ? bytes : bytes | (0x80 << shift)
        // 0x80 itself (the mark after a short word) is neither a capital nor, lowered, a letter.
        let (lowered, capitals) = LowerCaseTable.lowered(packed: x)
        return (lowered, LowerCaseTable.letters(packed: x) != 0, capitals != 0)
    }

    /// The lower case of `word` (`String.lowercased()`), or the first one
    /// seen of the `String`s equal to it (`LowerCaseTable`).
    func lower(_ word: Word) -> String { lowers.strings[Int(word.lower)] }

    /// `word` as written.
    func form(_ word: Word) -> String { String(substring(word.range)) }

    /// Adds to `hits` (one count for each of `LocalFallback.languages`) how
    /// many of the lines' words are stop words of each language: each lower
    /// case is looked up once (`LocalFallback.stopWordLanguages`).
    mutating func countStopWords(into hits: inout [Int]) {
        var occurrences = [Int](repeating: 0, count: lowers.count)
        let lineWords = lineWordCount
        occurrences.withUnsafeMutableBufferPointer { occurrences in
            words.withUnsafeBufferPointer { words in
                for i in 0..<lineWords { occurrences[Int(words[i].lower)] += 1 }
            }
        }
        for n in occurrences.indices where occurrences[n] > 0 {
            let bits = stopWordLanguages(n)
            if bits != 0 { LocalFallback.count(bits, times: occurrences[n], into: &hits) }
        }
    }

    /// The languages whose stop word lower case number `n` is
    /// (`LocalFallback.stopWordLanguages`), looked up once: most are known
    /// (an ASCII word's, found as it was read), the others looked up by `lookUpStopWordLanguages`.
    @inline(__always)
    private mutating func stopWordLanguages(_ n: Int) -> UInt8 {
        if n < languageBits.count, languageBits[n] >= 0 { return UInt8(truncatingIfNeeded: languageBits[n]) }
        return lookUpStopWordLanguages(n)
    }

    /// `stopWordLanguages(_:)` of a lower case not looked up yet.
    @inline(never)
    private mutating func lookUpStopWordLanguages(_ n: Int) -> UInt8 {
        if n >= languageBits.count { languageBits += [Int16](repeating: -1, count: lowers.count - languageBits.count) }
        if languageBits[n] < 0 { languageBits[n] = Int16(LocalFallback.stopWordLanguages[lowers.strings[n]] ?? 0) }
        return UInt8(languageBits[n])
    }

    /// Marks the content words, for the transcript's stop words: each lower case is looked up once.
    mutating func markContent(stop: Set<String>) {
        self.stop = stop
        isStop = [Int8](repeating: -1, count: lowers.count)
        for i in words.indices { words[i].isContent = isContent(words[i]) }
    }

    /// Marks the content words for the stop words of `language` (`StopWords.of`,
    /// else every list's): each lower case's are its languages' bits
    /// (`stopWordLanguages`, which the language count looked up already).
    mutating func markContent(stopWordsOf language: String) {
        let stop = StopWords.of(language) ?? StopWords.all
        guard let mask = LocalFallback.stopWordMask(language) else { return markContent(stop: stop) }
        self.stop = stop
        isStop = [Int8](repeating: -1, count: lowers.count)
        for n in isStop.indices { isStop[n] = stopWordLanguages(n) & mask != 0 ? 1 : 0 }
        markContentWords()
    }

    /// Marks every word (`isContent(_:)`) once each lower case's `isStop` is
    /// known, the words read as one buffer; a word the rule asks about as
    /// written (not in lower case, in a script of three bytes or more a
    /// character) is marked after, by `isContent(_:)` itself.
    private mutating func markContentWords() {
        var asWritten: [Int] = []
        let isStop = self.isStop
        words.withUnsafeMutableBufferPointer { words in
            for i in words.indices {
                let word = words[i]
                var asks = false
                words[i].isContent = LocalFallback.isContent(word) { written in
                    if written && !word.formIsLower {
                        asks = true
                        return true
                    }
                    return isStop[Int(word.lower)] == 1
                }
                if asks { asWritten.append(i) }
            }
        }
        for i in asWritten { words[i].isContent = isContent(words[i]) }
    }

    /// Whether `word` is a content word (`LocalFallback.isContent`) for the stop words `markContent` was given.
    private mutating func isContent(_ word: Word) -> Bool {
        LocalFallback.isContent(word) { asWritten in
            if asWritten && !word.formIsLower { return stop.contains(form(word)) }
            let n = Int(word.lower)
            if n >= isStop.count { isStop += [Int8](repeating: -1, count: n + 1 - isStop.count) }
            if isStop[n] < 0 { isStop[n] = stop.contains(lowers.strings[n]) ? 1 : 0 }
            return isStop[n] == 1
        }
    }

    /// The words of the bytes at `range` of `text` cut on their own (as a
    /// piece of text is), as indices into `words`: a line's word where one
    /// starts and ends at the same bytes, else a word added for it (its
    /// content mark from the stop words `markContent` was given).
    ///
    /// Where the lines under `range` were cut by the simple path and no line
    /// word reaches across its ends, its words are the line words inside it,
    /// found with no scan: the simple path's words depend on nothing beyond
    /// the unit after them, its state between words is only where it stands,
    /// and `range` starts where the lines' scan stands between words (after a
    /// character that no word holds at its end, as sentence and clause ends are).
    mutating func words(in range: Range<Int>) -> ArraySlice<Int> {
        if let run = lineWordRun(range) {
            assert(Array(lineWordIndices[run]) == scannedWords(in: range), "the line words inside \(range) are not its words")
            return lineWordIndices[run]
        }
        return scannedWords(in: range)[...]
    }

    /// `words(in:)` by scanning the bytes at `range`.
    private mutating func scannedWords(in range: Range<Int>) -> [Int] {
        scan(range).map { r in
            if let index = lineWord(startingAt: r.lowerBound), words[index].range == r { return index }
            var word = makeWord(r)
            word.isContent = isContent(word)
            words.append(word)
            return words.count - 1
        }
    }

    /// The line words inside `range` (indices into `words`), when they are
    /// `range`'s words for sure (`words(in:)`): every line under it cut by the
    /// simple path, no line word crossing its ends.
    private mutating func lineWordRun(_ range: Range<Int>) -> Range<Int>? {
        guard !range.isEmpty else { return nil }
        if complexLinesBefore[lines.count] > 0 {
            let first = line(at: range.lowerBound), last = line(at: range.upperBound - 1)
            guard complexLinesBefore[last + 1] == complexLinesBefore[first] else { return nil }
        }
        // A piece often starts where the one before it ended (sentences, clauses) or started (a
        // sentence's first clause): those words are kept.
        // Else each is walked to from the last end's word: pieces are asked in text order (a sentence, then
        // its clauses), each a few words from the last, so the walks add up to a few times the text's words.
        let low = range.lowerBound == lastEnd.offset ? lastEnd.word
            : range.lowerBound == lastStart.offset ? lastStart.word : lineWord(startingAtOrAfter: range.lowerBound, from: lastEnd.word)
        let high = lineWord(startingAtOrAfter: range.upperBound, from: low)
        lastStart = (range.lowerBound, low)
        lastEnd = (range.upperBound, high)
        guard low == 0 || words[low - 1].range.upperBound <= range.lowerBound,
              high == 0 || words[high - 1].range.upperBound <= range.upperBound else { return nil }
        return low..<max(low, high)
    }

    /// The line whose bytes (or the space after them) hold byte `offset` of `text`.
    private func line(at offset: Int) -> Int {
        var low = 0, high = lines.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if lines[middle].lowerBound <= offset { low = middle } else { high = middle }
        }
        return low
    }

    /// `lineWord(startingAtOrAfter: offset)`, walked to from line word `hint`
    /// (at most `lineWordCount`): one step a word between them.
    private func lineWord(startingAtOrAfter offset: Int, from hint: Int) -> Int {
        guard lineWordStarts.count == lineWordCount, hint <= lineWordCount else { return lineWord(startingAtOrAfter: offset) }
        return lineWordStarts.withUnsafeBufferPointer { starts in
            var k = hint
            while k < starts.count, Int(starts[k]) < offset { k += 1 }
            while k > 0, Int(starts[k - 1]) >= offset { k -= 1 }
            return k
        }
    }

    /// The first line word that starts at or after byte `offset` (`lineWordCount` when none does).
    private func lineWord(startingAtOrAfter offset: Int) -> Int {
        guard lineWordStarts.count == lineWordCount else {
            var low = 0, high = lineWordCount
            while low < high {
                let middle = (low + high) / 2
                if words[middle].range.lowerBound < offset { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return lineWordStarts.withUnsafeBufferPointer { starts in
            // Halving a window of `count` words that starts at `low` (no early exit: few branches to mispredict).
            var low = 0, count = starts.count
            while count > 0 {
                let half = count / 2
                if Int(starts[low + half]) < offset {
                    low += half + 1
                    count -= half + 1
                } else {
                    count = half
                }
            }
            return low
        }
    }

    /// The index of the line word that starts at byte `offset` of `text`, if
    /// one does: the lines' words are in the order of their bytes, so a binary search finds it.
    func lineWord(startingAt offset: Int) -> Int? {
        let low = lineWord(startingAtOrAfter: offset)
        return low < lineWordCount && words[low].range.lowerBound == offset ? low : nil
    }

    /// The indices in `words` of line `line`'s words: what `words(in:)` gives
    /// for the line's bytes, which the same scanner cut in the same way.
    func lineWords(_ line: Int) -> ArraySlice<Int> { lineWordIndices[lineStarts[line]..<lineStarts[line + 1]] }

    /// The lower case of the words at `indices` (into `words`), one space
    /// between them: how titles and lines are compared (`LocalFallback.normalised`).
    func key<Indices: Collection<Int>>(_ indices: Indices) -> String {
        // Made as bytes, then one `String` (appending each word to a `String` cost more than the rest).
        var key: [UInt8] = []
        key.reserveCapacity(indices.reduce(0) { $0 + lower(words[$1]).utf8.count + 1 })
        for (n, index) in indices.enumerated() {
            if n > 0 { key.append(0x20) }
            var lower = lower(words[index])
            lower.withUTF8 { key.append(contentsOf: $0) }
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// How many `Character`s the bytes at `range` hold (on `Character` boundaries).
    func characters(_ range: Range<Int>) -> Int {
        isASCII(range) ? range.count : substring(range).count
    }

    /// Whether the bytes at `range` hold a letter (`Character.isLetter`): an
    /// ASCII letter after an ASCII byte (so the start of a `Character`), else
    /// as the standard library says.
    func hasLetter(_ range: Range<Int>) -> Bool {
        let ascii = bytes.withUnsafeBufferPointer { p -> Bool? in
            var previousASCII = true
            var sawOther = false
            for i in range {
                let b = p[i]
                if b < 0x80 {
                    if previousASCII, (b | 0x20) &- 0x61 < 26 { return true }
                    previousASCII = true
                } else {
                    previousASCII = false
                    sawOther = true
                }
            }
            return sawOther ? nil : false
        }
        return ascii ?? substring(range).contains(where: \.isLetter)
    }
}
