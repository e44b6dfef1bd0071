extension CaptionDocument {
    /// The text a viewer reads, of every cue, as one string: the cues'
    /// `appendReadableText` (with `lineBreak` for the line breaks inside a
    /// cue) joined with `cueSeparator`, as `String(decoding:as: UTF8.self)`
    /// reads those bytes.
    ///
    /// Built as bytes and made a string once; an SRT cue's text is copied
    /// from the source with no run or string made for it.
    public func readableText(cueSeparator: UInt8 = 0x0A, lineBreak: UInt8 = 0x20) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(source.bytes.count)
        for index in cues.indices {
            if index > 0 { out.append(cueSeparator) }
            cues[index].appendReadableText(to: &out, lineBreak: lineBreak)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
