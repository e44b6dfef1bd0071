/// Rejects documents whose DOCTYPE could make an XML parser expand entities,
/// fetch files or default attributes, before any XML parser sees them.
///
/// TTML never needs a DOCTYPE. A bare `<!DOCTYPE tt>` (or one whose internal
/// subset only declares elements or notations) is allowed; one that references
/// an external DTD (`SYSTEM`/`PUBLIC`), declares entities (`<!ENTITY`, the
/// "billion laughs" and XXE attacks), uses parameter entities or declares
/// attribute lists (whose defaults would silently add attributes, `xmlns`
/// included) is refused with `CaptionError(.forbiddenDocumentType)`.
enum TTMLDocumentTypeGuard {
    static func check(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { p in
            var i = 0
            let xml = XMLBytes(p), n = p.count
            func line(_ k: Int) -> Int {
                var l = 1, j = 0
                while j < k && j < n { if p[j] == 0x0A { l += 1 }; j += 1 }
                return l
            }
            // The prolog: declaration, whitespace, comments and processing instructions.
            while i < n {
                if XMLBytes.isSpace(p[i]) { i += 1; continue }
                if xml.starts(i, "<?") { i = xml.skip(past: "?>", from: i + 2); continue }
                if xml.starts(i, "<!--") { i = xml.skip(past: "-->", from: i + 4); continue }
                break
            }
            guard xml.starts(i, "<!DOCTYPE") else { return }
            let doctypeLine = line(i)
            var j = i + 9
            // Name, then an optional external id, then an optional internal subset.
            while j < n, XMLBytes.isSpace(p[j]) { j += 1 }
            while j < n, !XMLBytes.isSpace(p[j]), p[j] != UInt8(ascii: "["), p[j] != UInt8(ascii: ">") { j += 1 }
            while j < n, XMLBytes.isSpace(p[j]) { j += 1 }
            if xml.starts(j, "SYSTEM") || xml.starts(j, "PUBLIC") {
                throw CaptionError(.forbiddenDocumentType, line: doctypeLine,
                                   message: "the DOCTYPE refers to an external DTD (SYSTEM/PUBLIC identifier); TTML needs none and external DTDs are never loaded: remove the DOCTYPE")
            }
            guard xml.at(j) == UInt8(ascii: "[") else { return }
            j += 1
            while j < n {
                let b = p[j]
                if XMLBytes.isSpace(b) { j += 1; continue }
                if b == UInt8(ascii: "]") { return }
                if xml.starts(j, "<!--") { j = xml.skip(past: "-->", from: j + 4); continue }
                if xml.starts(j, "<?") { j = xml.skip(past: "?>", from: j + 2); continue }
                if xml.starts(j, "<!ENTITY") {
                    throw CaptionError(.forbiddenDocumentType, line: line(j),
                                       message: "the DOCTYPE declares entities (<!ENTITY …>); entity declarations are refused because they enable entity-expansion (\"billion laughs\") and external-entity (XXE) attacks: remove the DOCTYPE")
                }
                if xml.starts(j, "<!ATTLIST") {
                    throw CaptionError(.forbiddenDocumentType, line: line(j),
                                       message: "the DOCTYPE declares attribute lists (<!ATTLIST …>), whose defaults would change the document unseen: remove the DOCTYPE")
                }
                if b == UInt8(ascii: "%") {
                    throw CaptionError(.forbiddenDocumentType, line: line(j),
                                       message: "the DOCTYPE uses parameter entities: remove the DOCTYPE")
                }
                if xml.starts(j, "<!") {
                    // <!ELEMENT …> or <!NOTATION …>: skip to '>' outside quotes.
                    var quote: UInt8 = 0
                    j += 2
                    while j < n {
                        let c = p[j]
                        if quote != 0 { if c == quote { quote = 0 } }
                        else if c == 0x22 || c == 0x27 { quote = c }
                        else if c == UInt8(ascii: ">") { break }
                        j += 1
                    }
                    j += 1
                    continue
                }
                return  // not a declaration: libxml2 reports the malformed DOCTYPE
            }
        }
    }
}
