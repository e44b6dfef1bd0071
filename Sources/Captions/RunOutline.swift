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
