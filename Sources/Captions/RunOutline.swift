/// A run of cue text without its text: what it is, its style, and where its
/// bytes are in the document source.
///
/// For SRT, whose text runs are their raw bytes (no character references),
/// this is all a writer or a matcher working on the source bytes needs, and
/// it is found without making a string.
public struct RunOutline: Sendable, Hashable {
    /// What the run is.
    public var kind: TextRun.Kind
    /// The style in effect for the run.
    public var style: TextStyle
    /// The byte range of the run's raw form in the document source.
    public var source: Range<Int>

    /// Creates an outline.
    public init(kind: TextRun.Kind, style: TextStyle, source: Range<Int>) {
        self.kind = kind; self.style = style; self.source = source
    }
}

extension Cue {
    /// The outline of each of `runs`, in the same order; for SRT cues not
    /// built yet, found from the source bytes without making any string.
    public func runOutlines() -> [RunOutline] {
        var outlines: [RunOutline] = []
        appendRunOutlines(to: &outlines)
        return outlines
    }

    /// Appends `runOutlines()` to `out`, so that a caller walking many cues
    /// can reuse one array.
    public func appendRunOutlines(to out: inout [RunOutline]) {
        if case .lazy(let lazy) = storage, case .srt = lazy.builder {
            SRTReader.appendRunOutlines(in: lazy.range, of: lazy.bytes, to: &out)
            return
        }
        for run in runs { out.append(RunOutline(kind: run.kind, style: run.style, source: run.source)) }
    }
}

extension Cue {
    /// Whether `cues[index]` is an SRT cue whose runs are not built yet: they
    /// will be built from its `textRange` in the document source, by SRT's
    /// rules. Read in place (no copy of the cue); false for an index outside `cues`.
    public static func hasUnbuiltSRTRuns(_ cues: UnsafeBufferPointer<Cue>, at index: Int) -> Bool {
        guard cues.indices.contains(index) else { return false }
        switch cues[index].storage {
        case .lazy(let lazy):
            if case .srt = lazy.builder { return lazy.range == cues[index].textRange }
            return false
        case .runs:
            return false
        }
    }

    /// For an SRT cue whose runs are not built yet and whose text holds no
    /// `<` or `{` (so its runs are its lines, no markup, no style): calls
    /// `body` with the index in `runs` and the source bytes of each text run,
    /// in order, and returns true, without making any run. Otherwise calls
    /// nothing and returns false.
    public func forEachPlainSRTTextRun(_ body: (_ run: Int, _ source: Range<Int>) -> Void) -> Bool {
        guard case .lazy(let lazy) = storage, case .srt = lazy.builder else { return false }
        return SRTReader.forEachPlainTextRun(in: lazy.range, of: lazy.bytes, body)
    }
}
