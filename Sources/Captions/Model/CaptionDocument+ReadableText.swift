import Words

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

extension CaptionDocument {
    /// What is said in every cue, as one string: `readableText` without the
    /// speaker labels, sound and music descriptions and credit lines
    /// (`CueLineParts`), cues joined with `cueSeparator` and the lines of a
    /// cue with `lineBreak`. A cue with none of these is as `readableText`
    /// has it; one with some has its spaces made single and its lines trimmed.
    public func spokenText(cueSeparator: UInt8 = 0x0A, lineBreak: UInt8 = 0x20) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(source.bytes.count)
        var cue: [UInt8] = []
        for index in cues.indices {
            if index > 0 { out.append(cueSeparator) }
            cue.removeAll(keepingCapacity: true)
            cues[index].appendReadableText(to: &cue, lineBreak: 0x0A)
            cue.withUnsafeBufferPointer { text in
                let parts = CueLineParts.parts(in: text)
                if parts.isEmpty {
                    for b in text { out.append(b == 0x0A ? lineBreak : b) }
                } else {
                    CueLineParts.appendSpokenText(text, parts: parts, lineBreak: lineBreak, to: &out)
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
