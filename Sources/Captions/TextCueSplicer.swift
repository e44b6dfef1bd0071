/// Splices edits into the source bytes of SRT and WebVTT documents: bytes
/// between edited cues are copied as they are, and inside an edited cue only
/// the emphasis tags and appended text are inserted.
struct TextCueSplicer {
    /// The tag opening an emphasis, e.g. `<b>`.
    var open: [UInt8]
    /// The tag closing an emphasis, e.g. `</b>`.
    var close: [UInt8]
    /// Escapes appended plain text for the format.
    var escape: (String) -> [UInt8]
    /// Maps a UTF-8 offset in a text run's plain text to the offset in its raw
    /// bytes (they differ when the raw text holds entities). `nil` means identity.
    var rawOffset: ((_ raw: ArraySlice<UInt8>, _ plainOffset: Int) -> Int)?

    func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) -> [UInt8] {
        let src = document.source.bytes
        var out = [UInt8]()
        out.reserveCapacity(src.count + edits.count * 16)
        var copied = 0
        // Edits touching most cues: walk the cues in order rather than sort the keys.
        let order: [Int] = edits.count * 4 >= document.cues.count
            ? Array(document.cues.indices) : edits.keys.sorted()
        // Insertions as (absolute byte offset, bytes); stable order for equal offsets.
        var inserts: [(at: Int, bytes: [UInt8], order: Int)] = []
        for index in order {
            guard let edit = edits[index], !edit.isEmpty, document.cues.indices.contains(index) else { continue }
            let cue = document.cues[index]
            // Only each run's kind and source bytes are needed: no run text is made for SRT.
            let runs = edit.emphasis.isEmpty ? [] : cue.runOutlines()
            inserts.removeAll(keepingCapacity: true)
            for (n, range) in edit.emphasis.enumerated() {
                guard runs.indices.contains(range.run) else { continue }
                let run = runs[range.run]
                guard run.kind == .text else { continue }
                let raw = src[run.source]
                let lo = run.source.lowerBound + map(raw, range.utf8.lowerBound)
                let hi = run.source.lowerBound + map(raw, range.utf8.upperBound)
                inserts.append((hi, close, 2 * n))
                inserts.append((lo, open, 2 * n + 1))
            }
            if let extra = edit.appendedText, !extra.isEmpty {
                inserts.append((cue.textRange.upperBound, escape(extra), Int.max))
            }
            inserts.sort { $0.at != $1.at ? $0.at < $1.at : $0.order < $1.order }
            for ins in inserts where ins.at >= copied {
                out.append(contentsOf: src[copied..<ins.at])
                out.append(contentsOf: ins.bytes)
                copied = ins.at
            }
        }
        out.append(contentsOf: src[copied...])
        return out
    }

    private func map(_ raw: ArraySlice<UInt8>, _ offset: Int) -> Int {
        // A format's mapper always decides: equal lengths do not mean equal
        // offsets (WebVTT: "&amp;" is 5 bytes for 1, a NUL 1 byte for U+FFFD's 3,
        // so they can balance out; found by fuzzing, see FuzzRegressionTests).
        guard let rawOffset else { return offset }
        return rawOffset(raw, offset)
    }
}
