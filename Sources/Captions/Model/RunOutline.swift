/// A run of cue text without its text: what it is, its style, and where its
/// bytes are in the document source.
///
/// What a writer splicing edits into the source bytes needs of each run;
/// `Cue.appendRunOutlines(to:)` finds it without making the runs' strings
/// where the cue allows (an SRT cue not built yet). Not public: the one run
/// type of the public API is `TextRun`.
struct RunOutline: Sendable, Hashable {
    /// What the run is.
    var kind: TextRun.Kind
    /// The style in effect for the run.
    var style: TextStyle
    /// The byte range of the run's raw form in the document source.
    var source: Range<Int>

    /// Creates an outline.
    init(kind: TextRun.Kind, style: TextStyle, source: Range<Int>) {
        self.kind = kind; self.style = style; self.source = source
    }
}
