/// Writes SRT documents: edits spliced into the original bytes, or cues from
/// another format rendered as a fresh SRT file.
enum SRTWriter {
    /// The document's UTF-8 bytes with `edits` (keyed by cue index) spliced in:
    /// emphasis as `<b>…</b>`, appended text where `AppendPoint` puts it.
    /// Every byte outside the inserted ones is copied as it came.
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) throws -> [UInt8] {
        splicer.apply(edits, to: document)
    }

    /// `apply(_:to:)`'s bytes handed to `sink` in pieces as they are made
    /// (see `TextCueSplicer.apply(_:to:chunk:into:)`).
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument, into sink: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        splicer.apply(edits, to: document, into: sink)
    }

    /// The splicer of SRT. SRT has no character references: a text run's
    /// plain text is its raw bytes, except where a damaged UTF-8 file holds
    /// invalid bytes, which read as U+FFFD: `rawOffset` maps text offsets
    /// past those to raw bytes.
    static let splicer = TextCueSplicer(open: Array("<b>".utf8), close: Array("</b>".utf8),
                                                escape: { Array($0.utf8) }, rawOffset: { rawOffset($0, $1, &$2) })

    /// Maps a UTF-8 offset in a run's decoded text to its raw bytes when the raw
    /// bytes hold invalid UTF-8: each maximal invalid sequence decodes to U+FFFD
    /// (3 bytes), exactly as `String(decoding:as:)` does.
    static func rawOffset(_ raw: ArraySlice<UInt8>, _ plainOffset: Int) -> Int {
        var cursor = TextCueSplicer.OffsetCursor()
        return rawOffset(raw, plainOffset, &cursor)
    }

    /// `rawOffset(_:_:)` resumed from `cursor` (a scalar boundary already
    /// mapped) when it is not past `plainOffset`; the cursor is left at the
    /// last boundary reached, so offsets asked in order cost one walk in all.
    static func rawOffset(_ raw: ArraySlice<UInt8>, _ plainOffset: Int, _ cursor: inout TextCueSplicer.OffsetCursor) -> Int {
        if cursor.plain > plainOffset || cursor.raw > raw.count { cursor = TextCueSplicer.OffsetCursor() }
        // Valid UTF-8 from the cursor up to the offset (the usual case): the text is those bytes.
        let from = raw.startIndex + cursor.raw
        let end = min(raw.endIndex, from + max(0, plainOffset - cursor.plain))
        if raw[from..<end].withUnsafeBufferPointer(UTF8Repair.isValid) {
            cursor.plain += end - from
            cursor.raw = end - raw.startIndex
            return cursor.raw
        }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = raw[from...].makeIterator()
        var plain = cursor.plain, consumed = cursor.raw
        while plain < plainOffset {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): plain += scalar.count; consumed += scalar.count
            case .error(let length): plain += 3; consumed += length
            case .emptyInput:
                cursor = TextCueSplicer.OffsetCursor(plain: plain, raw: consumed)
                return consumed
            }
        }
        cursor = TextCueSplicer.OffsetCursor(plain: plain, raw: consumed)
        return consumed
    }

    /// Renders cues read from another format as SRT: cues numbered 1…n,
    /// `HH:MM:SS,mmm --> HH:MM:SS,mmm` (rounded to milliseconds; hours may pass 99),
    /// `<b> <i> <u> <s>` from the runs' styles, LF line endings and a blank line
    /// after every cue. What SRT cannot carry is named once in `losses`.
    static func render(_ cues: [Cue], from format: CaptionFormat, losses: inout [String]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(cues.count * 64)
        var dropped = SRTRenderLosses(format: format)
        for (index, cue) in cues.enumerated() {
            out.append(contentsOf: String(index + 1).utf8)
            out.append(0x0A)
            appendTime(cue.start, to: &out, dropped: &dropped)
            out.append(contentsOf: " --> ".utf8)
            appendTime(cue.end, to: &out, dropped: &dropped)
            if let settings = cue.settings, !settings.isEmpty {
                if format == .srt { out.append(0x20); out.append(contentsOf: settings.utf8) } else { dropped.settings = true }
            }
            if let id = cue.identifier, format != .srt, id != String(index + 1) { dropped.identifiers = true }
            out.append(0x0A)
            var text: [UInt8] = []
            appendText(cue.runs, to: &text, format: format, dropped: &dropped)
            if format != .srt { appendLines(of: text, to: &out, dropped: &dropped) } else { out.append(contentsOf: text) }
            out.append(contentsOf: [0x0A, 0x0A])
        }
        losses.append(contentsOf: dropped.sentences)
        return out
    }

    /// Appends cue text from another format line by line, so that it reads
    /// back as the same one cue: a blank line (which ends an SRT cue) is
    /// left out, and a `-->` (which makes a line a timing line, starting a
    /// new cue) is written `--›`.
    private static func appendLines(of text: [UInt8], to out: inout [UInt8], dropped: inout SRTRenderLosses) {
        guard !text.isEmpty else { return }
        var first = true
        for line in text.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0C }) {
                dropped.blankLines += 1
                continue
            }
            if !first { out.append(0x0A) }
            first = false
            var i = line.startIndex
            while i < line.endIndex {
                if line[i] == 0x2D, i + 2 < line.endIndex, line[i + 1] == 0x2D, line[i + 2] == 0x3E {
                    out.append(contentsOf: [0x2D, 0x2D, 0xE2, 0x80, 0xBA])   // "--›"
                    dropped.arrows += 1
                    i += 3
                    continue
                }
                out.append(line[i])
                i += 1
            }
        }
    }

    /// Appends a text run's bytes (from another format), writing a `<` or `{`
    /// that SRT would read as the start of a tag (`<i>`, `</b>`) or an ASS
    /// override code (`{\an8}`) as `‹` or `｛`: SRT has no way to escape them.
    private static func appendPlain(_ text: [UInt8], to out: inout [UInt8], dropped: inout SRTRenderLosses) {
        var i = 0
        while i < text.count {
            let b = text[i]
            if b == 0x3C, opensMarkup(text, i) {
                out.append(contentsOf: [0xE2, 0x80, 0xB9])   // ‹
                dropped.lessThan += 1
            } else if b == 0x7B, opensMarkup(text, i) {
                out.append(contentsOf: [0xEF, 0xBD, 0x9B])   // ｛
                dropped.braces += 1
            } else {
                out.append(b)
            }
            i += 1
        }
    }

    /// Whether the `<` or `{` at `i` could start SRT markup: `<` then an optional
    /// `/` and a letter, or `{\`, with no line end or other `<` before the
    /// closing `>` or `}` (the run's end counts as a possible close, since the
    /// next run may hold it).
    private static func opensMarkup(_ text: [UInt8], _ i: Int) -> Bool {
        var j = i + 1
        let close: UInt8
        if text[i] == 0x3C {
            if j < text.count, text[j] == 0x2F { j += 1 }
            guard j < text.count, (text[j] | 0x20) >= 0x61, (text[j] | 0x20) <= 0x7A else { return j >= text.count }
            close = 0x3E
        } else {
            guard j < text.count else { return false }
            guard text[j] == 0x5C else { return false }
            close = 0x7D
        }
        while j < text.count {
            let c = text[j]
            if c == close { return true }
            if c == 0x0A || c == 0x0D || (close == 0x3E && c == 0x3C) { return false }
            j += 1
        }
        return true
    }

    private static let tags: [(TextStyle, String)] = [(.bold, "b"), (.italic, "i"), (.underline, "u"), (.strikethrough, "s")]

    private static func appendText(_ runs: [TextRun], to out: inout [UInt8], format: CaptionFormat, dropped: inout SRTRenderLosses) {
        var open: [(TextStyle, String)] = []
        func move(to style: TextStyle) {
            // Close from the innermost tag down to the deepest one no longer wanted.
            if let deepest = open.firstIndex(where: { !style.contains($0.0) }) {
                while open.count > deepest {
                    let (_, name) = open.removeLast()
                    out.append(contentsOf: "</\(name)>".utf8)
                }
            }
            for (flag, name) in tags where style.contains(flag) && !open.contains(where: { $0.0 == flag }) {
                out.append(contentsOf: "<\(name)>".utf8)
                open.append((flag, name))
            }
        }
        for run in runs {
            switch run.kind {
            case .lineBreak:
                // Tags are closed at each line end and reopened as needed, so no tag spans a line.
                move(to: [])
                out.append(0x0A)
            case .text:
                guard !run.text.isEmpty else { continue }
                move(to: run.style)
                // A line ending inside a text run becomes a line break; no CR survives.
                var pendingCR = false
                var bytes = Array(run.text.utf8)
                if format != .srt {
                    var safe: [UInt8] = []
                    appendPlain(bytes, to: &safe, dropped: &dropped)
                    bytes = safe
                }
                for b in bytes {
                    if b == 0x0D { out.append(0x0A); pendingCR = true; continue }
                    if b == 0x0A {
                        if !pendingCR { out.append(0x0A) }
                        pendingCR = false
                        continue
                    }
                    pendingCR = false
                    out.append(b)
                }
            case .markup:
                if format == .srt {
                    // Style tags come back from the styles; other SRT markup (font, {\an8}) stays.
                    if !SRTRenderLosses.isStyleTag(run.text) {
                        move(to: run.style)
                        out.append(contentsOf: run.text.utf8)
                    }
                } else {
                    dropped.note(markup: run.text)
                }
            }
        }
        move(to: [])
    }

    private static func appendTime(_ time: CaptionTime, to out: inout [UInt8], dropped: inout SRTRenderLosses) {
        var ms = time.roundedMilliseconds
        if ms < 0 { ms = 0; dropped.negativeTimes = true }
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        func pad(_ v: Int64, _ width: Int) {
            let digits = String(v)
            for _ in digits.utf8.count..<max(width, digits.utf8.count) { out.append(0x30) }
            out.append(contentsOf: digits.utf8)
        }
        pad(h, 2); out.append(0x3A); pad(m, 2); out.append(0x3A); pad(s, 2); out.append(0x2C); pad(f, 3)
    }
}
