#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a cue's text holds besides the words spoken, as SDH and broadcast
/// captions write it: the one place that knows a speaker label, a sound or
/// music description and a credit line from the text proper.
///
/// - **Speaker labels**, at a line's start, after an optional `>>`/`>>>`
///   (CEA-608 speaker and story changes) or a change-of-speaker dash
///   (`-`, `–`, `—`): a name followed by a colon and a space or the line's
///   end. In capitals, up to four words (`MAN:`, `WOMAN 2:`, `DR. NOVAK:`,
///   `JOSÉ :` with the French space before the colon), or, in mixed case,
///   one or two words each starting with a capital (`Sarah:`, `Dr. Smith:`).
///   A mixed-case name is one only when what follows it does not start in
///   lower case (`Listen: the water trickles back` is a sentence). The
///   marks alone (`>> `, `- `) are labels too: they name no one but say
///   that the speaker changes. WebVTT voice spans (`<v Sarah>`) and TTML
///   `ttm:agent` are markup and attributes, never text, so they need no rule.
/// - **Descriptions**: `[…]` anywhere (`[door creaks]`, `I know. [laughs]`);
///   `(…)` only where it is a description by the usual house styles: its
///   letters all capitals (`(LAUGHS)`), or alone on its line (`(sighs)`),
///   since round brackets also hold asides and translations that are text.
/// - **Music marks**: `♪`, `♫`, `♬`. The lyrics between them are text (the
///   sung words are what a music video says); a description of the music is
///   one in brackets (`♪ [tense music] ♪`).
/// - **Credits**: a whole line that holds a web address (`www.…`, `…://`,
///   `name.org`) or a credit phrase (`Subtitles by`, `Downloaded from`,
///   `sous-titres`, `subtítulos`…): the subtitler's, not the video's.
///
/// None of these is emphasised, offered as a keyword or used as title
/// material; the transcript a model reads leaves them out
/// (`CaptionDocument.spokenText`). The same word can be a label and text
/// (`MAN:` and "a wrinkly man"): only the label's occurrence is a part.
///
/// Offsets are UTF-8 offsets into the text given; lines end at `\n`.
///
/// It lives in `Words`, the leaf both `Captions` (emphasis, the transcript)
/// and `Assistant` (the decoder's check that a title is no speaker label)
/// depend on, so that the rule is written once: `Assistant` knows nothing of
/// caption formats and cannot import `Captions`.
public enum CueLineParts {
    /// What a part of a cue's text is.
    public enum Kind: String, Sendable, Hashable {
        /// A speaker's name with its colon, or a speaker-change mark (`>>`, `-`).
        case speakerLabel
        /// A sound description in brackets (`[MUSIC PLAYING]`, `(LAUGHS)`).
        case description
        /// A music mark (`♪`); the lyrics around it are text.
        case music
        /// A line that credits the subtitler or a web site.
        case credit
    }

    /// One part of a cue's text that is not the words spoken.
    public struct Part: Sendable, Hashable {
        /// What the part is.
        public var kind: Kind
        /// Its UTF-8 offsets in the text.
        public var range: Range<Int>

        /// Creates a part.
        public init(kind: Kind, range: Range<Int>) { self.kind = kind; self.range = range }
    }

    /// The parts of `text` (a cue's text, lines separated by `\n`), in order, not overlapping.
    public static func parts(of text: String) -> [Part] {
        var copy = text
        return copy.withUTF8 { parts(in: $0) }
    }

    /// The parts of the UTF-8 `text` (lines separated by `\n`), in order, not overlapping.
    public static func parts(in text: UnsafeBufferPointer<UInt8>) -> [Part] {
        var out: [Part] = []
        var lineStart = 0
        while lineStart <= text.count {
            let lineEnd = lineFeed(from: lineStart, in: text)
            appendParts(ofLine: lineStart..<lineEnd, in: text, to: &out)
            lineStart = lineEnd + 1
        }
        return out
    }

    /// The offset of the first `\n` at or after `from` in `text`, or its end:
    /// eight bytes at a time, the first zero byte of the bytes XOR `\n`
    /// repeated (the zero-byte test may also mark bytes after a zero byte, never one before it).
    @inlinable
    package static func lineFeed(from: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        var i = from
        if let base = text.baseAddress {
            while i + 8 <= text.count {
                let zero = ByteLanes.bytes(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)), equalTo: 0x0A)
                if zero != 0 { return i + zero.trailingZeroBitCount / 8 }
                i += 8
            }
        }
        while i < text.count, text[i] != 0x0A { i += 1 }
        return i
    }

    /// The speaker label at the start of `text` (its name, without the
    /// colon), when it starts with one; nil otherwise.
    public static func leadingSpeakerName(of text: String) -> String? {
        var copy = text
        return copy.withUTF8 { p -> String? in
            var end = p.count
            if let newline = p.firstIndex(of: 0x0A) { end = newline }
            guard let label = speakerLabel(in: 0..<end, of: p), let name = label.name else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: p[name]), as: UTF8.self)
        }
    }

    /// `text` without its parts: what is said, each part replaced by one
    /// space where words stand on both sides, runs of spaces made one, lines
    /// trimmed and lines left empty dropped.
    public static func spokenText(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { p in
            var out: [UInt8] = []
            appendSpokenText(p, parts: parts(in: p), lineBreak: 0x0A, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Appends `text` without `parts` (its own, in order) to `out`: spaces
    /// made single, each line trimmed, `lineBreak` between two lines that
    /// keep some text.
    package static func appendSpokenText(_ text: UnsafeBufferPointer<UInt8>, parts: [Part], lineBreak: UInt8, to out: inout [UInt8]) {
        var next = 0
        var pendingSpace = false
        var pendingBreak = false
        var lineHasText = false
        var anyText = false
        var i = 0
        while i < text.count {
            if next < parts.count, parts[next].range.lowerBound <= i {
                // A part stands like a space between the words around it.
                pendingSpace = lineHasText
                i = max(i, parts[next].range.upperBound)
                next += 1
                continue
            }
            let b = text[i]
            if b == 0x0A {
                pendingBreak = anyText
                pendingSpace = false
                lineHasText = false
            } else if b == 0x20 || b == 0x09 || b == 0x0D {
                pendingSpace = lineHasText
            } else {
                if pendingBreak && !lineHasText {
                    out.append(lineBreak)
                } else if pendingSpace {
                    out.append(0x20)
                }
                pendingSpace = false
                pendingBreak = false
                lineHasText = true
                anyText = true
                out.append(b)
            }
            i += 1
        }
    }

    // MARK: One line

    private static func appendParts(ofLine line: Range<Int>, in p: UnsafeBufferPointer<UInt8>, to out: inout [Part]) {
        guard !line.isEmpty else { return }
        var mayHoldAPart = false
        if isCredit(line, in: p, mayHoldAPart: &mayHoldAPart) {
            out.append(Part(kind: .credit, range: line))
            return
        }
        var from = line.lowerBound
        if let label = speakerLabel(in: line, of: p) {
            out.append(Part(kind: .speakerLabel, range: label.range))
            from = label.range.upperBound
        }
        // No `[`, `(` or 0xE2 in the line (seen by the credit check's pass): no description or music mark.
        guard mayHoldAPart else { return }
        let textStart = skipSpaces(from, line.upperBound, p)
        var i = textStart
        while i < line.upperBound {
            // Eight bytes none of which is `[`, `(` or a music mark's first byte (0xE2): no part starts there.
            if i + 8 <= line.upperBound, let base = p.baseAddress,
               !mayStartAPart(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
                i += 8
                continue
            }
            let b = p[i]
            if b == 0x5B, let close = closing(0x5D, after: i, before: line.upperBound, in: p) {  // [
                out.append(Part(kind: .description, range: i..<close + 1))
                i = close + 1
            } else if b == 0x28, let close = closing(0x29, after: i, before: line.upperBound, in: p),  // (
                      allCapitals(i + 1..<close, p) || (i == textStart && skipSpaces(close + 1, line.upperBound, p) == line.upperBound) {
                out.append(Part(kind: .description, range: i..<close + 1))
                i = close + 1
            } else if let mark = musicMark(at: i, p) {
                out.append(Part(kind: .music, range: i..<mark))
                i = mark
            } else {
                i += 1
            }
        }
    }

    /// Whether one of the eight bytes of `w` is `[`, `(` or 0xE2 (where a
    /// description or a music mark may start): a byte equal to one of them is
    /// a zero byte of `w` XOR that byte repeated, and the test finds any zero byte.
    @inline(__always)
    static func mayStartAPart(_ w: UInt64) -> Bool { partByteMarks(w) != 0 }

    /// Not zero exactly when one of the eight bytes of `w` is `[`, `(` or
    /// 0xE2 (`mayStartAPart`): the zero-byte test's high bits.
    @inline(__always)
    static func partByteMarks(_ w: UInt64) -> UInt64 {
        ByteLanes.bytes(w, equalTo: 0x5B) | ByteLanes.bytes(w, equalTo: 0x28) | ByteLanes.bytes(w, equalTo: 0xE2)
    }

    /// The end of the music mark (`♪` U+266A, `♫` U+266B, `♬` U+266C) at `i`, if one starts there.
    private static func musicMark(at i: Int, _ p: UnsafeBufferPointer<UInt8>) -> Int? {
        guard i + 2 < p.count, p[i] == 0xE2, p[i + 1] == 0x99, (0xAA...0xAC).contains(p[i + 2]) else { return nil }
        return i + 3
    }

    /// The offset of the first `close` byte after `open` before `end`.
    private static func closing(_ close: UInt8, after open: Int, before end: Int, in p: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = open + 1
        while i < end {
            if p[i] == close { return i }
            i += 1
        }
        return nil
    }

    private static func skipSpaces(_ from: Int, _ end: Int, _ p: UnsafeBufferPointer<UInt8>) -> Int {
        var i = from
        while i < end, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0D { i += 1 }
        return i
    }

    /// Whether the letters of `range` are capitals, two or more of them and no lower-case letter.
    private static func allCapitals(_ range: Range<Int>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        var capitals = 0
        for scalar in String(decoding: UnsafeBufferPointer(rebasing: p[range]), as: UTF8.self).unicodeScalars
        where scalar.properties.isAlphabetic {
            if scalar.properties.isLowercase { return false }
            if scalar.properties.isUppercase { capitals += 1 }
        }
        return capitals >= 2
    }

    // MARK: Speaker labels

    /// A speaker label found at a line's start: its whole range (marks,
    /// name, colon, the space after) and the name's range, if it has one.
    struct Label {
        var range: Range<Int>
        var name: Range<Int>?
    }

    /// The label at the start of `line`: a `>>` or dash mark, a name and its colon, or both.
    static func speakerLabel(in line: Range<Int>, of p: UnsafeBufferPointer<UInt8>) -> Label? {
        let start = skipSpaces(line.lowerBound, line.upperBound, p)
        var i = start
        var marked = false
        // >> or >>> (CEA-608), then a change-of-speaker dash.
        if i + 1 < line.upperBound, p[i] == 0x3E, p[i + 1] == 0x3E {
            i += 2
            while i < line.upperBound, p[i] == 0x3E { i += 1 }
            i = skipSpaces(i, line.upperBound, p)
            marked = true
        }
        if let dashEnd = dash(at: i, line.upperBound, p) {
            // "-Word" and "- Word" both mark a change of speaker; "--" or "-5" do not.
            let after = dashEnd < line.upperBound ? p[dashEnd] : 0x20
            if after == 0x20 || after == 0x09 || (after >= 0x41 && after <= 0x5A) || after >= 0xC0 || (after >= 0x61 && after <= 0x7A) {
                i = skipSpaces(dashEnd, line.upperBound, p)
                marked = true
            }
        }
        if let (name, colonEnd) = name(at: i, line.upperBound, p) {
            return Label(range: start..<skipSpaces(colonEnd, line.upperBound, p), name: name)
        }
        return marked ? Label(range: start..<i, name: nil) : nil
    }

    /// The end of a `-`, `–` or `—` at `i`.
    private static func dash(at i: Int, _ end: Int, _ p: UnsafeBufferPointer<UInt8>) -> Int? {
        guard i < end else { return nil }
        if p[i] == 0x2D { return i + 1 < end && p[i + 1] == 0x2D ? nil : i + 1 }
        if i + 3 <= end, p[i] == 0xE2, p[i + 1] == 0x80, p[i + 2] == 0x93 || p[i + 2] == 0x94 {
            return i + 3
        }
        return nil
    }

    /// The most words a name in capitals has; a mixed-case one has at most two.
    static let maximumNameWords = 4
    /// The most `Character`s a name has.
    static let maximumNameLength = 32

    /// A speaker's name and colon at `i`: the name's range and the colon's end.
    private static func name(at i: Int, _ end: Int, _ p: UnsafeBufferPointer<UInt8>) -> (Range<Int>, Int)? {
        // Find the colon that ends the name within reach, on this line (else stop at the reach).
        let reach = min(end, i + maximumNameLength * 4 + 1)
        var colon = reach
        if i < reach, let base = p.baseAddress, let found = memchr(base + i, 0x3A, reach - i) {
            colon = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
        guard colon < end, colon > i else { return nil }
        // After the colon: a space or the line's end (not "10:30", not "http://").
        if colon + 1 < end, p[colon + 1] != 0x20, p[colon + 1] != 0x09, p[colon + 1] != 0x0D { return nil }
        var nameEnd = colon
        if nameEnd > i, p[nameEnd - 1] == 0x20 { nameEnd -= 1 }  // "JOSÉ :"
        guard nameEnd > i else { return nil }
        return name(i..<nameEnd, colon: colon, end, p)
    }

    /// The bytes at `range` as a speaker's name (`name(at:_:_:)`, whose
    /// colon is at `colon`), when they are one: its range and the colon's
    /// end. Apart from the search for the colon, which most lines fail, so
    /// that they do not pay for this part's set-up (the scalar properties' types).
    @inline(never)
    private static func name(_ range: Range<Int>, colon: Int, _ end: Int, _ p: UnsafeBufferPointer<UInt8>) -> (Range<Int>, Int)? {
        let (i, nameEnd) = (range.lowerBound, range.upperBound)
        let name = String(decoding: UnsafeBufferPointer(rebasing: p[i..<nameEnd]), as: UTF8.self)
        guard name.count <= maximumNameLength, let first = name.unicodeScalars.first, first.properties.isAlphabetic else { return nil }
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count <= maximumNameWords, !words.contains(where: \.isEmpty) else { return nil }
        var lower = false
        var upper = 0
        for scalar in name.unicodeScalars {
            let properties = scalar.properties
            if properties.isAlphabetic {
                if properties.isLowercase { lower = true } else if properties.isUppercase { upper += 1 }
            } else if !(properties.numericType != nil || ".'’&#-".unicodeScalars.contains(scalar) || scalar == " ") {
                return nil
            }
        }
        if lower {
            // Mixed case: one or two words, each starting with a capital ("Sarah", "Dr. Smith").
            guard words.count <= 2, words.allSatisfy({ $0.unicodeScalars.first?.properties.isUppercase == true }) else { return nil }
            // And what follows does not go on in lower case: "Listen: the water trickles back" is a sentence.
            let next = skipSpaces(colon + 1, end, p)
            if next < end, let scalar = String(decoding: UnsafeBufferPointer(rebasing: p[next..<min(end, next + 4)]), as: UTF8.self)
                .unicodeScalars.first, scalar.properties.isLowercase {
                return nil
            }
        } else {
            guard upper >= 1 else { return nil }
        }
        return (i..<nameEnd, colon + 1)
    }

    // MARK: Credits

    /// Phrases that make a line a credit, in lower case (ASCII compared without case).
    static let creditPhrases: [String] = [
        "subtitles by", "subtitled by", "subtitle by", "captions by", "captioned by", "captioning by",
        "closed captioning", "synced by", "sync by", "synced and corrected", "corrected by", "transcribed by",
        "downloaded from", "opensubtitles", "addic7ed", "allsubs", "sous-titres", "sous-titrage",
        "subtítulos", "subtitulado", "subtitulos por", "untertitel", "sottotitoli",
    ]

    /// Top-level domains that make a word a web address (`AllSubs.org`).
    static let domains: [String] = [".com", ".org", ".net", ".tv", ".io", ".info"]

    /// What makes a line a credit, as UTF-8 (lower case): `://` and `www.`
    /// anywhere, a domain (`domains`) ending a word, a credit phrase anywhere.
    struct CreditMark {
        var bytes: [UInt8]
        /// A domain: it counts only after a letter or digit and at a word's end.
        var isDomain: Bool
    }

    /// Every `CreditMark`, by its first byte: one look-up per byte of a line.
    static let creditMarks: [[CreditMark]] = {
        var table = [[CreditMark]](repeating: [], count: 256)
        let marks = ["://", "www."].map { CreditMark(bytes: Array($0.utf8), isDomain: false) }
            + domains.map { CreditMark(bytes: Array($0.utf8), isDomain: true) }
            + creditPhrases.map { CreditMark(bytes: Array($0.utf8), isDomain: false) }
        for mark in marks { if let first = mark.bytes.first { table[Int(first)].append(mark) } }
        return table
    }()

    /// The first two bytes of every `CreditMark` (all have three or more), as
    /// bits of a table of byte pairs (`first << 8 | second`): most bytes of a
    /// line start no mark's pair, and are passed with one look-up.
    static let creditPairs: [UInt64] = {
        var table = [UInt64](repeating: 0, count: 65_536 / 64)
        for marks in creditMarks {
            for mark in marks {
                precondition(mark.bytes.count >= 3, "a credit mark of fewer than three bytes")
                let pair = Int(mark.bytes[0]) << 8 | Int(mark.bytes[1])
                table[pair >> 6] |= 1 << UInt64(pair & 63)
            }
        }
        return table
    }()

    /// Whether the line is a credit: it holds a web address or a credit
    /// phrase (ASCII letters compared without case).
    ///
    /// A mark is looked for (`creditMarkStarts`) only where the line may
    /// hold one (`CreditFilter`): near each `.` and `:` (found eight bytes at
    /// a time), which every web-address mark holds, and near each sampled
    /// four bytes that are four bytes of a credit phrase. Most lines hold a
    /// few such places, and their other bytes are passed without a look-up.
    static func isCredit(_ line: Range<Int>, in p: UnsafeBufferPointer<UInt8>) -> Bool {
        var mayHoldAPart = false
        return isCredit(line, in: p, mayHoldAPart: &mayHoldAPart)
    }

    /// `isCredit(_:in:)`, which reads every byte of a line that is no
    /// credit, and so also tells whether one of them is `[`, `(` or 0xE2
    /// (`mayStartAPart`): when it returns false, `mayHoldAPart` is true if the
    /// line may hold one (a short line's is always), false if it holds none.
    static func isCredit(_ line: Range<Int>, in p: UnsafeBufferPointer<UInt8>, mayHoldAPart: inout Bool) -> Bool {
        let bytes = UnsafeBufferPointer(rebasing: p[line])
        let n = bytes.count
        mayHoldAPart = true
        guard n >= 3, let base = bytes.baseAddress else { return false }
        var partBytes: UInt64 = 0
        let credit = creditPairs.withUnsafeBufferPointer { pairs in
            creditFilter.phraseBits.withUnsafeBufferPointer { phraseBits in
                /// Whether a mark starts at `from...through` (within the line).
                func anyStart(_ from: Int, _ through: Int) -> Bool {
                    var i = max(from, 0)
                    let last = min(through, n - 3)
                    while i <= last {
                        if creditMarkStarts(at: i, in: bytes, pairs: pairs) { return true }
                        i += 1
                    }
                    return false
                }
                /// Whether a mark that holds the `.` or `:` at `i`, or the phrase bytes sampled at `i`, starts there.
                func anchor(_ i: Int) -> Bool { CreditFilter.isAnchor(bytes[i]) && anyStart(i - CreditFilter.anchorReach, i) }
                func sample(_ four: UInt32, _ i: Int) -> Bool {
                    CreditFilter.mayBeInAPhrase(four, phraseBits) && anyStart(i - CreditFilter.phraseReach, i)
                }
                // Eight bytes at a time: their `.` and `:`, and the four bytes at each multiple of four.
                var i = 0
                while i + 8 <= n {
                    let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                    partBytes |= partByteMarks(w)
                    if CreditFilter.holdsAnAnchor(w) {
                        for k in i..<i + 8 where anchor(k) { return true }
                    }
                    if sample(UInt32(truncatingIfNeeded: w), i) || sample(UInt32(truncatingIfNeeded: w >> 32), i + 4) { return true }
                    i += 8
                }
                for k in i..<n where anchor(k) { return true }
                // The bytes after the last eight: the line's last eight read at once (they hold them), or one at a time.
                if i < n {
                    if n >= 8 {
                        partBytes |= partByteMarks(UInt64(littleEndian: UnsafeRawPointer(base + n - 8).loadUnaligned(as: UInt64.self)))
                    } else if bytes.contains(where: { $0 == 0x5B || $0 == 0x28 || $0 == 0xE2 }) {
                        partBytes = 1
                    }
                }
                if i + 4 <= n, sample(UInt32(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt32.self)), i) { return true }
                return false
            }
        }
        mayHoldAPart = partBytes != 0
        return credit
    }

    /// Whether a `CreditMark` starts at byte `i` of `bytes` (a line): its
    /// first two bytes lowered are a mark's (`creditPairs`), and a mark is there.
    @inline(__always)
    private static func creditMarkStarts(at i: Int, in bytes: UnsafeBufferPointer<UInt8>, pairs: UnsafeBufferPointer<UInt64>) -> Bool {
        let pair = Int(lowered(bytes[i])) << 8 | Int(lowered(bytes[i + 1]))
        return pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 && isCreditMark(at: i, in: bytes)
    }

    /// Where a line may hold a credit mark (`isCredit`), told from the marks:
    /// every mark that holds a `.` or `:` (an anchor) holds one within its
    /// first `anchorReach + 1` bytes; every other mark (a phrase) is at least
    /// seven bytes long, so an occurrence of it holds whole the four bytes
    /// at the first offset of the line at or after its start that is a
    /// multiple of four (`stride`): four bytes of the phrase at offset 0, 1, 2
    /// or 3. Those of each phrase, their ASCII letters lowered and hashed,
    /// are bits of `phraseBits`.
    struct CreditFilter {
        /// How far before its first anchor a mark that holds one may start.
        static let anchorReach = 3
        /// How far before the four bytes sampled a phrase may start.
        static let phraseReach = stride - 1
        /// The bits of the four bytes at offsets 0 to `phraseReach` of every phrase (`slot`).
        var phraseBits = [UInt64](repeating: 0, count: 1 << (bits - 6))

        /// How many bits `phraseBits` holds, as a power of two.
        static let bits = 12
        /// The distance between the four bytes looked at, and the shortest phrase it allows (`stride + 3`).
        static let stride = 4

        init(marks: [CreditMark]) {
            for mark in marks {
                if let anchor = mark.bytes.firstIndex(where: Self.isAnchor) {
                    precondition(anchor <= Self.anchorReach, "a web-address mark whose '.' or ':' is further in than the filter reaches")
                    continue
                }
                precondition(mark.bytes.count >= Self.stride + 3, "a credit phrase shorter than the filter's stride allows")
                for at in 0...Self.phraseReach {
                    let four = mark.bytes[at..<at + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                    let slot = Self.slot(four)
                    phraseBits[slot >> 6] |= 1 << UInt64(slot & 63)
                }
            }
        }

        /// Whether `b` is `.` or `:`.
        @inline(__always)
        static func isAnchor(_ b: UInt8) -> Bool { b == 0x2E || b == 0x3A }

        /// Whether one of the eight bytes of `w` is `.` or `:` (the zero-byte test of `mayStartAPart`).
        @inline(__always)
        static func holdsAnAnchor(_ w: UInt64) -> Bool {
            ByteLanes.bytes(w, equalTo: 0x2E) | ByteLanes.bytes(w, equalTo: 0x3A) != 0
        }

        /// The bit of four bytes (little-endian in `four`): each byte with its
        /// 0x20 bit set (which lowers an ASCII capital, so four bytes and their
        /// lowered form have the one bit), hashed.
        @inline(__always)
        static func slot(_ four: UInt32) -> Int {
            Int(truncatingIfNeeded: ((four | 0x2020_2020) &* 0x9E37_79B1) >> UInt32(32 - bits))
        }

        /// Whether the four bytes `four` (little-endian) may be four bytes of a phrase (`phraseBits`).
        @inline(__always)
        static func mayBeInAPhrase(_ four: UInt32, _ phraseBits: UnsafeBufferPointer<UInt64>) -> Bool {
            let slot = slot(four)
            return phraseBits[slot >> 6] & (1 << UInt64(slot & 63)) != 0
        }
    }

    /// The filter of every `CreditMark`.
    static let creditFilter = CreditFilter(marks: creditMarks.flatMap { $0 })

    /// Whether a `CreditMark` starts at byte `i` of `bytes` (a line).
    private static func isCreditMark(at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for mark in creditMarks[Int(lowered(bytes[i]))] where bytes.count - i >= mark.bytes.count {
            var k = 1
            while k < mark.bytes.count, lowered(bytes[i + k]) == mark.bytes[k] { k += 1 }
            guard k == mark.bytes.count else { continue }
            if !mark.isDomain { return true }
            // A domain ends a word ("AllSubs.org", "site.com/"), after a letter or digit.
            let end = i + k
            let before = i > 0 ? bytes[i - 1] : 0x20
            if end == bytes.count || !isASCIILetterOrDigit(bytes[end]), isASCIILetterOrDigit(before) { return true }
        }
        return false
    }

    /// Whether `word` (as the word rule cuts it, or any text) is a web
    /// address: it starts with `www.`, holds `://`, or ends with a domain
    /// (`.org`, `.com`…) after a letter or digit (`AllSubs.org`).
    public static func isWebAddress<S: StringProtocol>(_ word: S) -> Bool {
        var text = String(word)
        return text.withUTF8 { p in
            if contains("://", p) || contains("www.", p) { return true }
            return domains.contains { domain in
                let n = domain.utf8.count
                guard p.count > n, let at = find(domain, p, from: p.count - n) else { return false }
                return isASCIILetterOrDigit(p[at - 1])
            }
        }
    }

    private static func isASCIILetterOrDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
    }

    private static func contains(_ needle: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        find(needle, bytes, from: 0) != nil
    }

    /// The first offset from `from` where `needle` (lower case) starts in
    /// `bytes`, ASCII letters compared without case.
    private static func find(_ needle: String, _ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let n = Array(needle.utf8)
        guard let first = n.first, bytes.count >= n.count else { return nil }
        var i = from
        while i + n.count <= bytes.count {
            if lowered(bytes[i]) == first {
                var k = 1
                while k < n.count, lowered(bytes[i + k]) == n[k] { k += 1 }
                if k == n.count { return i }
            }
            i += 1
        }
        return nil
    }

    @inline(__always)
    private static func lowered(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
}
