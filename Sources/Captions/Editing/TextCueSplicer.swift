/// Splices edits into the source bytes of SRT and WebVTT documents: bytes
/// between edited cues are copied as they are, and inside an edited cue only
/// the emphasis tags and appended text are inserted.
struct TextCueSplicer: Sendable {
    /// The tag opening an emphasis, e.g. `<b>`.
    var open: [UInt8]
    /// The tag closing an emphasis, e.g. `</b>`.
    var close: [UInt8]
    /// Escapes appended plain text for the format.
    var escape: @Sendable (String) -> [UInt8]
    /// Maps a UTF-8 offset in a text run's plain text to the offset in its raw
    /// bytes (they differ when the raw text holds entities), starting from
    /// `cursor` (a unit boundary already mapped in the same run) when it is not
    /// past the offset, and leaving the cursor at the last boundary it reached.
    /// `nil` means identity.
    ///
    /// Emphasis ranges come in text order, so each run is walked once in all,
    /// however many occurrences it holds: the cost is linear, not the
    /// occurrences times the run's length.
    var rawOffset: (@Sendable (_ raw: ArraySlice<UInt8>, _ plainOffset: Int, _ cursor: inout OffsetCursor) -> Int)?

    /// A place in a text run already mapped: a plain-text offset and the raw
    /// offset (relative to the run's start) of the same unit boundary.
    struct OffsetCursor {
        var plain = 0
        var raw = 0
    }

    /// One insertion: where (an absolute byte offset) and its place among the
    /// cue's insertions at the same offset (`2n` closes emphasis `n`, `2n + 1`
    /// opens it, `Int.max` is the appended text), which also says what to insert.
    private struct Insert {
        var at: Int
        var order: Int
        @inline(__always)
        static func < (a: Insert, b: Insert) -> Bool { a.at != b.at ? a.at < b.at : a.order < b.order }
    }

    /// The document's bytes with `edits` spliced in, whole.
    func apply(_ edits: [Int: CueEdit], to document: CaptionDocument) -> [UInt8] {
        var out = [UInt8]()
        // At least the exact size (escaping appended text can at most make it 6 times longer), so the
        // output of a large cue is never regrown, and copied, as it is written.
        out.reserveCapacity(edits.values.reduce(document.source.bytes.count) {
            $0 + $1.emphasis.count * (open.count + close.count) + 6 * ($1.appendedText?.utf8.count ?? 0)
        })
        _ = apply(edits, to: document) { out.append(contentsOf: $0); return true }
        return out
    }

    /// The output of `apply(_:to:chunk:into:)` as it is made: the bytes
    /// gathered since the last handed on, and how much of the source is
    /// written. Its bytes are in memory it allocates and grows itself (each
    /// piece copied in at once: an array's generic append cost more than the
    /// few bytes of a tag), freed by `deallocate()`; a value written through
    /// `inout` (a local function capturing the state had each write checked
    /// for exclusive access as the program ran).
    private struct Output {
        let source: UnsafeBufferPointer<UInt8>
        private var base: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        /// How many bytes are gathered.
        private(set) var count = 0
        /// How much of the source is written.
        var copied = 0

        init(source: UnsafeBufferPointer<UInt8>, chunk: Int) {
            self.source = source
            capacity = max(chunk, 64)
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        }

        /// The bytes gathered (valid until the next change).
        var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

        /// Appends `piece`, growing the memory when it is full.
        mutating func append(_ piece: UnsafeBufferPointer<UInt8>) {
            guard let from = piece.baseAddress, !piece.isEmpty else { return }
            if count + piece.count > capacity {
                let larger = max(capacity * 2, count + piece.count)
                let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
                moved.initialize(from: base, count: count)
                base.deallocate()
                base = moved
                capacity = larger
            }
            (base + count).initialize(from: from, count: piece.count)
            count += piece.count
        }

        /// Keeps only the first `n` bytes gathered.
        mutating func removeAll(after n: Int) { count = min(count, max(n, 0)) }

        /// Copies the source up to `at` and writes `inserted` there (nothing for an offset already passed).
        mutating func insert(_ inserted: [UInt8], at: Int) {
            guard at >= copied && at <= source.count else { return }
            append(UnsafeBufferPointer(rebasing: source[copied..<at]))
            inserted.withUnsafeBufferPointer { append($0) }
            copied = at
        }

        /// Frees the memory (the value is not used after).
        func deallocate() { base.deallocate() }
    }

    /// The bytes `apply(_:to:)` returns, handed to `sink` in pieces, in
    /// order, as they are made: a stretch of the source between edited cues
    /// goes to it as it lies in the source, and the edited cues' bytes are
    /// gathered in a buffer of about `chunk` bytes (plus one cue), so the
    /// whole output is never held. False as soon as `sink` returns false.
    func apply(_ edits: [Int: CueEdit], to document: CaptionDocument, chunk: Int = 1 << 18,
               into sink: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let src = document.source.bytes
        // The edited cues in index order: each key with its place in the
        // dictionary, sorted, so no key is hashed again.
        var order: [(key: Int, slot: Dictionary<Int, CueEdit>.Index)] = []
        order.reserveCapacity(edits.count)
        var slot = edits.startIndex
        while slot != edits.endIndex {
            order.append((edits[slot].key, slot))
            edits.formIndex(after: &slot)
        }
        order.sort { $0.key < $1.key }
        // Reused for every cue: its run outlines and its insertions.
        var runs: [RunOutline] = []
        var inserts: [Insert] = []
        return document.cues.withUnsafeBufferPointer { cues in
            src.withUnsafeBufferPointer { source in
                var w = Output(source: source, chunk: chunk)
                defer { w.deallocate() }
                /// Hands what `w` holds to the sink, and empties it.
                func flush(_ w: inout Output) -> Bool {
                    guard w.count > 0 else { return true }
                    defer { w.removeAll(after: 0) }
                    return sink(w.bytes)
                }
                for (index, slot) in order {
                    guard cues.indices.contains(index) else { continue }
                    let edit = edits[slot].value
                    guard !edit.isEmpty else { continue }
                    // Every insertion into a cue lies in its text (its runs' source, its
                    // append point), so the source up to the text goes out as it is: a
                    // long stretch of unedited cues straight from the source.
                    let textStart = min(cues[index].textRange.lowerBound, source.count)
                    if textStart - w.copied >= chunk {
                        guard flush(&w), sink(UnsafeBufferPointer(rebasing: source[w.copied..<textStart])) else { return false }
                        w.copied = textStart
                    } else if w.count >= chunk {
                        guard flush(&w) else { return false }
                    }
                    // Only each run's kind and source bytes are needed: no run text is made for SRT.
                    // Where the runs are the cue's lines, an offset in a run's text is one in its bytes.
                    runs.removeAll(keepingCapacity: true)
                    let lines = !edit.emphasis.isEmpty && cues[index].appendRunOutlines(to: &runs)
                    var extra: [UInt8] = []
                    var appendPoint: Int?
                    if let text = edit.appendedText, !text.isEmpty {
                        extra = escape(text)
                        appendPoint = appendOffset(cues[index], src)
                    }
                    var appendAt = appendPoint
                    // Emphasis in text order (as `KeywordEmphasis` gives it) is written as it is
                    // mapped, with no list of insertions: a long cue's many occurrences cost no
                    // memory beyond the output. Out of order, the cue is written again from a sorted list
                    // (its bytes are all still in `w.bytes`: they are handed on only between cues).
                    let cueOutput = w.count, cueCopied = w.copied
                    var inOrder = true
                    var lastClose = -1
                    var cursorRun = -1
                    var cursor = OffsetCursor()
                    for n in edit.emphasis.indices {
                        guard let (lo, hi) = mapped(edit.emphasis[n], runs, src, lines, &cursorRun, &cursor) else { continue }
                        // Sorted by offset, then closes (2n) before opens (2n + 1) before the appended text.
                        guard lo >= lastClose, hi > lo else { inOrder = false; break }
                        if let at = appendAt, at < lo { w.insert(extra, at: at); appendAt = nil }
                        w.insert(open, at: lo)
                        if let at = appendAt, at < hi { w.insert(extra, at: at); appendAt = nil }
                        w.insert(close, at: hi)
                        lastClose = hi
                    }
                    if inOrder {
                        if let at = appendAt { w.insert(extra, at: at) }
                        continue
                    }
                    w.removeAll(after: cueOutput)
                    w.copied = cueCopied
                    inserts.removeAll(keepingCapacity: true)
                    cursorRun = -1
                    for n in edit.emphasis.indices {
                        guard let (lo, hi) = mapped(edit.emphasis[n], runs, src, lines, &cursorRun, &cursor) else { continue }
                        inserts.append(Insert(at: lo, order: 2 * n + 1))
                        inserts.append(Insert(at: hi, order: 2 * n))
                    }
                    if let at = appendPoint { inserts.append(Insert(at: at, order: Int.max)) }
                    Self.sort(&inserts)
                    for ins in inserts {
                        w.insert(ins.order == Int.max ? extra : ins.order & 1 == 0 ? close : open, at: ins.at)
                    }
                }
                // A short rest goes with the buffer: one piece (one write) for a small file, not two.
                if w.copied < source.count, w.count + (source.count - w.copied) <= chunk {
                    w.append(UnsafeBufferPointer(rebasing: source[w.copied...]))
                    w.copied = source.count
                }
                guard flush(&w) else { return false }
                return w.copied >= source.count || sink(UnsafeBufferPointer(rebasing: source[w.copied...]))
            }
        }
    }

    /// Where appended text goes in `cue`, as an absolute byte offset (see `AppendPoint`).
    private func appendOffset(_ cue: Cue, _ src: [UInt8]) -> Int {
        guard let point = AppendPoint.find(cue.forEachRun),
              point.source.lowerBound >= 0, point.source.upperBound <= src.count else {
            return AppendPoint.visibleEnd(of: cue.textRange, in: src)
        }
        guard let utf8 = point.utf8 else { return point.source.upperBound }
        var cursor = OffsetCursor()
        return point.source.lowerBound + map(src[point.source], utf8, &cursor)
    }

    /// Sorts a cue's few insertions by offset, then order (insertion sort:
    /// they are few, and mostly in order already).
    private static func sort(_ a: inout [Insert]) {
        guard a.count > 1 else { return }
        if a.count > 64 { a.sort(by: <); return }
        a.withUnsafeMutableBufferPointer { p in
            for i in 1..<p.count {
                let x = p[i]
                var j = i
                while j > 0 && x < p[j - 1] {
                    p[j] = p[j - 1]
                    j -= 1
                }
                p[j] = x
            }
        }
    }

    /// The absolute raw offsets of the emphasis `range` (nil when its run is
    /// not a text run of `runs`), mapped with `cursor`, which resumes in the
    /// same run (`cursorRun`) and starts again in another; not mapped where
    /// `runs` are `lines` (`Cue.appendRunOutlines(to:)`: text offsets are raw offsets).
    private func mapped(_ range: CueEdit.RunRange, _ runs: [RunOutline], _ src: [UInt8], _ lines: Bool,
                        _ cursorRun: inout Int, _ cursor: inout OffsetCursor) -> (Int, Int)? {
        guard runs.indices.contains(range.run) else { return nil }
        let run = runs[range.run]
        guard run.kind == .text else { return nil }
        if lines {
            // Clamped to the run, as a mapper clamps an offset outside it; one inside a
            // character (no offset emphasis makes) is left to the mapper, which moves it.
            let lo = run.source.lowerBound + max(0, min(range.utf8.lowerBound, run.source.count))
            let hi = run.source.lowerBound + max(0, min(range.utf8.upperBound, run.source.count))
            let inside = { (at: Int) in at < run.source.upperBound && src[at] & 0xC0 == 0x80 }
            if !inside(lo) && !inside(hi) { return (lo, hi) }
        }
        let raw = src[run.source]
        if cursorRun != range.run { cursorRun = range.run; cursor = OffsetCursor() }
        let lo = run.source.lowerBound + map(raw, range.utf8.lowerBound, &cursor)
        let hi = run.source.lowerBound + map(raw, range.utf8.upperBound, &cursor)
        return (lo, hi)
    }

    private func map(_ raw: ArraySlice<UInt8>, _ offset: Int, _ cursor: inout OffsetCursor) -> Int {
        // A format's mapper always decides: equal lengths do not mean equal
        // offsets (WebVTT: "&amp;" is 5 bytes for 1, a NUL 1 byte for U+FFFD's 3,
        // so they can balance out; found by fuzzing, see FuzzRegressionTests).
        guard let rawOffset else { return offset }
        return rawOffset(raw, offset, &cursor)
    }
}
