/// The styling properties the TTML reader resolves (enough to know what is
/// bold, italic, underlined or struck through), each unset, on or off, so that
/// referential, chained, region and inline styles can be layered.
struct TTMLStyleState: Hashable, Sendable {
    var bold: Bool?
    var italic: Bool?
    var underline: Bool?
    var strikethrough: Bool?

    /// Lays `other`'s set properties over this one.
    mutating func overlay(_ other: TTMLStyleState) {
        if let v = other.bold { bold = v }
        if let v = other.italic { italic = v }
        if let v = other.underline { underline = v }
        if let v = other.strikethrough { strikethrough = v }
    }

    /// The model's style for text under this state.
    var textStyle: TextStyle {
        var style: TextStyle = []
        if bold == true { style.insert(.bold) }
        if italic == true { style.insert(.italic) }
        if underline == true { style.insert(.underline) }
        if strikethrough == true { style.insert(.strikethrough) }
        return style
    }

    /// Applies one `tts:` attribute (local name and decoded value); other styling attributes are ignored.
    mutating func apply(attribute name: String, value: String) {
        let tokens = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        switch name {
        case "fontWeight":
            if let t = tokens.first { bold = (t == "bold") }
        case "fontStyle":
            if let t = tokens.first { italic = (t == "italic" || t == "oblique") }
        case "textDecoration":
            for t in tokens {
                switch t {
                case "none": underline = false; strikethrough = false
                case "underline": underline = true
                case "noUnderline": underline = false
                case "lineThrough": strikethrough = true
                case "noLineThrough": strikethrough = false
                default: break
                }
            }
        default: break
        }
    }
}
