/// Styling that a run of cue text carries from the tags around it.
public struct TextStyle: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = TextStyle(rawValue: 1)
    public static let italic = TextStyle(rawValue: 2)
    public static let underline = TextStyle(rawValue: 4)
    public static let strikethrough = TextStyle(rawValue: 8)
}

/// One piece of a cue's text: plain text with its style, a piece of markup
/// kept as written, or a line break.
///
/// Runs keep the byte range of their raw form in the document's source, so an
/// edit can be spliced into the original bytes and everything else is written
/// back exactly as it came.
public struct TextRun: Sendable, Hashable {
    /// What a run is.
    public enum Kind: Sendable, Hashable {
        /// Text a viewer reads (entities decoded).
        case text
        /// A tag, ASS override code or other markup, kept as written (in `text`).
        case markup
        /// A line break inside the cue.
        case lineBreak
    }

    /// The plain text (for `.text`), the raw markup (for `.markup`), or `"\n"` (for `.lineBreak`).
    public var text: String
    /// The byte range of the run's raw form in the document source (UTF-8 bytes).
    public var source: Range<Int>
    /// What this run is.
    public var kind: Kind
    /// The style in effect for this run, from the tags (or TTML styles) around it.
    public var style: TextStyle

    /// Creates a run.
    public init(kind: Kind, text: String, style: TextStyle = [], source: Range<Int>) {
        self.kind = kind; self.text = text; self.style = style; self.source = source
    }
}

/// One caption cue: when it shows and what it says.
public struct Cue: Sendable, Hashable {
    /// The cue number (SRT) or identifier (WebVTT, TTML `xml:id`) as written, if any.
    public var identifier: String?
    /// When the cue appears, exactly.
    public var start: CaptionTime
    /// When the cue disappears, exactly.
    public var end: CaptionTime
    /// WebVTT cue settings or SRT coordinates after the end time, verbatim.
    public var settings: String?
    /// The 1-based line where the cue starts (its timing line, or its `p` element).
    public var line: Int
    /// The byte range of the whole cue text in the document source.
    public var textRange: Range<Int>
    /// The runs, or where to build them from.
    var storage: RunStorage

    /// The cue text as styled runs, in order: the one run type of the public API.
    ///
    /// The SRT, WebVTT and TTML readers keep only the cue's byte range and build
    /// the runs from the source when they are read, so a 200,000-cue file does
    /// not hold a million small strings (the library's own walks over a cue's
    /// text, such as `plainText`, make none at all). Nothing is cached, so a
    /// caller that reads them again keeps the array.
    public var runs: [TextRun] {
        get {
            switch storage {
            case .runs(let runs): return runs
            case .lazy(let lazy): return lazy.build()
            }
        }
        set { storage = .runs(newValue) }
    }

    /// Creates a cue.
    public init(identifier: String? = nil, start: CaptionTime, end: CaptionTime, settings: String? = nil,
                line: Int, runs: [TextRun], textRange: Range<Int>) {
        self.identifier = identifier; self.start = start; self.end = end; self.settings = settings
        self.line = line; self.storage = .runs(runs); self.textRange = textRange
    }

    /// Creates a cue whose runs are built from `bytes[textRange]` when asked.
    init(identifier: String?, start: CaptionTime, end: CaptionTime, settings: String?,
         line: Int, textRange: Range<Int>, lazyRuns: LazyRuns) {
        self.identifier = identifier; self.start = start; self.end = end; self.settings = settings
        self.line = line; self.storage = .lazy(lazyRuns); self.textRange = textRange
    }

    public static func == (a: Cue, b: Cue) -> Bool {
        a.identifier == b.identifier && a.start == b.start && a.end == b.end && a.settings == b.settings
            && a.line == b.line && a.textRange == b.textRange && a.runs == b.runs
    }

    public func hash(into h: inout Hasher) {
        h.combine(identifier); h.combine(start); h.combine(end); h.combine(line); h.combine(textRange)
    }
}

/// Where a cue's runs live: built already, or to be built from the source bytes.
enum RunStorage: Sendable {
    case runs([TextRun])
    case lazy(LazyRuns)
}

/// A cue's runs, not built yet: the document's bytes (shared, not copied), the
/// cue text's range and the format whose rules build them.
struct LazyRuns: Sendable {
    enum Builder: Sendable { case srt, webVTT; indirect case ttml(TTMLParagraphContext) }
    /// The whole document's UTF-8 bytes; an array shares its buffer, so this costs a reference.
    let bytes: [UInt8]
    let range: Range<Int>
    let builder: Builder

    func build() -> [TextRun] {
        switch builder {
        case .srt: return SRTReader.runs(in: range, of: bytes)
        case .webVTT: return WebVTTRunBuilder.runs(in: range, of: bytes)
        case .ttml(let context): return TTMLReader.paragraphRuns(in: range, of: bytes, context: context).runs
        }
    }
}

/// Changes the pipeline asks a writer to make to one cue.
public struct CueEdit: Sendable, Hashable {
    /// A range of plain text inside one text run of the cue.
    public struct RunRange: Sendable, Hashable {
        /// Index into `Cue.runs`; the run must be of kind `.text`.
        public var run: Int
        /// UTF-8 offsets into that run's `text`.
        public var utf8: Range<Int>
        public init(run: Int, utf8: Range<Int>) { self.run = run; self.utf8 = utf8 }
    }

    /// Ranges to wrap in bold emphasis (`<b>` in SRT and WebVTT, a bold `span` in TTML).
    public var emphasis: [RunRange]
    /// Text to append after the cue's last visible character, where
    /// `AppendPoint` puts it (already including any leading space).
    public var appendedText: String?

    public init(emphasis: [RunRange] = [], appendedText: String? = nil) {
        self.emphasis = emphasis; self.appendedText = appendedText
    }

    /// Whether this edit changes nothing.
    public var isEmpty: Bool { emphasis.isEmpty && (appendedText ?? "").isEmpty }
}
