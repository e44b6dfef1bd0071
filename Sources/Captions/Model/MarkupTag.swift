/// A tag in SRT or WebVTT cue text, read from its markup run: its name
/// (lower case, without classes or annotation) and whether it closes.
struct MarkupTag: Equatable, Sendable {
    /// The name: `i` for `<i>`, `</I>` and `<i.loud>`; `c` for `<c.yellow>`; `v` for `<v Roger>`.
    var name: String
    /// Whether it is a closing tag (`</i>`).
    var closing: Bool

    /// The tag `raw` is, or nil for markup that is not a named tag: an ASS
    /// override code (`{\an8}`) or a timestamp tag (`<00:00:01.000>`).
    init?(_ raw: String) {
        guard raw.hasPrefix("<") else { return nil }
        var body = raw.dropFirst()
        closing = body.hasPrefix("/")
        if closing { body = body.dropFirst() }
        let name = body.prefix { $0.isLetter || $0.isNumber }
        guard let first = name.first, first.isLetter else { return nil }
        self.name = name.lowercased()
    }
}
