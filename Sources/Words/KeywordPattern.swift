/// One keyword (a word or a phrase) as its words, lower-cased, and the text between them.
///
/// The words are the keyword's words by the one rule (`WordScanner`); what
/// stands before the first word and after the last is ignored. Between words,
/// white space is one space however it is written (spaces, tabs, a line
/// break), so `real-time analytics` is found across a line break; anything
/// else between words must be spelled as in the keyword.
struct KeywordPattern: Sendable {
    /// The keyword's index in the list given to the matcher.
    var keyword: Int
    /// The words, lower-cased (`WordFold`).
    var words: [[UInt8]]
    /// What stands between word k and word k + 1, white space runs made one space.
    var separators: [[UInt8]]
    /// The words' and separators' bytes together (longer keywords win at one word).
    var byteLength: Int

    /// The pattern of `keyword`; nil when it has no word.
    init?(_ keyword: String, index: Int, scanner: WordScanner) {
        var text = keyword
        var words: [[UInt8]] = []
        var separators: [[UInt8]] = []
        text.withUTF8 { p in
            scanner.scan(p)
            var previousEnd: Int? = nil
            for r in scanner.words {
                if let previousEnd {
                    var separator: [UInt8] = []
                    Self.appendNormalised(UnsafeBufferPointer(rebasing: p[previousEnd..<r.lowerBound]), to: &separator)
                    separators.append(separator)
                }
                var folded: [UInt8] = []
                WordFold.fold(p, r, into: &folded)
                words.append(folded)
                previousEnd = r.upperBound
            }
        }
        guard !words.isEmpty else { return nil }
        self.keyword = index
        self.words = words
        self.separators = separators
        self.byteLength = words.reduce(0) { $0 + $1.count } + separators.reduce(0) { $0 + $1.count }
    }

    /// Appends `bytes` with each run of white space made one space (0x20).
    static func appendNormalised(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var i = 0
        while i < bytes.count {
            let length = whiteSpaceLength(bytes, i)
            if length > 0 {
                if out.last != 0x20 { out.append(0x20) }
                i += length
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
    }

    /// Whether `text` (the bytes between two words of a text) is `separator`
    /// (normalised), white space runs compared as one space.
    static func separatorMatches(_ text: UnsafeBufferPointer<UInt8>, _ separator: [UInt8]) -> Bool {
        var i = 0
        var k = 0
        while i < text.count {
            let length = whiteSpaceLength(text, i)
            if length > 0 {
                guard k < separator.count, separator[k] == 0x20 else { return false }
                k += 1
                i += length
                while i < text.count {
                    let more = whiteSpaceLength(text, i)
                    if more == 0 { break }
                    i += more
                }
            } else {
                guard k < separator.count, separator[k] == text[i] else { return false }
                k += 1
                i += 1
            }
        }
        return k == separator.count
    }

    /// Whether `text` holds no line break (for word sequences compared within a line).
    static func isWithinLine(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < text.count {
            let b = text[i]
            if b >= 0x0A && b <= 0x0D { return false }
            if b >= 0x80, let (scalar, length) = scalar(text, i) {
                if scalar == 0x85 || scalar == 0x2028 || scalar == 0x2029 { return false }
                i += length
                continue
            }
            i += 1
        }
        return true
    }

    /// The length of the white space character (Unicode White_Space) at `i`, or 0.
    @inline(__always)
    static func whiteSpaceLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let b = p[i]
        if b < 0x80 { return b == 0x20 || (b >= 0x09 && b <= 0x0D) ? 1 : 0 }
        guard let (value, length) = scalar(p, i), let s = Unicode.Scalar(value) else { return 0 }
        return s.properties.isWhitespace ? length : 0
    }

    /// The scalar value starting at byte `i` and its length; nil for bytes that are not valid UTF-8 there.
    static func scalar(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int)? {
        let b = p[i]
        var value: UInt32
        let length: Int
        switch b {
        case 0x00..<0x80: return (UInt32(b), 1)
        case 0xC2...0xDF: length = 2; value = UInt32(b & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(b & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(b & 0x07)
        default: return nil
        }
        guard i + length <= p.count else { return nil }
        for k in 1..<length {
            let c = p[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        return (value, length)
    }
}
