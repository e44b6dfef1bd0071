#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes TTML documents: edits are spliced into the original bytes (so every
/// element, attribute, prefix, style, region, comment and the declaration
/// survive), and cues from other formats are rendered as a small clean document.
enum TTMLWriter {
    // MARK: - Editing in place

    /// One insertion, 24 bytes however many a large cue needs: where, its
    /// order among insertions at the same offset (closes, then opens, then
    /// appended text), and what, packed (`Insertion.Kind`, whether it lies in
    /// a CDATA section, and the scope or text it uses).
    private struct Insertion {
        enum Kind: UInt32 {
            /// An emphasis `span` opened, in scope `index`.
            case open
            /// An emphasis `span` closed, in scope `index`.
            case close
            /// The bytes `texts[index]` (inside a CDATA section, the section is closed around them).
            case text
            /// Text appended to an empty-element `<p …/>`: replaces `/>` with `>`, `texts[index]`, and the end tag `texts[index + 1]`.
            case closeEmptyParagraph
        }
        var at: Int
        var order: Int
        private var code: UInt64

        init(at: Int, order: Int, _ kind: Kind, index: Int, cdata: Bool = false) {
            self.at = at; self.order = order
            code = UInt64(kind.rawValue) | (cdata ? 4 : 0) | UInt64(index) << 3
        }

        var kind: Kind { Kind(rawValue: UInt32(code & 3)) ?? .text }
        var cdata: Bool { code & 4 != 0 }
        var index: Int { Int(code >> 3) }

        static func < (a: Insertion, b: Insertion) -> Bool { a.at != b.at ? a.at < b.at : a.order < b.order }
    }

    /// The document's bytes (UTF-8) with `edits` applied: emphasis as
    /// `<span tts:fontWeight="bold">` around the raw text, appended text where
    /// `AppendPoint` puts it (inside the span of the paragraph's last text),
    /// and the styling namespace declared on the root element when no prefix
    /// is bound to it where a span is added.
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) throws -> [UInt8] {
        var out: [UInt8] = []
        _ = try apply(edits, to: document, reserve: { out.reserveCapacity($0) }) { out.append(contentsOf: $0); return true }
        return out
    }

    /// `apply(_:to:)`'s bytes handed to `sink` in pieces, in order, as they
    /// are made: a stretch of the source of at least `chunk` bytes between
    /// insertions straight from the source, the rest gathered up to `chunk`
    /// bytes. `reserve` is told the whole output's size first. False as soon
    /// as `sink` returns false.
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument, chunk: Int = 1 << 18, reserve: (Int) -> Void = { _ in },
                      into sink: (UnsafeBufferPointer<UInt8>) -> Bool) throws -> Bool {
        guard case let .ttml(payload) = document.payload else {
            throw CaptionError(.unsupported, message: "this document was not read as TTML, so it cannot be edited as TTML")
        }
        let source = document.source.bytes
        var insertions: [Insertion] = []
        // Two per emphasis and one appended text per cue, the declaration: reserved once (a large cue's many are not regrown).
        insertions.reserveCapacity(edits.values.reduce(1) { $0 + 2 * $1.emphasis.count + 1 })
        /// The bytes of the text insertions (appended text, end tags, the declaration).
        var texts: [[UInt8]] = []
        var scopes = payload.scopes
        var scopeIndices: [TTMLPayload.Scope: Int] = [:]
        for (i, scope) in scopes.enumerated() where scopeIndices[scope] == nil { scopeIndices[scope] = i }
        var needsDeclaration = false

        for index in edits.keys.sorted() {
            guard let edit = edits[index], document.cues.indices.contains(index) else { continue }
            let cue = document.cues[index]
            // Build the runs once (they are built on demand), with per-run namespace
            // scopes where the paragraph redeclares namespaces inside.
            let runs: [TextRun]
            var runScopes: [Int: TTMLPayload.Scope] = [:]
            if payload.paragraphsWithInnerNamespaces.contains(index), let lazy = cue.lazyRuns,
               case let .ttml(context) = lazy.builder {
                (runs, runScopes) = TTMLReader.paragraphRuns(in: lazy.range, of: lazy.bytes, context: context)
            } else {
                runs = cue.runs
            }
            let cueStart = insertions.count
            // Emphasis already placed: while ranges come in text order, each is
            // checked against the last one only, and no list is kept (a large
            // cue's many would cost memory); the first one out of order makes the
            // list, sorted, from the insertions so far, and is found in it by binary search.
            var lastTaken: Range<Int>?
            var taken: [Range<Int>]?
            // Each run's offsets are mapped by one walk resumed from range to range (they come in text order).
            var cursorRun = -1
            var cursor: TTMLTextAlignment.Cursor?
            for (n, range) in edit.emphasis.enumerated() {
                guard runs.indices.contains(range.run) else { continue }
                let run = runs[range.run]
                guard run.kind == .text, !range.utf8.isEmpty,
                      run.source.lowerBound >= 0, run.source.upperBound <= source.count else { continue }
                let cdata = isCDATA(source, run.source.lowerBound)
                if cursorRun != range.run || cursor == nil {
                    cursorRun = range.run
                    cursor = TTMLTextAlignment.Cursor(raw: source[run.source], plain: run.text, cdata: cdata)
                }
                guard let lo = cursor?.rawOffset(range.utf8.lowerBound, side: .late),
                      let hi = cursor?.rawOffset(range.utf8.upperBound, side: .early),
                      lo < hi else { continue }
                let absolute = (run.source.lowerBound + lo)..<(run.source.lowerBound + hi)
                if taken == nil, lastTaken.map({ absolute.lowerBound >= $0.upperBound }) ?? true {
                    lastTaken = absolute
                } else {
                    // The cue's insertions so far are its open-close pairs, in text order.
                    var list = taken ?? stride(from: cueStart, to: insertions.count, by: 2).map { insertions[$0].at..<insertions[$0 + 1].at }
                    defer { taken = list }
                    guard Self.take(absolute, in: &list) else { continue }
                }
                var scope = runScopes[run.source.lowerBound] ?? payload.scope(cue: index, runStart: run.source.lowerBound)
                let scopeIndex: Int
                if scope.stylingPrefix == nil {
                    needsDeclaration = true
                    scope.stylingPrefix = payload.declarationPrefix
                }
                if let known = scopeIndices[scope] {
                    scopeIndex = known
                } else {
                    scopes.append(scope); scopeIndex = scopes.count - 1; scopeIndices[scope] = scopeIndex
                }
                // The open first: ranges in text order then need no sorting.
                insertions.append(Insertion(at: absolute.lowerBound, order: 2 * n + 1 + edit.emphasis.count * 2, .open, index: scopeIndex, cdata: cdata))
                insertions.append(Insertion(at: absolute.upperBound, order: 2 * n, .close, index: scopeIndex, cdata: cdata))
            }
            if let extra = edit.appendedText, !extra.isEmpty {
                texts.append(WebVTTWriter.escape(extra))
                if let name = payload.selfClosingParagraphs[index] {
                    texts.append(Array("</\(name)>".utf8))
                    insertions.append(Insertion(at: cue.textRange.upperBound, order: Int.max, .closeEmptyParagraph, index: texts.count - 2))
                } else {
                    let (at, cdata) = appendOffset(runs, cue: cue, source: source)
                    insertions.append(Insertion(at: at, order: Int.max, .text, index: texts.count - 1, cdata: cdata))
                }
            }
            Self.sortIfNeeded(&insertions, from: cueStart)
        }
        if needsDeclaration {
            texts.append(Array(" xmlns:\(payload.declarationPrefix)=\"\(escapeAttribute(payload.stylingURI))\"".utf8))
            insertions.insert(Insertion(at: payload.rootAttributesEnd, order: Int.min, .text, index: texts.count - 1), at: 0)
        }
        // Cues are in document order, but sort defensively (stable for equal offsets).
        Self.sortIfNeeded(&insertions, from: 0)

        let opens = scopes.map { scope -> [UInt8] in
            let element = scope.contentPrefix.isEmpty ? "span" : "\(scope.contentPrefix):span"
            return Array("<\(element) \(scope.stylingPrefix ?? payload.declarationPrefix):fontWeight=\"bold\">".utf8)
        }
        let closes = scopes.map { scope -> [UInt8] in
            Array("</\(scope.contentPrefix.isEmpty ? "span" : "\(scope.contentPrefix):span")>".utf8)
        }
        let endCDATA = Array("]]>".utf8), startCDATA = Array("<![CDATA[".utf8)

        /// What `insertion` writes, in bytes (at most: `closeEmptyParagraph` may write less).
        func length(_ insertion: Insertion) -> Int {
            let wrap = insertion.cdata ? endCDATA.count + startCDATA.count : 0
            switch insertion.kind {
            case .open: return opens[insertion.index].count + wrap
            case .close: return closes[insertion.index].count + wrap
            case .text: return texts[insertion.index].count
            case .closeEmptyParagraph: return 1 + texts[insertion.index].count + texts[insertion.index + 1].count
            }
        }
        // The exact size, so that a caller gathering the whole output never regrows (and copies) it.
        reserve(insertions.reduce(source.count) { $0 + length($1) })
        var out: [UInt8] = []
        out.reserveCapacity(min(chunk, source.count) + 64)
        var copied = 0
        /// Hands what `out` holds to the sink, and empties it.
        func flush() -> Bool {
            guard !out.isEmpty else { return true }
            defer { out.removeAll(keepingCapacity: true) }
            return out.withUnsafeBufferPointer(sink)
        }
        /// Writes `source[copied..<end]`: a long stretch straight from the source.
        func copySource(upTo end: Int) -> Bool {
            guard end > copied else { return true }
            if end - copied >= chunk {
                guard flush(), source.withUnsafeBufferPointer({ sink(UnsafeBufferPointer(rebasing: $0[copied..<end])) }) else { return false }
            } else {
                out.append(contentsOf: source[copied..<end])
            }
            copied = end
            return true
        }
        for insertion in insertions where insertion.at >= copied && insertion.at <= source.count {
            guard copySource(upTo: insertion.at) else { return false }
            if out.count >= chunk { guard flush() else { return false } }
            switch insertion.kind {
            case .open:
                if insertion.cdata { out.append(contentsOf: endCDATA) }
                out.append(contentsOf: opens[insertion.index])
                if insertion.cdata { out.append(contentsOf: startCDATA) }
            case .close:
                if insertion.cdata { out.append(contentsOf: endCDATA) }
                out.append(contentsOf: closes[insertion.index])
                if insertion.cdata { out.append(contentsOf: startCDATA) }
            case .text:
                if insertion.cdata { out.append(contentsOf: endCDATA) }
                out.append(contentsOf: texts[insertion.index])
                if insertion.cdata { out.append(contentsOf: startCDATA) }
            case .closeEmptyParagraph:
                // `<p …/>` → `<p …>text</p>`: skip the `/` (and keep the `>`).
                if copied < source.count, source[copied] == UInt8(ascii: "/") {
                    copied += 1
                    if copied < source.count, source[copied] == UInt8(ascii: ">") { copied += 1 }
                    out.append(UInt8(ascii: ">"))
                    out.append(contentsOf: texts[insertion.index])
                    out.append(contentsOf: texts[insertion.index + 1])
                } else {
                    out.append(contentsOf: texts[insertion.index])
                }
            }
        }
        return copySource(upTo: source.count) && flush()
    }

    /// Sorts `insertions[start...]` by offset, then order, keeping equal ones
    /// as they are, unless they already are in that order (as a cue's are
    /// when its emphasis comes in text order): no sort buffer for a large cue.
    private static func sortIfNeeded(_ insertions: inout [Insertion], from start: Int) {
        guard start < insertions.count else { return }
        let slice = insertions[start...]
        if zip(slice, slice.dropFirst()).allSatisfy({ !($1 < $0) }) { return }
        let sorted = slice.enumerated().sorted { $0.element < $1.element || (!($1.element < $0.element) && $0.offset < $1.offset) }.map(\.element)
        insertions.replaceSubrange(start..., with: sorted)
    }

    /// Where appended text goes in a paragraph (see `AppendPoint`: inside the
    /// innermost element holding its last visible character), and whether
    /// that is inside a CDATA section.
    private static func appendOffset(_ runs: [TextRun], cue: Cue, source: [UInt8]) -> (at: Int, cdata: Bool) {
        let fallback = (AppendPoint.visibleEnd(of: cue.textRange, in: source), false)
        guard let point = AppendPoint.find({ RunView.forEach(in: runs, $0) }), runs.indices.contains(point.run),
              point.source.lowerBound >= 0, point.source.upperBound <= source.count else { return fallback }
        guard let utf8 = point.utf8 else { return (point.source.upperBound, false) }
        let cdata = isCDATA(source, point.source.lowerBound)
        var cursor = TTMLTextAlignment.Cursor(raw: source[point.source], plain: runs[point.run].text, cdata: cdata)
        guard let raw = cursor.rawOffset(utf8, side: .early) else { return fallback }
        return (point.source.lowerBound + raw, cdata)
    }

    /// Adds `range` to `taken` (sorted, none overlapping) unless it overlaps one there.
    private static func take(_ range: Range<Int>, in taken: inout [Range<Int>]) -> Bool {
        guard let last = taken.last else { taken.append(range); return true }
        if range.lowerBound >= last.upperBound { taken.append(range); return true }
        // Out of order: the first taken range ending after `range` starts.
        var lo = 0, hi = taken.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if taken[mid].upperBound <= range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        if lo < taken.count, taken[lo].lowerBound < range.upperBound { return false }
        taken.insert(range, at: lo)
        return true
    }

    private static func isCDATA(_ source: [UInt8], _ start: Int) -> Bool {
        let marker = Array("<![CDATA[".utf8)
        guard start >= marker.count else { return false }
        return source[(start - marker.count)..<start].elementsEqual(marker)
    }

    /// Escapes an attribute value (double-quoted).
    static func escapeAttribute(_ text: String) -> String {
        var out: [UInt8] = []
        for b in WebVTTWriter.escape(text) {
            if b == UInt8(ascii: "\"") { out.append(contentsOf: "&quot;".utf8) } else { out.append(b) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Conversion

    /// A minimal TTML document for cues from another format: `tt` with
    /// `xml:lang` (`language`, or `und` when there is none), the parameter
    /// and styling namespaces, `body`/`div`/`p` with clock times, spans for
    /// bold/italic/underline/strikethrough and `br` for line breaks. What
    /// TTML cannot carry is listed in `losses`.
    static func render(_ cues: [Cue], from format: CaptionFormat, language: String? = nil, losses: inout [String]) -> [UInt8] {
        var s = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" \
        xmlns:tts="http://www.w3.org/ns/ttml#styling" ttp:timeBase="media" xml:lang="\(escapeAttribute(language ?? "und"))">
          <body>
            <div>

        """
        var usedIDs = Set<String>()
        var speakers: [String] = []
        for cue in cues {
            let runs = cue.runs
            var attributes = ""
            if let id = cue.identifier, !id.isEmpty {
                if format == .vtt, isNCName(id), usedIDs.insert(id).inserted {
                    attributes += " xml:id=\"\(escapeAttribute(id))\""
                } else if format == .vtt {
                    losses.append("WebVTT cue identifiers that are not valid XML names (or repeat) were dropped")
                } else if format == .srt {
                    losses.append("SRT cue numbers are not kept (TTML paragraphs are not numbered)")
                }
            }
            if cue.settings.map({ !$0.isEmpty }) == true {
                losses.append(format == .vtt ? "WebVTT cue settings (position, line, size, alignment, region) were dropped"
                                             : "SRT coordinates after the end time were dropped")
            }
            var start = cue.start, end = cue.end
            if start < .zero { start = .zero; losses.append("negative times were written as 00:00:00.000") }
            if end < .zero { end = .zero; losses.append("negative times were written as 00:00:00.000") }
            // Spaces that XML's default handling would collapse (runs of them, at a
            // line's edges, tabs) are kept with xml:space="preserve".
            var plain: [UInt8] = []
            RunView.forEach(in: runs) { $0.appendReadableText(to: &plain, lineBreak: 0x0A) }
            if needsPreserve(String(decoding: plain, as: UTF8.self)) { attributes += " xml:space=\"preserve\"" }
            s += "      <p begin=\"\(clock(start))\" end=\"\(clock(end))\"\(attributes)>"
            for run in runs {
                switch run.kind {
                case .lineBreak:
                    s += "<br/>"
                case .markup:
                    if let loss = markupLoss(run.text, from: format, speakers: &speakers) { losses.append(loss) }
                case .text:
                    let parts = run.text.split(separator: "\n", omittingEmptySubsequences: false)
                    for (i, part) in parts.enumerated() {
                        if i > 0 { s += "<br/>" }
                        guard !part.isEmpty else { continue }
                        let text = xmlText(String(part), losses: &losses)
                        let style = styleAttributes(run.style)
                        s += style.isEmpty ? text : "<span\(style)>\(text)</span>"
                    }
                }
            }
            s += "</p>\n"
        }
        if !speakers.isEmpty {
            let shown = speakers.prefix(10).joined(separator: ", ") + (speakers.count > 10 ? ", …" : "")
            losses.append("WebVTT voice tags were dropped, and with them the speaker names (\(shown))")
        }
        s += """
            </div>
          </body>
        </tt>

        """
        return Array(s.utf8)
    }

    /// Whether text has whitespace that XML's default handling would change:
    /// two in a row, a tab, or a space at the start or end.
    static func needsPreserve(_ text: String) -> Bool {
        var previousSpace = true
        for b in text.utf8 {
            if b == 0x09 { return true }
            if b == 0x0A { if previousSpace { return true }; previousSpace = true; continue }
            if b == 0x20 {
                if previousSpace { return true }
                previousSpace = true
            } else {
                previousSpace = false
            }
        }
        return previousSpace && !text.isEmpty
    }

    /// The sentence for markup from another format that TTML does not get, or
    /// nil when nothing is lost (b, i, u, s are carried by the run styles;
    /// closing tags were counted with their opening tag). A voice tag's
    /// speaker name is collected in `speakers` instead.
    static func markupLoss(_ raw: String, from format: CaptionFormat, speakers: inout [String]) -> String? {
        if raw.hasPrefix("{") { return "ASS override codes such as {\\an8} were dropped" }
        guard raw.hasPrefix("<"), !raw.hasPrefix("</") else { return nil }
        let body = raw.dropFirst().dropLast(raw.hasSuffix(">") ? 1 : 0)
        let name = body.prefix { $0.isLetter || $0.isNumber }.lowercased()
        let source = format == .srt ? "SRT" : "WebVTT"
        switch name {
        case "b", "i", "u", "s": return nil
        case "font": return "\(source) font colours, sizes and faces were dropped; their text was kept"
        case "v":
            let speaker = body.drop { $0 != " " && $0 != "\t" }.trimmingWhitespace()
            if !speaker.isEmpty, !speakers.contains(speaker) { speakers.append(speaker) }
            return speaker.isEmpty ? "WebVTT voice tags were dropped" : nil
        case "c": return "WebVTT class tags (<c>) were dropped; their text was kept"
        case "lang": return "WebVTT language tags (<lang>) were dropped; their text was kept"
        case "ruby", "rt": return nil   // the reading is kept in parentheses (ConversionLosses)
        case "": return body.first?.isNumber == true ? "\(source) timestamp tags (karaoke timing) were dropped" : "\(source) tags TTML does not know were dropped"
        default:
            if body.first?.isNumber == true { return "\(source) timestamp tags (karaoke timing) were dropped" }
            return "\(source) tags with no TTML equivalent (such as <\(name)>) were dropped; their text was kept"
        }
    }

    private static func styleAttributes(_ style: TextStyle) -> String {
        var s = ""
        if style.contains(.bold) { s += " tts:fontWeight=\"bold\"" }
        if style.contains(.italic) { s += " tts:fontStyle=\"italic\"" }
        var decorations: [String] = []
        if style.contains(.underline) { decorations.append("underline") }
        if style.contains(.strikethrough) { decorations.append("lineThrough") }
        if !decorations.isEmpty { s += " tts:textDecoration=\"\(decorations.joined(separator: " "))\"" }
        return s
    }

    /// Escaped text with characters XML 1.0 cannot hold (most C0 controls) left out.
    private static func xmlText(_ text: String, losses: inout [String]) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if (v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D) || v == 0xFFFE || v == 0xFFFF {
                losses.append("control characters that XML cannot hold were dropped")
                continue
            }
            kept.append(scalar)
        }
        return String(decoding: WebVTTWriter.escape(String(kept)), as: UTF8.self)
    }

    /// `HH:MM:SS.mmm` (hours grow past two digits when needed).
    static func clock(_ time: CaptionTime) -> String {
        let ms = max(0, time.roundedMilliseconds)
        let h = ms / 3_600_000, m = ms / 60_000 % 60, sec = ms / 1000 % 60, f = ms % 1000
        func pad(_ v: Int64, _ width: Int) -> String {
            let t = String(v)
            return String(repeating: "0", count: max(0, width - t.count)) + t
        }
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(sec, 2)).\(pad(f, 3))"
    }

    /// Whether `name` is an XML NCName (a valid `xml:id`).
    static func isNCName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        func isStart(_ c: Unicode.Scalar) -> Bool {
            c == "_" || ("A"..."Z").contains(c) || ("a"..."z").contains(c) || (c.value >= 0xC0 && c.value != 0xD7 && c.value != 0xF7 && c.value < 0x2000 && !(0x300...0x36F).contains(c.value) && c.value != 0x37E)
                || (0x2070...0x218F).contains(c.value) || (0x2C00...0x2FEF).contains(c.value) || (0x3001...0xD7FF).contains(c.value)
                || (0xF900...0xFDCF).contains(c.value) || (0xFDF0...0xFFFD).contains(c.value) || (0x10000...0xEFFFF).contains(c.value)
        }
        func isName(_ c: Unicode.Scalar) -> Bool {
            isStart(c) || c == "-" || c == "." || ("0"..."9").contains(c) || c.value == 0xB7
                || (0x0300...0x036F).contains(c.value) || (0x203F...0x2040).contains(c.value)
        }
        return isStart(first) && name.unicodeScalars.dropFirst().allSatisfy(isName)
    }
}
