extension CaptionDocument {
    /// The text a viewer reads, of every cue, as one string: the cues'
    /// `appendReadableText` (with `lineBreak` for the line breaks inside a
    /// cue) joined with `cueSeparator`, as `String(decoding:as: UTF8.self)`
    /// reads those bytes.
    ///
    /// For an SRT document the text is copied from the source in one pass,
    /// with no run, string or parser made per cue; lines are checked for valid
    /// UTF-8 only once, by the string made at the end. (Both separators must
    /// be ASCII for that; other separators take the cue-by-cue way.)
    public func readableText(cueSeparator: UInt8 = 0x0A, lineBreak: UInt8 = 0x20) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(source.bytes.count)
        let ascii = cueSeparator < 0x80 && lineBreak < 0x80
        source.bytes.withUnsafeBufferPointer { buffer in
            for index in cues.indices {
                if index > 0 { out.append(cueSeparator) }
                if ascii, let range = cues[index].sourceSRTRange(in: source.bytes) {
                    SRTReader.readableText(in: range, of: buffer, to: &out, lineBreak: lineBreak, repair: false)
                } else {
                    cues[index].appendReadableText(to: &out, lineBreak: lineBreak)
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Cue {
    /// The range of the cue text when its runs are still to be built by the
    /// SRT rules from `bytes` itself (the same array, not a copy); else nil.
    func sourceSRTRange(in bytes: [UInt8]) -> Range<Int>? {
        guard case .lazy(let lazy) = storage, case .srt = lazy.builder, lazy.range.upperBound <= bytes.count else { return nil }
        let same = lazy.bytes.withUnsafeBufferPointer { a in bytes.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        return same ? lazy.range : nil
    }
}
