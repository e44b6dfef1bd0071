/// One run of a cue as `Cue.forEachRun` passes it: what a `TextRun` holds,
/// with the text as UTF-8 bytes instead of a `String`.
///
/// Valid only inside the call that passes it (its bytes are borrowed). For
/// this package's own fast paths (an SRT cue walked on its source bytes);
/// the one run type of the public API is `TextRun`.
package struct RunView {
    /// What the run is.
    package var kind: TextRun.Kind
    /// The style in effect for the run.
    package var style: TextStyle
    /// The byte range of the run's raw form in the document source.
    package var source: Range<Int>
    /// The run's text as UTF-8, or bytes that read as its text the way
    /// `String(decoding:as: UTF8.self)` reads them (see `form`).
    private var bytes: UnsafeBufferPointer<UInt8>
    private var form: Form

    /// What `bytes` are.
    private enum Form {
        /// The text's UTF-8.
        case utf8
        /// Source bytes (an SRT run's), which a damaged file may hold invalid.
        case source
    }

    /// A run whose text is `utf8` (valid UTF-8).
    init(kind: TextRun.Kind, style: TextStyle, source: Range<Int>, utf8: UnsafeBufferPointer<UInt8>) {
        self.kind = kind; self.style = style; self.source = source; bytes = utf8; form = .utf8
    }

    /// A run whose text is `bytes` read as `String(decoding:as: UTF8.self)` reads them.
    init(kind: TextRun.Kind, style: TextStyle, source: Range<Int>, bytes: UnsafeBufferPointer<UInt8>) {
        self.kind = kind; self.style = style; self.source = source; self.bytes = bytes; form = .source
    }

    /// `"\n"`, the text of a line break read from the source.
    static var newline: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: ("\n" as StaticString).utf8Start, count: 1) }

    /// The run's text (`TextRun.text`).
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends the UTF-8 of the run's text to `out` (always valid UTF-8:
    /// a damaged file's bytes are repaired as `TextRun.text` has them).
    @inline(__always)
    package func appendText(to out: inout [UInt8]) {
        if form == .utf8 { out.append(contentsOf: bytes) } else { UTF8Repair.append(bytes, to: &out) }
    }

    /// Appends what a viewer reads of the run to `out` as UTF-8: a text
    /// run's text, `lineBreak` for a line break, nothing for markup.
    @inline(__always)
    func appendReadableText(to out: inout [UInt8], lineBreak: UInt8) {
        switch kind {
        case .text: appendText(to: &out)
        case .lineBreak: out.append(lineBreak)
        case .markup: break
        }
    }

    /// Calls `visit` with each of `runs`, in order.
    static func forEach(in runs: [TextRun], _ visit: (RunView) -> Void) {
        for run in runs {
            var text = run.text
            text.withUTF8 { visit(RunView(kind: run.kind, style: run.style, source: run.source, utf8: $0)) }
        }
    }
}

extension TextRun {
    /// The run `view` shows, with its text made a `String`.
    init(_ view: RunView) {
        self.init(kind: view.kind, text: view.text, style: view.style, source: view.source)
    }
}

extension Cue {
    /// Calls `visit` with each of the cue's runs, in order: the one walk over
    /// a cue's runs, from which its outlines and readable text are made.
    ///
    /// An SRT cue not built yet is walked on its source bytes by the SRT rule
    /// (`SRTReader.forEachRun`, the rule its `runs` are built by), with no
    /// run or string made; any other cue walks its `runs`.
    package borrowing func forEachRun(_ visit: (RunView) -> Void) {
        if let lazy = lazyRuns, case .srt = lazy.builder {
            SRTReader.forEachRun(in: lazy.range, of: lazy.bytes, visit)
            return
        }
        RunView.forEach(in: runs, visit)
    }

    /// Calls `body` with the cue text's bytes as written when they hold every
    /// word a viewer reads as written, except through a character reference
    /// (which starts with `&`): the source of an SRT or WebVTT cue not built
    /// yet. Nil, without calling `body`, for any other cue.
    ///
    /// For checks that rule a cue out before walking its runs: markup adds
    /// words to these bytes but never hides one. `body`'s second argument
    /// says, when called, whether the bytes are, byte for byte, what the
    /// runs read (their text, `\n` for each line break): an SRT cue whose
    /// lines hold no markup (`SRTReader.runsAreLines`), whose runs are then
    /// outlined by `appendLineOutlines(of:offset:to:)`. Asked only where
    /// needed, as it reads the bytes.
    borrowing func withSourceText<R>(_ body: (UnsafeBufferPointer<UInt8>, _ runsAreLines: () -> Bool) -> R) -> R? {
        guard let lazy = lazyRuns, lazy.range.lowerBound >= 0, lazy.range.upperBound <= lazy.bytes.count else { return nil }
        switch lazy.builder {
        case .srt: return lazy.bytes.withUnsafeBufferPointer { all in
            let p = UnsafeBufferPointer(rebasing: all[lazy.range])
            return body(p) { SRTReader.runsAreLines(p) }
        }
        case .webVTT: return lazy.bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[lazy.range])) { false } }
        case .ttml: return nil
        }
    }

    /// Appends the outlines of the runs of a cue whose source text
    /// `withSourceText` said are its lines (`p`), their source ranges moved
    /// by `offset`: the runs `forEachRun` walks, found from the bytes alone.
    static func appendLineOutlines(of p: UnsafeBufferPointer<UInt8>, offset: Int, to out: inout [RunOutline]) {
        SRTReader.appendLineOutlines(of: p, offset: offset, to: &out)
    }

    /// The outline of each of `runs`, in the same order; for SRT cues not
    /// built yet, found from the source bytes without making any string.
    func runOutlines() -> [RunOutline] {
        var outlines: [RunOutline] = []
        appendRunOutlines(to: &outlines)
        return outlines
    }

    /// Appends `runOutlines()` to `out`, so that a caller walking many cues
    /// can reuse one array. True when the runs are the cue's lines as
    /// written (`withSourceText`'s `runsAreLines`), outlined from its bytes
    /// alone: then each text run's bytes are its text, so an offset in a
    /// run's text is the same offset in its bytes.
    @discardableResult
    func appendRunOutlines(to out: inout [RunOutline]) -> Bool {
        if let lazy = lazyRuns, case .srt = lazy.builder, lazy.range.lowerBound >= 0, lazy.range.upperBound <= lazy.bytes.count {
            let lines = lazy.bytes.withUnsafeBufferPointer { all in
                let p = UnsafeBufferPointer(rebasing: all[lazy.range])
                guard SRTReader.runsAreLines(p) else { return false }
                SRTReader.appendLineOutlines(of: p, offset: lazy.range.lowerBound, to: &out)
                return true
            }
            if lines { return true }
        }
        forEachRun { out.append(RunOutline(kind: $0.kind, style: $0.style, source: $0.source)) }
        return false
    }

    /// Appends the text a viewer reads to `out` as UTF-8: the `.text` runs'
    /// text in order, `lineBreak` for each line break, markup left out.
    ///
    /// The same bytes as walking `runs`, but for SRT cues not built yet the
    /// text is copied from the source without making runs or strings.
    func appendReadableText(to out: inout [UInt8], lineBreak: UInt8) {
        forEachRun { $0.appendReadableText(to: &out, lineBreak: lineBreak) }
    }

    /// The text a viewer reads: text runs joined, line breaks as `"\n"`, markup left out.
    public var plainText: String {
        var out: [UInt8] = []
        appendReadableText(to: &out, lineBreak: 0x0A)
        return String(decoding: out, as: UTF8.self)
    }
}
