extension StringProtocol {
    /// The text without the white space at either end that Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes on Linux (tab, the space
    /// separators, general category Zs, and U+200B ZERO WIDTH SPACE, which was
    /// one of them before Unicode 4.0.1), told by the scalars' own properties
    /// so that this module needs no more of Foundation than FoundationEssentials.
    func trimmingWhitespace() -> String {
        let scalars = Substring(self).unicodeScalars
        let isSpace = { (s: Unicode.Scalar) in
            s == "\t" || s == "\u{200B}" || s.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
