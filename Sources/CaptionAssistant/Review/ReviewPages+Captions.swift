import Captions

/// The captions on a file's page, read from the written file: each cue's
/// times and text, styled as the file styles it.
extension ReviewPages {
    /// The most bytes of one cue's text (and markup) a page shows; the rest
    /// is cut, with a note: one huge cue must not make a huge page.
    static let cueTextLimit = 4096
    /// The most bytes of HTML a page's list of cues takes: the list stops at
    /// the cue that reaches it, with a note that says how many are shown.
    static let cueListByteLimit = 1 << 20

    /// The cues as a list: times, then the text from the parsed runs, with
    /// bold (the keyword emphasis), italic, underline and strike-through as
    /// the file styles them, line breaks kept, word timing tags
    /// (`<00:00:01.500>`) as small times, other markup that is not a plain
    /// style tag shown as written (dimmed), and the added emoji marked in the
    /// cue the report says it went on (`emoji.cue`, from 0).
    ///
    /// The page is bounded in cues (`limit`) and in bytes: a cue's text is
    /// cut after `cueTextLimit` bytes, and the list stops once it holds
    /// `cueListByteLimit` bytes; a note says what was left out, and links the file.
    static func cueList(_ w: inout HTMLWriter, _ document: CaptionDocument, emoji: (text: String, cue: Int)?, limit: Int,
                        output: String?, cueTextLimit: Int = cueTextLimit, byteLimit: Int = cueListByteLimit) {
        let cues = document.cues
        if cues.isEmpty {
            w.raw("<p class=\"muted\">The file has no cues.</p>\n")
            return
        }
        var list = HTMLWriter(capacity: min(byteLimit, 64 << 10) + 4096)
        list.raw("<ol class=\"cues\">\n")
        let emojiCue = emoji?.cue ?? -1
        let emojiBytes = emoji.map { Array($0.text.utf8) } ?? []
        var text: [UInt8] = []
        var shown = 0, cut = 0
        for i in 0..<min(cues.count, limit) {
            if list.bytes.count >= byteLimit { break }
            let cue = cues[i]
            list.raw("<li><time>")
            list.time(milliseconds: cue.start.roundedMilliseconds)
            list.raw(" → ")
            list.time(milliseconds: cue.end.roundedMilliseconds)
            list.raw("</time><span>")
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
            var left = cueTextLimit
            var isCut = false
            // Walked, not built: an SRT cue's text comes from its source bytes with no run or string made.
            cue.forEachRun { run in
                defer { index += 1 }
                if isCut { return }
                text.removeAll(keepingCapacity: true)
                run.appendText(to: &text)
                if text.count > left {
                    // Cut on a character's first byte, never inside one.
                    var end = left
                    while end > 0 && text[end] & 0xC0 == 0x80 { end -= 1 }
                    text.removeSubrange(end...)
                    isCut = true
                }
                left -= text.count
                switch run.kind {
                case .lineBreak:
                    list.raw("<br>")
                case .markup:
                    // A karaoke word's start (`<00:00:01.500>`) is timing: shown as a time, small, not as markup.
                    if let ms = text.withUnsafeBufferPointer(TimestampTag.milliseconds) {
                        list.raw("<time class=\"word\" title=\"this word is shown from this time (word timing)\">")
                        list.time(milliseconds: ms)
                        list.raw("</time>")
                    } else if !isStyleTag(text[...]) {
                        list.raw("<code class=\"markup\" title=\"markup kept as written in the file\">")
                        list.text(utf8: text[...])
                        list.raw("</code>")
                    }
                case .text:
                    var visibleEnd = text.count
                    if index == lastText { while visibleEnd > 0, AppendPoint.isSpace(text[visibleEnd - 1]) { visibleEnd -= 1 } }
                    let marked = !isCut && index == lastText && visibleEnd >= emojiBytes.count
                        && text[..<visibleEnd].suffix(emojiBytes.count).elementsEqual(emojiBytes)
                    let start = marked ? visibleEnd - emojiBytes.count : text.count
                    if start > 0 { styled(&list, run.style, text[..<start]) }
                    if marked {
                        list.raw("<mark class=\"emoji\" title=\"the emoji the assistant added\">")
                        list.text(utf8: text[start..<visibleEnd])
                        list.raw("</mark>")
                        if visibleEnd < text.count { styled(&list, run.style, text[visibleEnd...]) }
                    }
                }
            }
            if isCut {
                cut += 1
                list.raw(" <span class=\"muted\">… (cut here: this page shows the first ")
                list.number(cueTextLimit)
                list.raw(" bytes of a cue; the rest is in the file)</span>")
            }
            list.raw("</span></li>\n")
            shown += 1
        }
        list.raw("</ol>\n")
        if shown < cues.count || cut > 0 {
            w.raw("<p class=\"note\">")
            if shown < cues.count {
                w.raw("This page lists the first ")
                w.number(shown)
                w.raw(" of ")
                w.number(cues.count)
                w.raw(" cues")
                w.raw(shown < min(cues.count, limit) ? " (a page is kept under about " : "")
                if shown < min(cues.count, limit) {
                    w.number(byteLimit >> 20 > 0 ? byteLimit >> 20 : byteLimit)
                    w.raw(byteLimit >> 20 > 0 ? " MB of captions)" : " bytes of captions)")
                }
                w.raw(cut > 0 ? "; " : ". ")
            }
            if cut > 0 {
                w.number(cut)
                w.raw(cut == 1 ? " cue is cut after its first " : " cues are cut after their first ")
                w.number(cueTextLimit)
                w.raw(" bytes. ")
            }
            w.raw("The whole captions are in ")
            if let output, OutputFolder.safeParts(output) != nil {
                w.raw("<a href=\"")
                w.text(HTMLWriter.relativeURL(output, prefix: "../../"))
                w.raw("\">the file</a>.</p>\n")
            } else {
                w.raw("the file.</p>\n")
            }
        }
        w.fragment(list.bytes)
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
    static func formatName(_ format: CaptionFormat) -> String { format.name }
}
