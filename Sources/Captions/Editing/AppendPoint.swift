/// Where text appended to a cue (the emoji) goes, and the style it takes.
///
/// The rule, the same walk for every format:
///
/// 1. The text goes one space after the cue's **last visible character**
///    (not a space, tab or line break): `dragon.   ` gets `dragon. 🎬   `,
///    and in a TTML paragraph whose text ends with a line break and
///    indentation (as `xml:space="preserve"` keeps them) it stays on the
///    text's last line. Whitespace after that character stays after the
///    appended text.
/// 2. It **keeps the style of the line it ends**: it goes inside the styling
///    that covers the whole last line, and after styling that marks only a
///    word or phrase of it.
///    - **TTML**: spans are elements, not markup runs, so the text goes inside
///      the innermost element holding the last visible character:
///      `<span style="textWhite">…affected.</span>` gets
///      `…affected. 🎬</span>`, so it keeps the span's background and colour
///      (EBU-TT-D and IMSC put the caption box's background on spans, one or
///      more per line, so any span the last character is in may carry it).
///    - **SRT and WebVTT**: after the last visible character come only
///      closing tags (or nothing). Each, innermost first, is stepped over
///      unless it closes a style tag (`b`, `i`, `u`, `s`, `font`, `c`) that
///      opened before the last line's first visible character, i.e. styling
///      that covers the whole line: `<i>Off screen.</i>` gets
///      `<i>Off screen. 🎬</i>`, `<font color="#ffff00">…</font>` and
///      `<c.yellow>…</c>` likewise, and `<i>one\ntwo</i>` (a pair opened on
///      an earlier line) too; but `We saw <i>Jaws</i>` gets
///      `We saw <i>Jaws</i> 🎬` (the title is italic, the caption is not),
///      and `<i>We saw <b>Jaws</b></i>` gets `<i>We saw <b>Jaws</b> 🎬</i>`.
///      A voice (`</v>`), language (`</lang>`) or ruby (`</ruby>`, `</rt>`)
///      span is not styling: it is stepped over, so the emoji is never read
///      as a ruby annotation; an unclosed `<v Roger>` or `<i>` simply goes on
///      to the end. Text after the last closing tag (`<i>Hi</i>.`) is the
///      last visible text, so the emoji follows it. Other markup after the
///      last visible character (an ASS override code such as `{\an8}`, a
///      timestamp tag, a stray opening tag) stays after the emoji.
///
/// When a cue has no visible text, the caller falls back on `visibleEnd` of
/// its whole text range (a WebVTT cue with no text gets a line of its own).
package struct AppendPoint: Equatable, Sendable {
    /// The index, in the cue's runs, of the run the text goes in or after.
    var run: Int
    /// The run's byte range in the document source.
    var source: Range<Int>
    /// A UTF-8 offset in that text run's text (just after its last visible
    /// character), or nil when the text goes just after the run (a closing
    /// tag that was stepped over).
    var utf8: Int?
    /// The style of the appended text, for a writer that renders runs.
    var style: TextStyle

    /// Style tags of SRT and WebVTT that a whole-line pair keeps the appended text inside.
    static let styleTags: Set<String> = ["b", "i", "u", "s", "font", "c"]

    /// The point in the runs that `walk` passes (`cue.forEachRun`, or a
    /// cue's `runs`), or nil when no run holds a visible character.
    static func find(_ walk: ((RunView) -> Void) -> Void) -> AppendPoint? {
        struct Fact { var kind: TextRun.Kind; var style: TextStyle; var source: Range<Int>; var visibleEnd: Int?; var tag: MarkupTag? }
        var facts: [Fact] = []
        var text: [UInt8] = []
        walk { run in
            var fact = Fact(kind: run.kind, style: run.style, source: run.source, visibleEnd: nil, tag: nil)
            switch run.kind {
            case .text:
                text.removeAll(keepingCapacity: true)
                run.appendText(to: &text)
                if let last = text.lastIndex(where: { !isSpace($0) }) { fact.visibleEnd = last + 1 }
            case .markup:
                // Only a finished tag (`</i>`, not a cut-off `</i`, which would swallow text put after it).
                let raw = run.text
                if raw.hasSuffix(">") { fact.tag = MarkupTag(raw) }
            case .lineBreak:
                break
            }
            facts.append(fact)
        }
        guard let last = facts.lastIndex(where: { $0.visibleEnd != nil }) else { return nil }
        // The last line's first visible text: a pair opened before it covers the whole line.
        var lineStart = last
        while lineStart > 0, facts[lineStart - 1].kind != .lineBreak { lineStart -= 1 }
        let firstVisible = facts[lineStart...last].firstIndex { $0.visibleEnd != nil } ?? last
        // Each closing tag after the last visible text, with where its pair opened.
        var open: [(name: String, at: Int)] = []
        var openedAt: [Int: Int] = [:]
        for i in facts.indices {
            guard let tag = facts[i].tag else { continue }
            if !tag.closing { open.append((tag.name, i)); continue }
            if let k = open.lastIndex(where: { $0.name == tag.name }) {
                if i > last { openedAt[i] = open[k].at }
                open.remove(at: k)
            }
        }
        var point = AppendPoint(run: last, source: facts[last].source, utf8: facts[last].visibleEnd, style: facts[last].style)
        var i = last + 1
        while i < facts.count {
            let fact = facts[i]
            if fact.kind == .text, fact.visibleEnd == nil { i += 1; continue }   // whitespace only
            guard fact.kind == .markup, let tag = fact.tag, tag.closing else { break }
            if styleTags.contains(tag.name), let opened = openedAt[i], opened < firstVisible { break }
            point = AppendPoint(run: i, source: fact.source, utf8: nil, style: fact.style)
            i += 1
        }
        return point
    }

    /// The end of `range` in `bytes` moved back over trailing spaces, tabs and
    /// line breaks: where appended text goes in a cue with no visible run.
    static func visibleEnd(of range: Range<Int>, in bytes: [UInt8]) -> Int {
        var end = min(range.upperBound, bytes.count)
        while end > range.lowerBound {
            guard isSpace(bytes[end - 1]) else { break }
            end -= 1
        }
        return end
    }

    /// A space, tab or line break: what the emoji is not put after (and what
    /// stays after it; the review finds the emoji by the same rule).
    @inline(__always)
    package static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
