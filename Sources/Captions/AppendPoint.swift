/// Where text appended to a cue (the emoji) goes in the source bytes.
enum AppendPoint {
    /// The end of `range` in `bytes` moved back over trailing spaces, tabs and
    /// line breaks, so appended text follows the cue's last visible character:
    /// `dragon.   ` gets `dragon. 🎬   `, not `dragon.    🎬`, and in a TTML
    /// paragraph whose text ends with a line break and indentation (as
    /// `xml:space="preserve"` keeps them) it stays on the text's last line.
    /// The whitespace itself is kept, after the appended text.
    static func visibleEnd(of range: Range<Int>, in bytes: [UInt8]) -> Int {
        var end = min(range.upperBound, bytes.count)
        while end > range.lowerBound {
            let byte = bytes[end - 1]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { break }
            end -= 1
        }
        return end
    }
}
