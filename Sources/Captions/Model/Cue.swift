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
///
/// A cue read from a file is held in 32 bytes (`CompactCue`: times in
/// milliseconds and the byte offsets of its text, identifier and settings;
/// and a reference to the document's shared bytes), so a 200,000-cue file's
/// cue array is 6.4 MB, not 24 MB; its strings and runs are made from those
/// bytes when asked. A cue made by
/// `init(identifier:start:end:settings:line:runs:textRange:)`, changed
/// through a setter, or whose values do not fit that form holds them all in
/// one box (`CueFields`) that its copies share.
public struct Cue: Sendable, Hashable {
    /// The compact fields (unused when `storage` holds every value).
    var compact: CompactCue
    /// What the compact fields are read from, or every value.
    var storage: Storage

    /// What a cue keeps beside its compact fields: one reference (the cases'
    /// payloads are references, so the case fits in their spare bits).
    enum Storage: Sendable {
        /// The document's bytes, whose runs are built by SRT's rule.
        case srt([UInt8])
        /// The document's bytes, whose runs are built by WebVTT's rule.
        case webVTT([UInt8])
        /// A TTML paragraph's context, which holds the document's bytes and from which its runs are built.
        case ttml(TTMLParagraphContext)
        /// Every value of the cue (the compact fields are unused).
        case fields(CueFields)
    }

    /// The document's bytes the compact fields point into (empty for a cue held whole).
    private var bytes: [UInt8] {
        switch storage {
        case .srt(let bytes), .webVTT(let bytes): return bytes
        case .ttml(let context): return context.bytes
        case .fields: return []
        }
    }

    /// The cue number (SRT) or identifier (WebVTT, TTML `xml:id`) as written, if any.
    public var identifier: String? {
        get { if case .fields(let f) = storage { return f.values.identifier }; return compact.identifier(in: bytes) }
        set { var v = values; v.identifier = newValue; self = Cue(v) }
    }
    /// When the cue appears, exactly.
    public var start: CaptionTime {
        get { if case .fields(let f) = storage { return f.values.start }; return compact.start }
        set { var v = values; v.start = newValue; self = Cue(v) }
    }
    /// When the cue disappears, exactly.
    public var end: CaptionTime {
        get { if case .fields(let f) = storage { return f.values.end }; return compact.end }
        set { var v = values; v.end = newValue; self = Cue(v) }
    }
    /// WebVTT cue settings or SRT coordinates after the end time, verbatim.
    public var settings: String? {
        get { if case .fields(let f) = storage { return f.values.settings }; return compact.settings(in: bytes) }
        set { var v = values; v.settings = newValue; self = Cue(v) }
    }
    /// The 1-based line where the cue starts (its timing line, or its `p` element).
    public var line: Int {
        get { if case .fields(let f) = storage { return f.values.line }; return Int(compact.line) }
        set { var v = values; v.line = newValue; self = Cue(v) }
    }
    /// The byte range of the whole cue text in the document source.
    public var textRange: Range<Int> {
        get { if case .fields(let f) = storage { return f.values.textRange }; return compact.textRange }
        set { var v = values; v.textRange = newValue; self = Cue(v) }
    }

    /// The cue text as styled runs, in order: the one run type of the public API.
    ///
    /// The SRT, WebVTT and TTML readers keep only the cue's byte range and build
    /// the runs from the source when they are read, so a 200,000-cue file does
    /// not hold a million small strings (the library's own walks over a cue's
    /// text, such as `plainText`, make none at all). Nothing is cached, so a
    /// caller that reads them again keeps the array.
    public var runs: [TextRun] {
        get {
            if case .fields(let f) = storage, case .runs(let runs) = f.values.storage { return runs }
            return lazyRuns?.build() ?? []
        }
        set { var v = values; v.storage = .runs(newValue); self = Cue(v) }
    }

    /// Creates a cue.
    public init(identifier: String? = nil, start: CaptionTime, end: CaptionTime, settings: String? = nil,
                line: Int, runs: [TextRun], textRange: Range<Int>) {
        self.init(CueValues(identifier: identifier, start: start, end: end, settings: settings, line: line,
                            textRange: textRange, storage: .runs(runs)))
    }

    /// A cue holding `values` in a box.
    init(_ values: CueValues) {
        self.init(compact: CompactCue(), storage: .fields(CueFields(values)))
    }

    private init(compact: CompactCue, storage: Storage) {
        self.compact = compact
        self.storage = storage
    }

    /// A cue read from `bytes` (the whole document's, shared), whose runs are
    /// built from `bytes[textRange]` by `builder` when asked. Its identifier
    /// is `identifier`, which `identifierRange` (when given) holds as written;
    /// its settings are the text of `bytes[settings]`. Compact when every
    /// value fits (see `CompactCue`), else held whole.
    init(bytes: [UInt8], identifier: String?, identifierRange: Range<Int>?, start: CaptionTime, end: CaptionTime,
         settings: Range<Int>?, line: Int, textRange: Range<Int>, builder: LazyRuns.Builder) {
        if let identifier, !(identifierRange.map { range in
            range.lowerBound >= 0 && range.upperBound <= bytes.count
                && bytes.withUnsafeBufferPointer { identifier.utf8.elementsEqual(UnsafeBufferPointer(rebasing: $0[range])) }
        } ?? false) {
            self.init(bytes: bytes, identifier: nil, start: start, end: end, settings: settings, line: line,
                      textRange: textRange, builder: builder)
            self.identifier = identifier
            return
        }
        self.init(bytes: bytes, identifier: identifier == nil ? nil : identifierRange, start: start, end: end,
                  settings: settings, line: line, textRange: textRange, builder: builder)
    }

    /// A cue read from `bytes` whose identifier is the text of `bytes[identifier]` as written.
    /// A TTML cue's `bytes` are its context's (`TTMLParagraphContext.bytes`).
    init(bytes: [UInt8], identifier: Range<Int>?, start: CaptionTime, end: CaptionTime, settings: Range<Int>?,
         line: Int, textRange: Range<Int>, builder: LazyRuns.Builder) {
        if let compact = CompactCue(identifier: identifier, start: start, end: end, settings: settings, line: line,
                                    textRange: textRange) {
            switch builder {
            case .srt: self.init(compact: compact, storage: .srt(bytes))
            case .webVTT: self.init(compact: compact, storage: .webVTT(bytes))
            case .ttml(let context):
                assert(context.bytes.withUnsafeBufferPointer { $0.baseAddress } == bytes.withUnsafeBufferPointer { $0.baseAddress },
                       "a TTML cue's bytes are its context's")
                self.init(compact: compact, storage: .ttml(context))
            }
            return
        }
        func text(_ r: Range<Int>?) -> String? {
            r.map { r in bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[r]), as: UTF8.self) } }
        }
        self.init(CueValues(identifier: text(identifier), start: start, end: end, settings: text(settings), line: line,
                            textRange: textRange, storage: .lazy(LazyRuns(bytes: bytes, range: textRange, builder: builder))))
    }

    /// Every value of the cue.
    var values: CueValues {
        if case .fields(let f) = storage { return f.values }
        let bytes = bytes
        return CueValues(identifier: compact.identifier(in: bytes), start: compact.start, end: compact.end,
                         settings: compact.settings(in: bytes), line: Int(compact.line), textRange: compact.textRange,
                         storage: lazyRuns.map { .lazy($0) } ?? .runs([]))
    }

    /// Where this cue's runs are built from, when they are not built yet.
    var lazyRuns: LazyRuns? {
        switch storage {
        case .fields(let f):
            if case .lazy(let lazy) = f.values.storage { return lazy }
            return nil
        case .ttml(let context): return LazyRuns(bytes: context.bytes, range: compact.textRange, builder: .ttml(context))
        case .srt(let bytes): return LazyRuns(bytes: bytes, range: compact.textRange, builder: .srt)
        case .webVTT(let bytes): return LazyRuns(bytes: bytes, range: compact.textRange, builder: .webVTT)
        }
    }

    public static func == (a: Cue, b: Cue) -> Bool {
        a.identifier == b.identifier && a.start == b.start && a.end == b.end && a.settings == b.settings
            && a.line == b.line && a.textRange == b.textRange && a.runs == b.runs
    }

    public func hash(into h: inout Hasher) {
        h.combine(identifier); h.combine(start); h.combine(end); h.combine(line); h.combine(textRange)
    }
}

/// Every value of a cue.
struct CueValues: Sendable {
    var identifier: String?
    var start: CaptionTime
    var end: CaptionTime
    var settings: String?
    var line: Int
    var textRange: Range<Int>
    var storage: RunStorage
}

/// A cue's values in a box that the cue's copies share (a setter makes a new one).
final class CueFields: Sendable {
    let values: CueValues
    init(_ values: CueValues) { self.values = values }
}

/// Where a cue's runs live: built already, or to be built from the source bytes.
enum RunStorage: Sendable {
    case runs([TextRun])
    case lazy(LazyRuns)
}

/// A cue's runs, not built yet: the document's bytes (shared, not copied), the
/// cue text's range and the format whose rules build them.
struct LazyRuns: Sendable {
    /// The format whose rules build the runs (a TTML paragraph's context is a
    /// class: a reference, with no indirect case).
    enum Builder: Sendable { case srt, webVTT, ttml(TTMLParagraphContext) }
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
