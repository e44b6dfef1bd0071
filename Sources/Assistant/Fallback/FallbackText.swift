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
        /// The word as written.
        var form: String
        /// The word in lower case (`String.lowercased()`).
        var lower: String
        /// Its length in `Character`s.
        var characters: Int
        /// Whether one of its `Character`s is a letter.
        var hasLetter: Bool
        /// Whether every scalar is hiragana (Japanese particles and endings).
        var allHiragana: Bool
        /// Whether it is a content word (`LocalFallback.isContent`), once the stop words are known.
        var isContent = false
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
    private let scanner = WordScanner()

    /// Cuts `transcript` into lines (at every `Character` that is a newline,
    /// empty lines left out, as `split(whereSeparator: \.isNewline)` does)
    /// and each line into words (`WordScanner`).
    init(_ transcript: String) {
        var source = transcript
        source.makeContiguousUTF8()
        var joined: [UInt8] = []
        var lines: [Range<Int>] = []
        _ = source.utf8.withContiguousStorageIfAvailable { p in
            joined.reserveCapacity(p.count)
            var start = 0, i = 0
            func endLine(_ end: Int) {
                guard end > start else { return }
                if !lines.isEmpty { joined.append(0x20) }
                let at = joined.count
                joined.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<end]))
                lines.append(at..<joined.count)
            }
            while i < p.count {
                // Newline scalars are `Character`s of their own (CR LF one of two): LF, VT, FF, CR, NEL, LS, PS.
                let length = Self.newlineLength(p, i)
                if length > 0 {
                    endLine(i)
                    i += length
                    start = i
                } else {
                    i += 1
                }
            }
            endLine(p.count)
        }
        text = String(decoding: joined, as: UTF8.self)
        bytes = joined
        self.lines = lines
        words = []
        var starts: [Int] = []
        starts.reserveCapacity(lines.count + 1)
        for line in lines {
            starts.append(words.count)
            for r in scan(line) { words.append(makeWord(r)) }
        }
        starts.append(words.count)
        lineStarts = starts
        lineWordCount = words.count
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
    func substring(_ range: Range<Int>) -> Substring {
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return text[lower..<utf8.index(lower, offsetBy: range.count)]
    }

    /// Whether the bytes at `range` are all ASCII.
    func isASCII(_ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { p in !p[range].contains { $0 >= 0x80 } }
    }

    /// The facts of the word at `range`.
    private func makeWord(_ range: Range<Int>) -> Word {
        if isASCII(range) {
            return bytes.withUnsafeBufferPointer { p in
                let word = UnsafeBufferPointer(rebasing: p[range])
                return Word(range: range, form: String(decoding: word, as: UTF8.self),
                            lower: String(decoding: word.lazy.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self),
                            characters: range.count, hasLetter: word.contains { ($0 | 0x20) &- 0x61 < 26 }, allHiragana: false)
            }
        }
        let word = substring(range)
        return Word(range: range, form: String(word), lower: word.lowercased(), characters: word.count,
                    hasLetter: word.contains(where: \.isLetter),
                    allHiragana: word.unicodeScalars.allSatisfy { (0x3040...0x309F).contains($0.value) })
    }

    /// Marks the content words, for the transcript's stop words.
    mutating func markContent(stop: Set<String>) {
        for i in words.indices { words[i].isContent = LocalFallback.isContent(words[i], stop: stop) }
    }

    /// The words of the bytes at `range` of `text` cut on their own (as a
    /// piece of text is), as indices into `words`: a line's word where one
    /// starts and ends at the same bytes, else a word added for it.
    mutating func words(in range: Range<Int>, stop: Set<String>) -> [Int] {
        scan(range).map { r in
            if let index = lineWord(startingAt: r.lowerBound), words[index].range == r { return index }
            var word = makeWord(r)
            word.isContent = LocalFallback.isContent(word, stop: stop)
            words.append(word)
            return words.count - 1
        }
    }

    /// The index of the line word that starts at byte `offset` of `text`, if
    /// one does: the lines' words are in the order of their bytes, so a binary search finds it.
    func lineWord(startingAt offset: Int) -> Int? {
        var low = 0, high = lineWordCount
        while low < high {
            let middle = (low + high) / 2
            if words[middle].range.lowerBound < offset { low = middle + 1 } else { high = middle }
        }
        return low < lineWordCount && words[low].range.lowerBound == offset ? low : nil
    }

    /// The indices in `words` of line `line`'s words: what `words(in:)` gives
    /// for the line's bytes, which the same scanner cut in the same way.
    func lineWords(_ line: Int) -> [Int] { Array(lineStarts[line]..<lineStarts[line + 1]) }

    /// The lower case of the words at `indices` (into `words`), one space
    /// between them: how titles and lines are compared (`LocalFallback.normalised`).
    func key<Indices: Collection<Int>>(_ indices: Indices) -> String {
        var key = ""
        key.reserveCapacity(indices.reduce(0) { $0 + words[$1].lower.utf8.count + 1 })
        for (n, index) in indices.enumerated() {
            if n > 0 { key.append(" ") }
            key.append(words[index].lower)
        }
        return key
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
