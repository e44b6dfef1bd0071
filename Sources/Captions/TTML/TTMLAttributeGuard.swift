/// Refuses, before libxml2 sees the document, a start tag with an absurd
/// number of attributes: libxml2 checks each new attribute against the ones
/// before it, so 100,000 attributes on one element cost seconds, and every
/// declaration among them is a namespace binding the scanner has to keep.
/// Real caption documents put a few dozen attributes on an element at most.
///
/// One linear pass: comments, CDATA sections, processing instructions and the
/// DOCTYPE are skipped; in a tag, each `=` outside a quoted value counts one
/// attribute.
enum TTMLAttributeGuard {
    /// The most attributes (namespace declarations included) one start tag may have.
    static let maximumAttributes = 1_000

    static func check(_ bytes: [UInt8]) throws {
        let refused: Int? = bytes.withUnsafeBufferPointer { p in
            let xml = XMLBytes(p), n = p.count
            var i = 0
            while i < n {
                guard p[i] == UInt8(ascii: "<") else { i += 1; continue }
                if xml.starts(i, "<!--") { i = xml.skip(past: "-->", from: i + 4); continue }
                if xml.starts(i, "<![CDATA[") { i = xml.skip(past: "]]>", from: i + 9); continue }
                if xml.starts(i, "<?") { i = xml.skip(past: "?>", from: i + 2); continue }
                if xml.starts(i, "<!") || xml.starts(i, "</") { i = xml.skip(past: ">", from: i + 2); continue }
                // A start tag: count `=` outside quotes up to its `>`.
                let lt = i
                var count = 0
                var quote: UInt8 = 0
                i += 1
                while i < n {
                    let b = p[i]
                    if quote != 0 {
                        if b == quote { quote = 0 }
                    } else if b == 0x22 || b == 0x27 {
                        quote = b
                    } else if b == UInt8(ascii: "=") {
                        count += 1
                        if count > maximumAttributes { return lt }
                    } else if b == UInt8(ascii: ">") || b == UInt8(ascii: "<") {
                        break
                    }
                    i += 1
                }
            }
            return nil
        }
        guard let at = refused else { return }
        var line = 1
        for k in 0..<min(at, bytes.count) where bytes[k] == 0x0A { line += 1 }
        throw CaptionError(.tooLarge, line: line,
                           message: "an element has more than \(maximumAttributes) attributes; no caption document needs that")
    }
}
