/// Writes WebVTT documents: edits spliced into the source bytes, or cues
/// rendered from another format.
enum WebVTTWriter {
    /// The source bytes with `edits` spliced in: `<b>…</b>` around emphasis
    /// and escaped appended text; every other byte is copied as it came.
    ///
    /// Appended text goes where `AppendPoint` puts it, on the cue's last text line (line breaks in it
    /// become spaces, so it cannot split the cue). A cue with no text gets
    /// its appended text on a line of its own.
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) throws -> [UInt8] {
        splicer.apply(adjusted(edits, in: document), to: document)
    }

    /// `apply(_:to:)`'s bytes handed to `sink` in pieces as they are made
    /// (see `TextCueSplicer.apply(_:to:chunk:into:)`).
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument, into sink: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        splicer.apply(adjusted(edits, in: document), to: document, into: sink)
    }

    /// The splicer of WebVTT: `<b>` tags, escaped text, offsets mapped past character references.
    static let splicer = TextCueSplicer(
        open: Array("<b>".utf8), close: Array("</b>".utf8),
        escape: { escape($0) },
        rawOffset: { raw, offset, cursor in WebVTTEntities.rawOffset(raw, plainOffset: offset, cursor: &cursor) })

    /// `edits` with each appended text made to fit where it goes: line
    /// breaks made spaces, and a cue with no text given a line of its own.
    private static func adjusted(_ edits: [Int: CueEdit], in document: CaptionDocument) -> [Int: CueEdit] {
        let src = document.source.bytes
        var adjusted = edits
        for (index, edit) in edits {
            guard var extra = edit.appendedText, !extra.isEmpty, document.cues.indices.contains(index) else { continue }
            extra = String(extra.map { $0.isNewline ? " " : $0 })
            let cue = document.cues[index]
            if cue.textRange.isEmpty {
                let at = cue.textRange.lowerBound
                if at > 0, src[at - 1] == 0x0A || src[at - 1] == 0x0D {
                    // After the timing line's line ending: the text and a line ending of the same kind.
                    let crlf = at >= 2 && src[at - 2] == 0x0D && src[at - 1] == 0x0A
                    extra = extra.drop { $0 == " " } + (crlf ? "\r\n" : src[at - 1] == 0x0D ? "\r" : "\n")
                } else {
                    extra = "\n" + extra.drop { $0 == " " }
                }
            }
            // Touch the dictionary only when something changed (a write copies all the edits).
            if extra != edit.appendedText { adjusted[index]?.appendedText = extra }
        }
        return adjusted
    }

    /// Escapes text for WebVTT cue text: `&`, `<` and `>` become references.
    /// XML text content escapes the same way, so `TTMLWriter` uses it too.
    static func escape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            default: out.append(b)
            }
        }
        return out
    }

    /// Renders cues read from another format as a new WebVTT file (UTF-8, LF),
    /// with a `Language:` header line when a `language` is given.
    ///
    /// Identifiers are kept; times are written `HH:MM:SS.mmm`; settings only
    /// when the cues came from WebVTT. Bold, italic and underline are written
    /// as `<b>`, `<i>`, `<u>` from the runs' styles; other markup (SRT font
    /// tags, ASS override codes, unknown tags) is dropped, and `losses`
    /// gets one sentence per kind of thing dropped.
    static func render(_ cues: [Cue], from format: CaptionFormat, language: String? = nil, losses: inout [String]) -> [UInt8] {
        var out: [UInt8] = Array("WEBVTT\n".utf8)
        if let language { out.append(contentsOf: "Language: \(language)\n".utf8) }
        for cue in cues {
            out.append(0x0A)
            if let id = cue.identifier, !id.isEmpty {
                if id.contains("-->") || id.contains(where: \.isNewline) {
                    losses.append("Cue identifiers containing '-->' or a line break were dropped")
                } else {
                    out.append(contentsOf: id.utf8); out.append(0x0A)
                }
            }
            out.append(contentsOf: timestamp(cue.start, losses: &losses).utf8)
            out.append(contentsOf: " --> ".utf8)
            out.append(contentsOf: timestamp(cue.end, losses: &losses).utf8)
            if let settings = cue.settings, !settings.isEmpty {
                if format == .vtt {
                    out.append(0x20); out.append(contentsOf: settings.utf8)
                } else if format == .srt {
                    losses.append("SRT coordinates after the end time (X1 X2 Y1 Y2) were dropped")
                } else {
                    losses.append("Cue positions were dropped")
                }
            }
            out.append(0x0A)
            renderText(cue.runs, from: format, into: &out, losses: &losses)
        }
        return out
    }

    /// `HH:MM:SS.mmm`; negative times become zero and fractions of a millisecond are rounded.
    static func timestamp(_ time: CaptionTime, losses: inout [String]) -> String {
        if time < .zero {
            losses.append("Negative times were written as 00:00:00.000")
            return CaptionTime.zero.description
        }
        if 1000 % time.denominator != 0 {
            losses.append("Times were rounded to the nearest millisecond")
        }
        return time.description
    }

    private static func renderText(_ runs: [TextRun], from format: CaptionFormat, into out: inout [UInt8], losses: inout [String]) {
        var open: [(TextStyle, String)] = []   // open tags, outermost first
        var lineHasText = false, pendingBreak = false, droppedEmptyLine = false
        let tags: [(TextStyle, String)] = [(.bold, "b"), (.italic, "i"), (.underline, "u")]

        func setStyle(_ style: TextStyle, _ out: inout [UInt8], openNew: Bool = true) {
            // Close from the innermost tag down to the first one the new style lacks.
            if let firstGone = open.firstIndex(where: { !style.contains($0.0) }) {
                for (_, name) in open[firstGone...].reversed() { out.append(contentsOf: "</\(name)>".utf8) }
                open.removeSubrange(firstGone...)
            }
            for (s, name) in tags where openNew && style.contains(s) && !open.contains(where: { $0.0 == s }) {
                out.append(contentsOf: "<\(name)>".utf8); open.append((s, name))
            }
        }
        func lineBreak() {
            if lineHasText { pendingBreak = true; lineHasText = false } else { droppedEmptyLine = true }
        }
        func text(_ s: Substring, _ style: TextStyle, _ out: inout [UInt8]) {
            guard !s.isEmpty else { return }
            if pendingBreak {
                // Close what ends before the line break; open what starts after it.
                setStyle(style, &out, openNew: false)
                out.append(0x0A); pendingBreak = false
            }
            setStyle(style, &out)
            out.append(contentsOf: escape(String(s)))
            lineHasText = true
        }

        for run in runs {
            switch run.kind {
            case .lineBreak:
                lineBreak()
            case .text:
                if run.style.contains(.strikethrough) { losses.append("Strikethrough was dropped (WebVTT has no strikethrough tag)") }
                // Text from other formats may hold line breaks; an empty line would end the cue.
                var rest = Substring(run.text)
                while let nl = rest.firstIndex(where: \.isNewline) {
                    text(rest[..<nl], run.style, &out)
                    lineBreak()
                    rest = rest[rest.index(after: nl)...]
                }
                text(rest, run.style, &out)
            case .markup:
                if let loss = markupLoss(run.text, from: format) { losses.append(loss) }
            }
        }
        setStyle([], &out)
        if lineHasText || pendingBreak { out.append(0x0A) }
        if droppedEmptyLine && runs.contains(where: { $0.kind == .text && !$0.text.isEmpty }) {
            losses.append("Empty lines inside cue text were removed (a blank line ends a WebVTT cue)")
        }
    }

    /// The sentence for a dropped piece of markup, or nil when nothing is lost by dropping it.
    static func markupLoss(_ markup: String, from format: CaptionFormat) -> String? {
        if markup.hasPrefix("{") { return "ASS override codes such as {\\an8} were dropped" }
        guard markup.hasPrefix("<") else { return "Markup WebVTT cannot carry was dropped" }
        var name = markup.dropFirst().drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
        if name.isEmpty { name = "?" }
        switch name {
        case "b", "i", "u", "s", "strike": return nil   // carried by the run styles
        case "font": return format == .srt ? "SRT font colours, sizes and faces were dropped" : "Font tags were dropped"
        case "c", "v", "lang", "ruby", "rt": return "Class, voice, language and ruby tags were dropped"
        default:
            if markup.dropFirst().first?.isNumber == true { return "Timestamp tags were dropped" }
            return "Tags WebVTT does not know, such as <\(name)>, were dropped"
        }
    }
}
