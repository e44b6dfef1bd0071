/// What the TTML writer needs to splice edits into a document's original bytes.
///
/// The reader records, for every cue, the byte ranges of its text (in the runs
/// and `textRange`); this payload adds the namespace facts needed to write a
/// correct `span`: which prefix names the TTML content namespace and which
/// the styling namespace at each cue, and where to declare the styling
/// namespace on the root element when no prefix is bound to it.
struct TTMLPayload: Sendable {
    /// The prefixes in scope at a point of the document.
    struct Scope: Hashable, Sendable {
        /// The prefix of the TTML content namespace for a new `span` (`""` for the default namespace).
        var contentPrefix: String
        /// A prefix bound to the document's styling namespace, if any is in scope.
        var stylingPrefix: String?
    }

    /// The distinct scopes seen at cues and runs.
    var scopes: [Scope] = []
    /// The scope (index into `scopes`) of each cue's `p` element.
    var cueScopes: [UInt16] = []
    /// Scopes of runs that differ from their cue's (namespaces redeclared inside a `p`), by run start
    /// offset (filled only while one paragraph's runs are built).
    var runScopes: [Int: UInt16] = [:]
    /// Cues whose `p` declares namespaces inside its content (their runs' scopes must be worked out one by one).
    var paragraphsWithInnerNamespaces: Set<Int> = []
    /// Where a namespace declaration can be added to the root start tag (after its last attribute).
    var rootAttributesEnd = 0
    /// The styling namespace URI of the document's TTML generation.
    var stylingURI = TTMLNamespace.stylingURI(family: 0)
    /// The prefix to declare for the styling namespace when a cue has none in scope.
    var declarationPrefix = "tts"
    /// Cues whose `p` is an empty-element tag (`<p …/>`), with its qualified name.
    var selfClosingParagraphs: [Int: String] = [:]

    // What the document holds that the model of cues does not, for the
    // `losses` of a conversion to SRT or WebVTT.
    /// Styling attributes (local names) other than the ones cue styles carry (weight, style, decoration).
    var uncarriedStyling: Set<String> = []
    /// Whether the document defines or uses regions.
    var hasRegions = false
    /// Whether the document has metadata (elements or attributes in the metadata namespace, `<metadata>`).
    var hasMetadata = false
    /// Whether the document has elements in namespaces other than TTML's (images, extensions).
    var hasForeignElements = false
    /// The byte range of the root `tt` element's `xml:lang` value; nil when it has none.
    var rootLanguageValue: Range<Int>?
    /// The language the root declares (nil when none, empty or `und`).
    var rootLanguage: String?
    /// The distinct languages (`xml:lang`, ignoring case) of the root and of
    /// `body`, `div`, `p` and `span` elements, in order of first appearance
    /// (the first `languagesKept`).
    var languages: [String] = []
    /// How many distinct languages `languages` keeps.
    static let languagesKept = 16
    /// Cues whose `p` has no end time (none on it or any ancestor): the reader gave each one.
    var openEnded: [Int] = []

    /// The scope for a run of a cue.
    func scope(cue: Int, runStart: Int) -> Scope {
        if let s = runScopes[runStart], scopes.indices.contains(Int(s)) { return scopes[Int(s)] }
        if cueScopes.indices.contains(cue), scopes.indices.contains(Int(cueScopes[cue])) { return scopes[Int(cueScopes[cue])] }
        return scopes.first ?? Scope(contentPrefix: "", stylingPrefix: nil)
    }
}
