/// One attribute of a start tag, as byte ranges into the document.
struct XMLAttribute {
    /// The qualified name.
    var name: Range<Int>
    /// Index of the first `:` in the name, or -1.
    var colon: Int
    /// The value between the quotes, references not decoded.
    var value: Range<Int>

    /// The prefix (empty when the name has none).
    var prefix: Range<Int> { colon < 0 ? name.lowerBound..<name.lowerBound : name.lowerBound..<colon }
    /// The name after the prefix.
    var localName: Range<Int> { colon < 0 ? name : (colon + 1)..<name.upperBound }
}

/// A start tag, as byte ranges; its attributes are the tokenizer's `attributes`.
struct XMLStartTag {
    /// The index of the `<`.
    var start: Int
    /// The qualified name.
    var name: Range<Int>
    /// Index of the first `:` in the name, or -1.
    var colon: Int
    /// The index just past the last attribute's closing quote (past the name when there is none).
    var attributesEnd: Int
    /// Whether the tag ends with `/>`.
    var selfClosing: Bool
    /// The index of the `/` of `/>` (the tag's end when not self-closing).
    var slash: Int
    /// The index just past the `>`.
    var end: Int

    /// The prefix (empty when the name has none).
    var prefix: Range<Int> { colon < 0 ? name.lowerBound..<name.lowerBound : name.lowerBound..<colon }
    /// The name after the prefix.
    var localName: Range<Int> { colon < 0 ? name : (colon + 1)..<name.upperBound }
}

/// What the tokenizer finds next.
enum XMLToken {
    /// Character data (references not decoded).
    case text(Range<Int>)
    /// The inside of a CDATA section.
    case cdata(Range<Int>)
    /// A start tag (its attributes are in `XMLTokenizer.attributes`).
    case startTag(XMLStartTag)
    /// An end tag; the index of its `<`.
    case endTag(start: Int)
    /// A comment, processing instruction or DOCTYPE: nothing a reader of the content needs.
    case markup(Range<Int>)
}

/// A flat XML tokenizer over UTF-8 bytes that reports byte ranges: start tags
/// with their attributes, end tags, text, CDATA sections, and the markup a
/// reader skips (comments, processing instructions, the DOCTYPE). It keeps no
/// element stack and never recurses, so nesting depth costs it nothing; the
/// reader on top keeps its own stack and limit.
///
/// It is meant for documents libxml2 has already found well-formed: it checks
/// only what it needs to stay in bounds, and throws `malformedXML` for a start
/// tag that is cut short. Line numbers are counted lazily (`line(at:)`), so a
/// reader pays for them only where it reports something.
struct XMLTokenizer {
    /// The document's bytes.
    let bytes: XMLBytes
    /// Where the next token starts.
    var position: Int
    /// The attributes of the last start tag (the array is reused from tag to tag).
    private(set) var attributes: [XMLAttribute] = []

    private var lineScanned: Int
    private var lineNumber = 1

    /// A tokenizer that starts at `start` (line numbers are counted from the document's start).
    init(_ bytes: XMLBytes, from start: Int = 0) {
        self.bytes = bytes
        position = start
        lineScanned = 0
    }

    /// A tokenizer for a part of the document that reports no line numbers:
    /// `line(at:)` counts from `start` as line 1.
    init(partOf bytes: XMLBytes, from start: Int) {
        self.bytes = bytes
        position = start
        lineScanned = start
    }

    /// The 1-based line of byte `k` (counting forwards from the last question, so a scan costs O(n) in all).
    mutating func line(at k: Int) -> Int {
        if k < lineScanned { lineScanned = 0; lineNumber = 1 }
        var j = lineScanned
        let end = min(k, bytes.n)
        let p = bytes.p, n = bytes.n
        while j < end {
            let b = p[j]
            j += 1
            // Most bytes are neither LF nor CR.
            if b > 0x0D { continue }
            if b == 0x0A || (b == 0x0D && (j >= n || p[j] != 0x0A)) { lineNumber += 1 }
        }
        lineScanned = max(lineScanned, end)
        return lineNumber
    }

    /// The next token that starts before `limit`, or nil. Text is cut at
    /// `limit`; a tag that starts before it is read whole.
    @inline(__always) mutating func next(before limit: Int) throws -> XMLToken? {
        let i = position
        guard i < limit, i < bytes.n else { return nil }
        let b = bytes.p
        if b[i] != UInt8(ascii: "<") {
            let next = min(bytes.find(UInt8(ascii: "<"), from: i) ?? limit, limit)
            position = next
            return .text(i..<next)
        }
        let b1 = bytes.at(i + 1)
        if b1 == UInt8(ascii: "?") {
            position = bytes.skip(past: "?>", from: i + 2)
            return .markup(i..<position)
        }
        if b1 == UInt8(ascii: "!") {
            if bytes.starts(i, "<!--") {
                position = bytes.skip(past: "-->", from: i + 4)
                return .markup(i..<position)
            }
            if bytes.starts(i, "<![CDATA[") {
                let end = bytes.skip(past: "]]>", from: i + 9)
                position = end
                return .cdata((i + 9)..<max(i + 9, end - 3))
            }
            position = skipDoctype(from: i)
            return .markup(i..<position)
        }
        if b1 == UInt8(ascii: "/") {
            let close = bytes.find(UInt8(ascii: ">"), from: i) ?? bytes.n
            position = close + 1
            return .endTag(start: i)
        }
        let tag = try startTag(at: i)
        position = tag.end
        return .startTag(tag)
    }

    private func skipDoctype(from k: Int) -> Int {
        let n = bytes.n, p = bytes.p
        var j = k + 9
        var quote: UInt8 = 0
        var depth = 0
        while j < n {
            let c = p[j]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == 0x22 || c == 0x27 {
                quote = c
            } else if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth -= 1
            } else if bytes.starts(j, "<!--") {
                j = bytes.skip(past: "-->", from: j + 4); continue
            } else if bytes.starts(j, "<?") {
                j = bytes.skip(past: "?>", from: j + 2); continue
            } else if c == UInt8(ascii: ">"), depth <= 0 {
                return j + 1
            }
            j += 1
        }
        return n
    }

    private mutating func startTag(at lt: Int) throws -> XMLStartTag {
        let n = bytes.n, p = bytes.p
        var k = lt + 1
        let nameStart = k
        var colon = -1
        while k < n {
            let c = p[k]
            if XMLBytes.isSpace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") { break }
            if c == UInt8(ascii: ":") && colon < 0 { colon = k }
            k += 1
        }
        let name = nameStart..<k
        var lastAttributeEnd = k
        attributes.removeAll(keepingCapacity: true)
        var selfClosing = false
        var slash = k
        while true {
            while k < n, XMLBytes.isSpace(p[k]) { k += 1 }
            guard k < n else { throw Self.truncated }
            let c = p[k]
            if c == UInt8(ascii: ">") { k += 1; break }
            if c == UInt8(ascii: "/") {
                selfClosing = true; slash = k; k += 1
                if bytes.at(k) == UInt8(ascii: ">") { k += 1 }
                break
            }
            let attributeStart = k
            var attributeColon = -1
            while k < n, p[k] != UInt8(ascii: "="), !XMLBytes.isSpace(p[k]) {
                if p[k] == UInt8(ascii: ":") && attributeColon < 0 { attributeColon = k }
                k += 1
            }
            let attributeName = attributeStart..<k
            while k < n, XMLBytes.isSpace(p[k]) { k += 1 }
            guard bytes.at(k) == UInt8(ascii: "=") else { throw Self.truncated }
            k += 1
            while k < n, XMLBytes.isSpace(p[k]) { k += 1 }
            let quote = bytes.at(k)
            guard quote == 0x22 || quote == 0x27 else { throw Self.truncated }
            k += 1
            let valueStart = k
            guard let valueEnd = bytes.find(quote, from: k) else { throw Self.truncated }
            k = valueEnd + 1
            lastAttributeEnd = k
            attributes.append(XMLAttribute(name: attributeName, colon: attributeColon, value: valueStart..<valueEnd))
        }
        return XMLStartTag(start: lt, name: name, colon: colon, attributesEnd: lastAttributeEnd,
                           selfClosing: selfClosing, slash: slash, end: k)
    }

    private static var truncated: CaptionError {
        CaptionError(.malformedXML, message: "a start tag is cut short")
    }
}
