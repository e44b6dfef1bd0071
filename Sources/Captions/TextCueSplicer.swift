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
        for index in edits.keys.sorted() {
            guard let edit = edits[index], document.cues.indices.contains(index) else { continue }
            let cue = document.cues[index]
            let runs = cue.runs
            // Insertions as (absolute byte offset, bytes); stable order for equal offsets.
            var inserts: [(at: Int, bytes: [UInt8], order: Int)] = []
            for (n, range) in edit.emphasis.enumerated() {
                guard runs.indices.contains(range.run) else { continue }
                let run = runs[range.run]
                guard run.kind == .text else { continue }
                let raw = src[run.source]
                let lo = run.source.lowerBound + map(raw, range.utf8.lowerBound, plainCount: run.text.utf8.count)
                let hi = run.source.lowerBound + map(raw, range.utf8.upperBound, plainCount: run.text.utf8.count)
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

    private func map(_ raw: ArraySlice<UInt8>, _ offset: Int, plainCount: Int) -> Int {
        if raw.count == plainCount { return offset }
        if let rawOffset { return rawOffset(raw, offset) }
        return Self.repairedOffset(raw, offset)
    }

    /// Maps a UTF-8 offset in `String(decoding: raw, as: UTF8.self)` to the offset
    /// in `raw`: they differ where invalid UTF-8 in `raw` became U+FFFD (3 bytes)
    /// in the run's text. Found by fuzzing (FuzzRegressionTests).
    static func repairedOffset(_ raw: ArraySlice<UInt8>, _ plainOffset: Int) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = raw.makeIterator()
        var rawAt = 0, plainAt = 0
        while plainAt < plainOffset {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar): rawAt += scalar.count; plainAt += scalar.count
            case .error(let length): rawAt += length; plainAt += 3
            case .emptyInput: return rawAt
            }
        }
        return rawAt
    }
}
