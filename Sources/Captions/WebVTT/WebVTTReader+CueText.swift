/// The WebVTT cue text tokenizer and tree rules, reduced to what the caption
/// model keeps: text runs (entities decoded) with the bold/italic/underline
/// in effect, markup runs for every tag as written, and line breaks.
///
/// As in the spec, a tag runs from `<` to the next `>` (even across a line
/// break, or to the end of the cue text if there is none); an end tag closes
/// only the innermost open element of its name; `rt` opens only inside
/// `ruby`; unknown tags are ignored by players (kept here as markup).
extension WebVTTReader {
    // Known elements.
    static let tagC: UInt8 = 1, tagI: UInt8 = 2, tagB: UInt8 = 3, tagU: UInt8 = 4,
               tagRuby: UInt8 = 5, tagRT: UInt8 = 6, tagV: UInt8 = 7, tagLang: UInt8 = 8

    /// The element code of a tag name in `p[start..<end]`, or 0 if it is not a WebVTT element.
    func tagCode(_ start: Int, _ end: Int) -> UInt8 {
        func at(_ k: Int) -> UInt8 { p[start + k] }
        switch end - start {
        case 1:
            switch at(0) {
            case UInt8(ascii: "c"): return Self.tagC
            case UInt8(ascii: "i"): return Self.tagI
            case UInt8(ascii: "b"): return Self.tagB
            case UInt8(ascii: "u"): return Self.tagU
            case UInt8(ascii: "v"): return Self.tagV
            default: return 0
            }
        case 2: return at(0) == UInt8(ascii: "r") && at(1) == UInt8(ascii: "t") ? Self.tagRT : 0
        case 4:
            if at(0) == UInt8(ascii: "r"), at(1) == UInt8(ascii: "u"), at(2) == UInt8(ascii: "b"), at(3) == UInt8(ascii: "y") { return Self.tagRuby }
            if at(0) == UInt8(ascii: "l"), at(1) == UInt8(ascii: "a"), at(2) == UInt8(ascii: "n"), at(3) == UInt8(ascii: "g") { return Self.tagLang }
            return 0
        default: return 0
        }
    }

    /// Builds the runs of cue text in `range` (which starts on line `firstLine`).
    mutating func tokenize(_ range: Range<Int>, firstLine: Int, start: Int64, end: Int64) {
        tagStack.removeAll(keepingCapacity: true)
        var counts = (bold: 0, italic: 0, underline: 0)
        var style: TextStyle = []
        var line = firstLine
        let stop = range.upperBound
        var i = range.lowerBound, pieceStart = i
        var pieceFlags: UInt8 = 0
        while i < stop {
            let b = p[i]
            if b == 0x0A || b == 0x0D {
                appendText(pieceStart, i, pieceFlags, line, style)
                let len = b == 0x0D && i + 1 < stop && p[i + 1] == 0x0A ? 2 : 1
                runs.append(TextRun(kind: .lineBreak, text: "\n", style: style, source: i..<(i + len)))
                i += len; line += 1
                pieceStart = i; pieceFlags = 0
            } else if b == UInt8(ascii: "<") {
                appendText(pieceStart, i, pieceFlags, line, style)
                var j = i + 1
                while j < stop, p[j] != UInt8(ascii: ">") { j += 1 }
                let closed = j < stop
                let tagEnd = closed ? j + 1 : stop
                let tagLine = line
                runs.append(TextRun(kind: .markup, text: makeString(i, tagEnd, flags: WebVTTReader.nonASCII, line: line, entities: false),
                                    style: style, source: i..<tagEnd))
                var k = i
                while k < tagEnd {
                    if p[k] == 0x0A || (p[k] == 0x0D && !(k + 1 < tagEnd && p[k + 1] == 0x0A)) { line += 1 }
                    k += 1
                }
                if !closed {
                    warnings.warn(tagLine, "a '<' starts a tag that is never closed with '>': players hide the rest of the cue text (write &lt; for a literal '<')")
                }
                tag(i + 1, closed ? j : stop, line: tagLine, start: start, end: end, counts: &counts, quiet: !closed)
                style = []
                if counts.bold > 0 { style.insert(.bold) }
                if counts.italic > 0 { style.insert(.italic) }
                if counts.underline > 0 { style.insert(.underline) }
                i = tagEnd
                pieceStart = i; pieceFlags = 0
            } else {
                pieceFlags |= classes[Int(b)]
                i += 1
            }
        }
        appendText(pieceStart, stop, pieceFlags, line, style)
    }

    mutating func appendText(_ start: Int, _ end: Int, _ flags: UInt8, _ line: Int, _ style: TextStyle) {
        guard end > start else { return }
        runs.append(TextRun(kind: .text, text: makeString(start, end, flags: flags, line: line), style: style, source: start..<end))
    }

    /// Applies one tag (its content between `<` and `>`) to the open-element stack.
    /// `quiet` leaves out warnings about the tag itself (an unclosed tag already has one).
    mutating func tag(_ cs: Int, _ ce: Int, line: Int, start: Int64, end: Int64, counts: inout (bold: Int, italic: Int, underline: Int), quiet: Bool) {
        func adjust(_ code: UInt8, _ delta: Int) {
            switch code {
            case Self.tagB: counts.bold += delta
            case Self.tagI: counts.italic += delta
            case Self.tagU: counts.underline += delta
            default: break
            }
        }
        func isNameEnd(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C || b == UInt8(ascii: ".") }
        guard ce > cs else { reportTag(""); return }
        let first = p[cs]
        if first == UInt8(ascii: "/") {
            let code = tagCode(cs + 1, ce)
            guard code != 0, let top = tagStack.last else { return }
            if top == code {
                tagStack.removeLast(); adjust(code, -1)
            } else if code == Self.tagRuby, top == Self.tagRT, tagStack.count >= 2 {
                tagStack.removeLast(2)
            }
        } else if first >= 0x30 && first <= 0x39 {
            if quiet { return }
            var k = cs
            let parsed = WebVTTTimestamp.parse(p, &k, end: ce, lenient: false)
            let raw = String(decoding: UnsafeBufferPointer(rebasing: p[cs..<ce]), as: UTF8.self)
            switch parsed {
            case let .success(v) where k == ce:
                if v.milliseconds < start || v.milliseconds > end {
                    warnings.warn(line, "the timestamp tag <\(raw)> lies outside the cue's time span")
                }
            default:
                warnings.warn(line, "<\(raw)> is not a valid timestamp tag (write <00:00:01.500>); players ignore it")
            }
        } else if isNameEnd(first) {
            reportTag("")
        } else {
            var k = cs
            while k < ce, !isNameEnd(p[k]) { k += 1 }
            let code = tagCode(cs, k)
            if code == 0 {
                reportTag(String(decoding: UnsafeBufferPointer(rebasing: p[cs..<k]), as: UTF8.self), line: line)
            } else if code == Self.tagRT && tagStack.last != Self.tagRuby {
                return
            } else {
                tagStack.append(code); adjust(code, 1)
            }
        }

        func reportTag(_ name: String, line: Int? = nil) {
            guard !quiet, reportedTags.insert(name).inserted else { return }
            warnings.warn(line ?? lineHere, name.isEmpty
                ? "a tag with no name is not WebVTT; players ignore it (kept as written)"
                : "<\(name)> is not a WebVTT tag (c, i, b, u, v, lang, ruby, rt); players ignore it (kept as written)")
        }
        var lineHere: Int { line }
    }
}
