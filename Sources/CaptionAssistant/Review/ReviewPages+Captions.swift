import Captions

/// The captions on a file's page, read from the written file: each cue's
/// times and text, styled as the file styles it.
extension ReviewPages {
    /// The cues as a list: times, then the text from the parsed runs, with
    /// bold (the keyword emphasis), italic, underline and strike-through as
    /// the file styles them, line breaks kept, word timing tags
    /// (`<00:00:01.500>`) as small times, other markup that is not a plain
    /// style tag shown as written (dimmed), and the added emoji marked in the
    /// cue the report says it went on (`emoji.cue`, from 0).
    static func cueList(_ w: inout HTMLWriter, _ document: CaptionDocument, emoji: (text: String, cue: Int)?, limit: Int,
                        output: String?) {
        let cues = document.cues
        if cues.isEmpty {
            w.raw("<p class=\"muted\">The file has no cues.</p>\n")
            return
        }
        if cues.count > limit {
            w.raw("<p class=\"note\">This page lists the first ")
            w.number(limit)
            w.raw(" of ")
            w.number(cues.count)
            w.raw(" cues; the rest are in ")
            if let output, OutputFolder.safeParts(output) != nil {
                w.raw("<a href=\"")
                w.text(HTMLWriter.relativeURL(output, prefix: "../../"))
                w.raw("\">the file</a>.</p>\n")
            } else {
                w.raw("the file.</p>\n")
            }
        }
        w.raw("<ol class=\"cues\">\n")
        let emojiCue = emoji?.cue ?? -1
        let emojiBytes = emoji.map { Array($0.text.utf8) } ?? []
        var text: [UInt8] = []
        for i in 0..<min(cues.count, limit) {
            let cue = cues[i]
            w.raw("<li><time>")
            w.time(milliseconds: cue.start.roundedMilliseconds)
            w.raw(" → ")
            w.time(milliseconds: cue.end.roundedMilliseconds)
            w.raw("</time><span>")
            // The emoji is the last visible text of its cue, after one space; whitespace
            // after it stays after it (`AppendPoint`). Its run: the last text run with a visible character.
            var lastText = -1, index = 0
            if i == emojiCue, !emojiBytes.isEmpty {
                cue.forEachRun { run in
                    if run.kind == .text {
                        text.removeAll(keepingCapacity: true)
                        run.appendText(to: &text)
                        if text.contains(where: { !AppendPoint.isSpace($0) }) { lastText = index }
                    }
                    index += 1
                }
            }
            index = 0
            // Walked, not built: an SRT cue's text comes from its source bytes with no run or string made.
            cue.forEachRun { run in
                defer { index += 1 }
                text.removeAll(keepingCapacity: true)
                run.appendText(to: &text)
                switch run.kind {
                case .lineBreak:
                    w.raw("<br>")
                case .markup:
                    // A karaoke word's start (`<00:00:01.500>`) is timing: shown as a time, small, not as markup.
                    if let ms = text.withUnsafeBufferPointer(TimestampTag.milliseconds) {
                        w.raw("<time class=\"word\" title=\"this word is shown from this time (word timing)\">")
                        w.time(milliseconds: ms)
                        w.raw("</time>")
                    } else if !isStyleTag(text[...]) {
                        w.raw("<code class=\"markup\" title=\"markup kept as written in the file\">")
                        w.text(utf8: text[...])
                        w.raw("</code>")
                    }
                case .text:
                    var visibleEnd = text.count
                    if index == lastText { while visibleEnd > 0, AppendPoint.isSpace(text[visibleEnd - 1]) { visibleEnd -= 1 } }
                    let marked = index == lastText && visibleEnd >= emojiBytes.count
                        && text[..<visibleEnd].suffix(emojiBytes.count).elementsEqual(emojiBytes)
                    let start = marked ? visibleEnd - emojiBytes.count : text.count
                    if start > 0 { styled(&w, run.style, text[..<start]) }
                    if marked {
                        w.raw("<mark class=\"emoji\" title=\"the emoji the assistant added\">")
                        w.text(utf8: text[start..<visibleEnd])
                        w.raw("</mark>")
                        if visibleEnd < text.count { styled(&w, run.style, text[visibleEnd...]) }
                    }
                }
            }
            w.raw("</span></li>\n")
        }
        w.raw("</ol>\n")
    }

    static func styled(_ w: inout HTMLWriter, _ style: TextStyle, _ utf8: ArraySlice<UInt8>) {
        utf8.withUnsafeBufferPointer { styled(&w, style, $0) }
    }

    /// `styled` of the UTF-8 bytes `utf8`.
    static func styled(_ w: inout HTMLWriter, _ style: TextStyle, _ utf8: UnsafeBufferPointer<UInt8>) {
        if style.contains(.bold) { w.raw("<strong>") }
        if style.contains(.italic) { w.raw("<em>") }
        if style.contains(.underline) { w.raw("<u>") }
        if style.contains(.strikethrough) { w.raw("<s>") }
        w.text(utf8: utf8)
        if style.contains(.strikethrough) { w.raw("</s>") }
        if style.contains(.underline) { w.raw("</u>") }
        if style.contains(.italic) { w.raw("</em>") }
        if style.contains(.bold) { w.raw("</strong>") }
    }

    /// Whether `markup` is a tag whose effect the page already shows (as
    /// style) or that only structures the text: `b`, `i`, `u`, `s`, `c`, `v`,
    /// `lang`, `ruby`, `rt`, `span`, `br`, `p`, `font`, opening or closing.
    /// Such tags are not shown as written; any other markup is.
    static func isStyleTag(_ markup: ArraySlice<UInt8>) -> Bool {
        markup.withUnsafeBufferPointer { isStyleTag($0) }
    }

    /// `isStyleTag` of the UTF-8 bytes `p`.
    static func isStyleTag(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard p.count >= 2, p[0] == UInt8(ascii: "<") else { return false }
        var i = p[1] == UInt8(ascii: "/") ? 2 : 1
        let start = i
        var name: UInt64 = 0  // up to 8 lower-case ASCII letters, packed
        while i < p.count, i - start < 8 {
            let b = p[i] | 0x20
            guard b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") else { break }
            name = name << 8 | UInt64(b)
            i += 1
        }
        guard i > start, i < p.count else { return false }
        let next = p[i]
        // The name ends at a space, '.', '/', '>' (WebVTT classes and annotations, attributes, self-closing).
        guard next == 0x20 || next == 0x09 || next == UInt8(ascii: ".") || next == UInt8(ascii: "/") || next == UInt8(ascii: ">") else {
            return false
        }
        return styleTagNames.contains(name)
    }

    /// The names `isStyleTag` accepts, packed as it packs them.
    static let styleTagNames: Set<UInt64> = Set(["b", "i", "u", "s", "c", "v", "lang", "ruby", "rt", "span", "br", "p", "font"].map {
        $0.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    })

    /// The name a format is shown by.
    static func formatName(_ format: CaptionFormat) -> String {
        switch format {
        case .srt: return "SRT"
        case .vtt: return "WebVTT"
        case .ttml: return "TTML"
        }
    }
}
