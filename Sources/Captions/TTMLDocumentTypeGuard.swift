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
            let n = p.count
            func at(_ k: Int) -> UInt8 { k < n ? p[k] : 0 }
            func starts(_ k: Int, _ s: String) -> Bool {
                var j = k
                for b in s.utf8 { if at(j) != b { return false }; j += 1 }
                return true
            }
            func line(_ k: Int) -> Int {
                var l = 1, j = 0
                while j < k && j < n { if p[j] == 0x0A { l += 1 }; j += 1 }
                return l
            }
            func skip(past end: String, from k: Int) -> Int {
                var j = k
                while j < n { if starts(j, end) { return j + end.utf8.count }; j += 1 }
                return n
            }
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
            // The prolog: declaration, whitespace, comments and processing instructions.
            while i < n {
                if isSpace(p[i]) { i += 1; continue }
                if starts(i, "<?") { i = skip(past: "?>", from: i + 2); continue }
                if starts(i, "<!--") { i = skip(past: "-->", from: i + 4); continue }
                break
            }
            guard starts(i, "<!DOCTYPE") else { return }
            let doctypeLine = line(i)
            var j = i + 9
            // Name, then an optional external id, then an optional internal subset.
            while j < n, isSpace(p[j]) { j += 1 }
            while j < n, !isSpace(p[j]), p[j] != UInt8(ascii: "["), p[j] != UInt8(ascii: ">") { j += 1 }
            while j < n, isSpace(p[j]) { j += 1 }
            if starts(j, "SYSTEM") || starts(j, "PUBLIC") {
                throw CaptionError(.forbiddenDocumentType, line: doctypeLine,
                                   message: "the DOCTYPE refers to an external DTD (SYSTEM/PUBLIC identifier); TTML needs none and external DTDs are never loaded: remove the DOCTYPE")
            }
            guard at(j) == UInt8(ascii: "[") else { return }
            j += 1
            while j < n {
                let b = p[j]
                if isSpace(b) { j += 1; continue }
                if b == UInt8(ascii: "]") { return }
                if starts(j, "<!--") { j = skip(past: "-->", from: j + 4); continue }
                if starts(j, "<?") { j = skip(past: "?>", from: j + 2); continue }
                if starts(j, "<!ENTITY") {
                    throw CaptionError(.forbiddenDocumentType, line: line(j),
                                       message: "the DOCTYPE declares entities (<!ENTITY …>); entity declarations are refused because they enable entity-expansion (\"billion laughs\") and external-entity (XXE) attacks: remove the DOCTYPE")
                }
                if starts(j, "<!ATTLIST") {
                    throw CaptionError(.forbiddenDocumentType, line: line(j),
                                       message: "the DOCTYPE declares attribute lists (<!ATTLIST …>), whose defaults would change the document unseen: remove the DOCTYPE")
                }
                if b == UInt8(ascii: "%") {
                    throw CaptionError(.forbiddenDocumentType, line: line(j),
                                       message: "the DOCTYPE uses parameter entities: remove the DOCTYPE")
                }
                if starts(j, "<!") {
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
