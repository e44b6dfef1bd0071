/// The one gate for text taken from a server (a model's answer, an error
/// body, a model list, a header quoted in a reason) and for the local
/// fallback's titles: everything passes it before it is stored, shown,
/// re-sent in a repair request or written.
///
/// It holds the one definition of the bounds, and four rules:
/// - **Hidden characters are refused** in every text field kept as a value
///   (a title, a keyword): a format character (Unicode `Cf`: TAG characters
///   that carry hidden ASCII text, U+202E and the other bidirectional
///   controls, zero-width spaces, soft hyphens…) or a line or paragraph
///   separator. The joiners U+200C and U+200D (needed in Persian, Indic
///   scripts and emoji sequences) and the characters of one RGI emoji (a flag
///   of England holds TAG characters) are kept.
/// - **Quoted text is bounded** in bytes and characters (`quoteBytes`,
///   `quoteCharacters`; a word with 100,000 combining marks is one character
///   of 200,000 bytes), on one line, its control and format characters shown
///   as `\u{…}`.
/// - **Lists are bounded** in count and bytes (`listedItems`, `listBytes`):
///   what is left out is counted, not listed.
/// - **Secrets are redacted**: the configured key, and anything shaped like a
///   bearer token (`sk-…`, `Bearer …`, `hf_…`, `ghp_…`), wherever a server's
///   text goes, including a key echoed inside a normal answer.
public enum ServerTextGate {
    /// The most characters of one quoted text.
    public static let quoteCharacters = 80
    /// The most UTF-8 bytes of one quoted text.
    public static let quoteBytes = 400
    /// The most characters of one server message (an error body's text) kept.
    public static let messageCharacters = 300
    /// The most UTF-8 bytes of one server message kept.
    public static let messageBytes = 1200
    /// The most items a list in a message or a report names; the rest are counted.
    public static let listedItems = 10
    /// The most UTF-8 bytes the items a list names take together.
    public static let listBytes = 2048
    /// The most items of one list in an answer that are read at all (the rest are counted as not read).
    public static let readItems = 200
    /// The most UTF-8 bytes one `Character` of a kept field may take: a field
    /// longer than its bound in characters times this is refused unread.
    public static let maximumBytesPerCharacter = 16
    /// The shortest configured key redacted (a shorter one, "abc", would cut ordinary words apart).
    public static let minimumKeyLength = 6
    /// What a secret is replaced with.
    public static let redactedMark = "<redacted>"

    // MARK: Hidden characters

    /// The first hidden character of `text` (see the type's rules), or nil when it has none.
    public static func hiddenCharacter(in text: String) -> Unicode.Scalar? {
        // Printable ASCII holds none (the usual case, byte by byte).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        for character in text {
            guard let hidden = character.unicodeScalars.first(where: isHidden) else { continue }
            if EmojiClassifier.isEmoji(character) { continue }
            return hidden
        }
        return nil
    }

    /// Whether `u` is a control character (general category Cc): U+0000–U+001F and
    /// U+007F–U+009F. Unicode's stability policy fixes that set for good; a test asks
    /// every scalar's properties all the same.
    @inline(__always)
    public static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (u.value >= 0x7F && u.value <= 0x9F)
    }

    /// Whether `u` is a hidden character, not counting the joiners kept.
    static func isHidden(_ u: Unicode.Scalar) -> Bool {
        if u.value < 0x80 { return false }
        if u.value == 0x200C || u.value == 0x200D { return false }
        switch u.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// The reason a field with `hidden` in it is refused, e.g.
    /// `contains an invisible or bidirectional format character (U+202E)`.
    public static func hiddenReason(_ hidden: Unicode.Scalar) -> String {
        "contains an invisible or bidirectional format character (\(codePoint(hidden)))"
    }

    /// The first flaw of a value kept from a server or made by the fallback (a
    /// title, a keyword): a control character, a hidden character, more than
    /// `maxCharacters` characters or more than `maxCharacters` ×
    /// `maximumBytesPerCharacter` bytes, a bearer-shaped token; nil when it has none.
    public static func flaw(_ text: String, maxCharacters: Int) -> String? {
        let bytes = text.utf8.count
        if bytes > maxCharacters * maximumBytesPerCharacter {
            return "longer than \(maxCharacters) characters (\(bytes) bytes)"
        }
        if let control = asciiControl(text) {
            // ASCII (the usual title and keyword), byte by byte: its control characters are
            // U+0000–U+001F and U+007F, it holds no hidden character, and with no control
            // character (so no CR LF) each byte is one `Character`.
            if control { return "contains control characters or line breaks" }
            if bytes > maxCharacters { return "longer than \(maxCharacters) characters" }
        } else {
            if text.unicodeScalars.contains(where: isControl) {
                return "contains control characters or line breaks"
            }
            if let hidden = hiddenCharacter(in: text) { return hiddenReason(hidden) }
            if text.count > maxCharacters { return "longer than \(maxCharacters) characters" }
        }
        if redacted(text) != text { return secretReason }
        return nil
    }

    /// For an ASCII `text`, whether it holds an ASCII control character
    /// (U+0000–U+001F, U+007F); nil when it is not ASCII. One pass over its bytes.
    static func asciiControl(_ text: String) -> Bool? {
        func scan(_ p: UnsafeBufferPointer<UInt8>) -> Bool? {
            var control = false
            for b in p {
                if b >= 0x80 { return nil }
                if isControl(Unicode.Scalar(b)) { control = true }
            }
            return control
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(scan)
    }

    /// The reason a field holding a bearer-shaped token is refused.
    public static let secretReason = "holds what looks like an API key or token"

    // MARK: Quoting

    /// `text` as it may be quoted in a message: on one line (runs of white space
    /// and control characters as one space), hidden characters shown as `\u{…}`,
    /// then secrets redacted (so that no token is formed by the joining: `Bearer`,
    /// control characters, then a token), at most `characters` characters and
    /// `bytes` bytes (then ending in `…`). Only the first `bytes` × 2 bytes of
    /// `text` are read.
    public static func shown(_ text: String, key: String? = nil, characters: Int = quoteCharacters, bytes: Int = quoteBytes) -> String {
        let head = prefix(text, bytes: bytes * 2)
        let cut = head.utf8.count < text.utf8.count
        let line = redacted(oneLine(redacted(head, key: key, tokens: false)), key: key)
        var out = ""
        var outBytes = 0
        var count = 0
        var full = false
        for character in line {
            if count + 1 > characters || outBytes + character.utf8.count > bytes - 3 {
                full = true
                break
            }
            out.append(character)
            outBytes += character.utf8.count
            count += 1
        }
        while out.hasSuffix(" ") { out.removeLast() }
        return full || cut ? out + "…" : out
    }

    /// `text` on one line: runs of white space and control characters as one
    /// space (none at the start), a hidden character as `\u{…}`, a control
    /// character joined to others as a space.
    static func oneLine(_ text: String) -> String {
        var out = ""
        var lastWasSpace = true
        for character in text {
            if character.isWhitespace || character.isNewline
                || character.unicodeScalars.allSatisfy(isControl) {
                if lastWasSpace { continue }
                out += " "
                lastWasSpace = true
            } else if character.unicodeScalars.contains(where: { isControl($0) || isHidden($0) })
                        && !EmojiClassifier.isEmoji(character) {
                for u in character.unicodeScalars {
                    if isControl(u) { out += " " }
                    else if isHidden(u) { out += "\\u{\(hex(u.value))}" }
                    else { out.unicodeScalars.append(u) }
                }
                lastWasSpace = false
            } else {
                out.append(character)
                lastWasSpace = false
            }
        }
        return out
    }

    /// `shown(text)` between quotation marks: “…”.
    public static func quote(_ text: String, key: String? = nil) -> String {
        "“" + shown(text, key: key) + "”"
    }

    /// A server's message (an error body's text) as it is kept: `shown` with
    /// the message bounds (`messageCharacters`, `messageBytes`).
    public static func message(_ text: String, key: String? = nil) -> String {
        shown(text, key: key, characters: messageCharacters, bytes: messageBytes)
    }

    // MARK: Lists

    /// `items` joined by `separator`, at most `listedItems` of them within
    /// `listBytes`; the rest counted after them (`; and 3 more`, or `and 3 more`
    /// alone when none fits). `notRead` more items are counted with them.
    public static func list(_ items: [String], separator: String = "; ", notRead: Int = 0) -> String {
        let (shown, left) = bounded(items)
        let more = left + notRead
        var text = shown.joined(separator: separator)
        if more > 0 { text += (text.isEmpty ? "" : separator) + "and \(more) more" }
        return text
    }

    /// The first items of `items` a list names (at most `listedItems`, within
    /// `listBytes` together), and how many are left out.
    public static func bounded(_ items: [String]) -> (shown: [String], leftOut: Int) {
        var shown: [String] = []
        var total = 0
        for item in items.prefix(listedItems) {
            guard total + item.utf8.count <= listBytes else { break }
            shown.append(item)
            total += item.utf8.count
        }
        return (shown, items.count - shown.count)
    }

    // MARK: Secrets

    /// Prefixes of the bearer tokens redacted wherever they are (case as written).
    static let tokenPrefixes = ["sk-", "hf_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xoxb-", "xoxp-", "glpat-"]
    /// The fewest token characters after a prefix for the text to count as a token.
    static let tokenMinimum = 12

    /// `text` with `key` (when given and not empty) and every bearer-shaped
    /// token replaced by `redactedMark`: a `tokenPrefixes` prefix followed by at
    /// least `tokenMinimum` token characters, or `Bearer ` followed by them.
    /// With `tokens` false, only `key` is (for a whole answer, whose quoted and kept parts are scanned for tokens).
    public static func redacted(_ text: String, key: String? = nil, tokens: Bool = true) -> String {
        var text = text
        if let key, key.count >= minimumKeyLength, text.contains(key) { text = text.replacingOccurrences(of: key, with: redactedMark) }
        guard tokens, mayHoldToken(text) else { return text }
        var out = ""
        var rest = Substring(text)
        while let (start, end) = nextToken(in: rest) {
            out += rest[..<start] + redactedMark
            rest = rest[end...]
        }
        return out + rest
    }

    /// The prefixes the scan looks for (`tokenPrefixes`, then `Bearer `), as UTF-8.
    private static let tokenMarks: [[UInt8]] = (tokenPrefixes + ["Bearer ", "bearer "]).map { Array($0.utf8) }
    /// Whether a byte is the first of one of `tokenMarks`.
    private static let tokenMarkStarts: [Bool] = (0..<256).map { b in tokenMarks.contains { $0.first == UInt8(b) } }

    /// Whether `text` may hold a bearer-shaped token (a fast check before the
    /// scan): whether one of the prefixes' bytes occur in it. The scan matches
    /// a prefix `Character` by `Character`, and each of their ASCII characters
    /// is equal only to itself, so every prefix it finds is such an occurrence.
    private static func mayHoldToken(_ text: String) -> Bool {
        func search(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
            var i = 0
            while i < p.count {
                if tokenMarkStarts[Int(p[i])] {
                    for mark in tokenMarks where mark[0] == p[i] && p.count - i >= mark.count {
                        var k = 1
                        while k < mark.count, p[i + k] == mark[k] { k += 1 }
                        if k == mark.count { return true }
                    }
                }
                i += 1
            }
            return false
        }
        return text.utf8.withContiguousStorageIfAvailable(search) ?? Array(text.utf8).withUnsafeBufferPointer(search)
    }

    /// The first characters of the prefixes, where the scan looks further.
    private static let tokenStarts: Set<Character> = Set((tokenPrefixes + ["Bearer ", "bearer "]).compactMap(\.first))

    /// The range of the next token in `text` (for `Bearer x`, the whole of it), or nil.
    private static func nextToken(in text: Substring) -> (Substring.Index, Substring.Index)? {
        var index = text.startIndex
        var previous: Character? = nil
        while index < text.endIndex {
            let c = text[index]
            // A token starts where no letter or digit is just before it (`risk-free` holds no `sk-` token).
            if tokenStarts.contains(c), previous.map({ !($0.isASCII && ($0.isLetter || $0.isNumber)) }) ?? true {
                let rest = text[index...]
                for prefix in tokenPrefixes + ["Bearer ", "bearer "] where rest.hasPrefix(prefix) {
                    var end = rest.index(rest.startIndex, offsetBy: prefix.count)
                    if prefix.hasSuffix(" ") { while end < rest.endIndex, rest[end] == " " { end = rest.index(after: end) } }
                    let bodyStart = end
                    while end < rest.endIndex, isTokenCharacter(rest[end]) { end = rest.index(after: end) }
                    if rest.distance(from: bodyStart, to: end) >= tokenMinimum { return (index, end) }
                }
            }
            previous = c
            index = text.index(after: index)
        }
        return nil
    }

    /// Whether `c` may be part of a token (ASCII letters, digits and `-_.~+/=`).
    private static func isTokenCharacter(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        return (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A) || "-_.~+/=".utf8.contains(a)
    }

    // MARK: Helpers

    /// The first characters of `text` within `bytes` UTF-8 bytes (whole scalars).
    static func prefix(_ text: String, bytes: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > bytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: bytes)
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(text.unicodeScalars[..<end])
    }

    /// `U+202E`.
    static func codePoint(_ u: Unicode.Scalar) -> String { "U+" + hex(u.value) }

    /// At least four upper-case hexadecimal digits.
    private static func hex(_ value: UInt32) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
