/// What rendering cues from another format as SRT had to leave out, counted
/// while rendering and told once per kind, in one place.
struct SRTRenderLosses {
    let format: CaptionFormat
    var settings = false
    var identifiers = false
    var negativeTimes = false
    /// Blank lines left out of cue text (a blank line ends an SRT cue).
    var blankLines = 0
    /// `-->` in cue text written `--›` (a line with `-->` is a timing line).
    var arrows = 0
    /// `<` and `{` in cue text written `‹` and `｛` (they would start a tag or an override code).
    var lessThan = 0
    var braces = 0
    /// Dropped markup, counted by tag name (or "other").
    var markup: [String: Int] = [:]

    init(format: CaptionFormat) { self.format = format }

    private var formatName: String { format.name }

    /// Whether `raw` is a `<b>`, `<i>`, `<u>` or `<s>` tag (opening or closing, any
    /// case): these are carried by run styles, so dropping the raw tag loses nothing.
    static func isStyleTag(_ raw: String) -> Bool {
        var u = Array(raw.utf8)
        guard u.count >= 3, u.first == 0x3C, u.last == 0x3E else { return false }
        u.removeFirst(); u.removeLast()
        if u.first == 0x2F { u.removeFirst() }
        // WebVTT allows classes on these tags: <b.loud>.
        let name = u.prefix { $0 != 0x2E && $0 != 0x20 && $0 != 0x09 }
        guard name.count == 1, let c = name.first else { return false }
        return [0x62, 0x69, 0x75, 0x73].contains(c | 0x20)
    }

    /// Counts one markup run that SRT cannot carry (style tags are not losses).
    mutating func note(markup raw: String) {
        if Self.isStyleTag(raw) { return }
        var u = Substring(raw)
        var name = "other"
        if u.hasPrefix("<") {
            u = u.dropFirst()
            if u.hasPrefix("/") { return }  // a closing tag: its opening tag was counted
            let n = u.prefix { $0.isLetter }
            if !n.isEmpty { name = n.lowercased() } else if u.first?.isNumber == true { name = "timestamp" }
        }
        markup[name, default: 0] += 1
    }

    /// One sentence per kind of loss, in a stable order.
    var sentences: [String] {
        var out: [String] = []
        if settings {
            out.append(format == .vtt ? "WebVTT cue settings (position, line, align) were dropped"
                                      : "\(formatName) cue positioning was dropped")
        }
        if identifiers { out.append("\(formatName) cue identifiers were dropped (SRT cues are numbered 1, 2, 3…)") }
        if negativeTimes { out.append("negative cue times were written as 00:00:00,000") }
        if blankLines > 0 {
            out.append("\(blankLines) empty line\(blankLines == 1 ? " was" : "s were") left out of cue text (a blank line ends an SRT cue)")
        }
        if arrows > 0 {
            out.append("\(arrows) '-->' in cue text \(arrows == 1 ? "was" : "were") written '--›' (SRT would read the line as a timing line and start a new cue)")
        }
        if lessThan > 0 {
            out.append("\(lessThan) '<' in cue text \(lessThan == 1 ? "was" : "were") written '‹' (SRT would read it as the start of a tag)")
        }
        if braces > 0 {
            out.append("\(braces) '{' in cue text \(braces == 1 ? "was" : "were") written '｛' (SRT would read '{\\' as an override code)")
        }
        let total = markup.values.reduce(0, +)
        if total > 0 {
            let names = markup.keys.sorted().joined(separator: ", ")
            out.append("\(total) \(formatName) tag\(total == 1 ? "" : "s") with no SRT equivalent (\(names)) \(total == 1 ? "was" : "were") dropped")
        }
        return out
    }
}
