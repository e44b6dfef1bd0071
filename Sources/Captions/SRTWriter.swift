/// Writes SRT documents: edits spliced into the original bytes, or cues from
/// another format rendered as a fresh SRT file.
enum SRTWriter {
    /// The document's UTF-8 bytes with `edits` (keyed by cue index) spliced in:
    /// emphasis as `<b>…</b>`, appended text before the cue's last line ending.
    /// Every byte outside the inserted ones is copied as it came.
    static func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) throws -> [UInt8] {
        // SRT has no character references: a text run's plain text is its raw
        // bytes, except where a damaged UTF-8 file holds invalid bytes, which
        // read as U+FFFD: `rawOffset` maps text offsets past those to raw bytes.
        let splicer = TextCueSplicer(open: Array("<b>".utf8), close: Array("</b>".utf8),
                                     escape: { Array($0.utf8) }, rawOffset: rawOffset)
        return splicer.apply(edits, to: document)
    }

    /// Maps a UTF-8 offset in a run's decoded text to its raw bytes when the raw
    /// bytes hold invalid UTF-8: each maximal invalid sequence decodes to U+FFFD
    /// (3 bytes), exactly as `String(decoding:as:)` does.
    static func rawOffset(_ raw: ArraySlice<UInt8>, _ plainOffset: Int) -> Int {
        // ASCII up to the offset (the usual case): one byte per byte.
        let end = raw.startIndex + max(0, min(plainOffset, raw.count))
        if raw[raw.startIndex..<end].withUnsafeBufferPointer(ASCIIBytes.isASCII) { return end - raw.startIndex }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = raw.makeIterator()
        var plain = 0, consumed = 0
        while plain < plainOffset {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): plain += scalar.count; consumed += scalar.count
            case .error(let length): plain += 3; consumed += length
            case .emptyInput: return consumed
            }
        }
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
            appendText(cue.runs, to: &out, format: format, dropped: &dropped)
            out.append(contentsOf: [0x0A, 0x0A])
        }
        losses.append(contentsOf: dropped.sentences)
        return out
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
                for b in run.text.utf8 {
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
