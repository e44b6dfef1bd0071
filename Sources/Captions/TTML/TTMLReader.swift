#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads TTML, DFXP and IMSC1 documents into the caption model.
///
/// Four passes over the bytes, none of which expands an entity or touches
/// the network: the DOCTYPE guard refuses entity declarations and external
/// DTDs; the attribute guard refuses a start tag with over 1,000 attributes;
/// libxml2 checks the document is well-formed (streaming, no tree); then one
/// scan reads the structure from `XMLTokenizer`'s tokens, building cues with
/// exact times. Their runs are not built here: each cue keeps its paragraph's
/// context (`TTMLParagraphContext`) and the reader rebuilds the runs from the
/// shared source bytes when asked, each run keeping the exact byte range of
/// its raw text, so `TTMLWriter` can splice edits into the original bytes.
///
/// One cue per displayed `p`, with exact begin and end: `begin`/`end`/`dur`
/// on `body`, `div`, `p` and `span`, relative to the parent's begin (`par`)
/// or the previous sibling's end (`seq`), `end` and `dur` together giving the
/// earlier end, and ends clipped to the parent's. A `p` with no end of its own
/// ends with its parent; if no ancestor has an end either, it ends when its
/// timed spans end; failing that (an indefinite end) it is shown until the next
/// paragraph that begins later, the last one until the latest time any cue
/// ends, and one warning says how many paragraphs were treated so.
///
/// Namespaces are resolved by URI from the document's own `xmlns` declarations,
/// so `tt:`-prefixed, default-namespace and DFXP documents read alike. Every
/// byte access is bounds-checked, so even input that somehow slipped past the
/// well-formedness check cannot make it trap.
struct TTMLReader {
    /// Reads a document.
    static func read(_ source: SourceText) throws -> CaptionDocument {
        try TTMLDocumentTypeGuard.check(source.bytes)
        try TTMLAttributeGuard.check(source.bytes)
        try XMLDocument.checkWellFormed(source.bytes)
        let result = try scan(source.bytes)
        return CaptionDocument(format: .ttml, source: source, cues: result.cues,
                               warnings: result.warnings, payload: .ttml(result.payload))
    }

    /// What the structure scan produces.
    struct Result {
        var cues: [Cue]
        var warnings: [CaptionWarning]
        var payload: TTMLPayload
    }

    /// Scans a document. Cues keep what is needed to build their runs later
    /// (`paragraphRuns`), so no text is copied into strings here.
    static func scan(_ bytes: [UInt8]) throws -> Result {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = TTMLReader(buffer, source: bytes)
            return try reader.run()
        }
    }

    /// The runs of one paragraph (`range` is its content), rebuilt from the
    /// source bytes with the paragraph's inherited context, and the namespace
    /// scope of each run that differs from the paragraph's own (by run start).
    static func paragraphRuns(in range: Range<Int>, of bytes: [UInt8], context: TTMLParagraphContext)
        -> (runs: [TextRun], scopes: [Int: TTMLPayload.Scope]) {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = TTMLReader(buffer, source: [])
            return reader.buildParagraph(range, context: context)
        }
    }

    // MARK: - State

    enum Element: UInt8 {
        case tt, head, styling, style, layout, region, body, div, p, span, br, metadata, otherContent, foreign
    }

    struct Frame {
        var element: Element
        var bindings = 0
        var timed = false
        var begin = CaptionTime.zero
        /// The active end: explicit (clipped to the parent) or the parent's; nil when indefinite.
        var end: CaptionTime?
        var explicitEnd = false
        var seq = false
        var cursor = CaptionTime.zero
        var latestChildEnd: CaptionTime?
        var style = TTMLStyleState()
        var preserve = false
        var displayed = false
        var inHead = false
        var regionID: String?
    }

    /// The document's bytes, and the tokenizer that walks them.
    let raw: XMLBytes
    var xml: XMLTokenizer
    /// The document's bytes as an array (shared with the cues' lazy runs; empty when building one paragraph).
    let source: [UInt8]
    /// Whether text is turned into runs (one paragraph) or skipped (the structure scan).
    var buildRuns = false
    var definitions: TTMLDefinitions?
    var bindingSnapshot: (generation: Int, bindings: [TTMLNamespaceScope.Binding])?
    var paragraphStyle = TTMLStyleState()
    var paragraphPreserve = false
    var namespaces: TTMLNamespaceScope
    var stack: [Frame] = []
    var timing = TTMLTimeExpression()
    var family: UInt8 = 0
    var styleSheet = TTMLStyleSheet()
    var declaredPrefixes: [String: Set<String>] = [:]

    var cues: [Cue] = []
    var payload = TTMLPayload()
    var scopeIndex: [TTMLPayload.Scope: UInt16] = [:]
    var scopeCache: (generation: Int, prefix: [UInt8], index: UInt16)?
    var unresolvedEnds: [Int] = []

    // The paragraph being read.
    var inParagraph = false
    var paragraphDepth = 0
    var paragraphBindings = 0
    var paragraphScope: UInt16 = 0
    var paragraphLine = 0
    var paragraphID: String?
    /// Where `paragraphID`'s value is written (its bytes may hold references that it decodes).
    var paragraphIDRange: Range<Int>?
    var paragraphContentStart = 0
    var text: TTMLParagraphText

    var log = CaptionWarningLog()
    /// libxml2's own default depth limit (its push parser does not apply it, so the reader does).
    static let maximumDepth = 256
    /// The most namespace declarations in scope at once (real documents have a
    /// handful; each paragraph keeps the ones in scope, so this bounds memory too).
    static let maximumBindings = 256

    init(_ p: UnsafeBufferPointer<UInt8>, source: [UInt8]) {
        raw = XMLBytes(p)
        xml = XMLTokenizer(raw)
        namespaces = TTMLNamespaceScope(raw, indexed: true)
        text = TTMLParagraphText(raw)
        self.source = source
    }

    /// The attributes of the start tag being read.
    var attributes: [XMLAttribute] { xml.attributes }

    // MARK: - Namespaces

    mutating func scope(contentPrefix: [UInt8]) -> UInt16 {
        if let cache = scopeCache, cache.generation == namespaces.generation, cache.prefix == contentPrefix { return cache.index }
        let scope = TTMLPayload.Scope(
            contentPrefix: String(decoding: contentPrefix, as: UTF8.self),
            stylingPrefix: namespaces.prefix(boundTo: TTMLNamespace(role: .styling, family: family), allowDefault: false))
        let index: UInt16
        if let known = scopeIndex[scope] {
            index = known
        } else if payload.scopes.count < Int(UInt16.max) {
            index = UInt16(payload.scopes.count)
            payload.scopes.append(scope)
            scopeIndex[scope] = index
        } else {
            index = 0
        }
        scopeCache = (namespaces.generation, contentPrefix, index)
        return index
    }

    // MARK: - The scan

    /// How many `</p>` (any prefix) end tags there are: the cue array is sized once, not grown by doubling.
    func countParagraphEndTags() -> Int {
        var count = 0
        var i = 0
        while let lt = raw.find(UInt8(ascii: "<"), from: i) {
            i = lt + 1
            guard raw.at(lt + 1) == UInt8(ascii: "/") else { continue }
            var k = lt + 2
            while k < raw.n, k < lt + 64, raw.p[k] != UInt8(ascii: ">") { k += 1 }
            if raw.at(k) == UInt8(ascii: ">"), raw.at(k - 1) == UInt8(ascii: "p"), raw.at(k - 2) == UInt8(ascii: "/") || raw.at(k - 2) == UInt8(ascii: ":") {
                count += 1
            }
        }
        return count
    }

    mutating func run() throws -> Result {
        let expected = countParagraphEndTags()
        cues.reserveCapacity(expected)
        payload.cueScopes.reserveCapacity(expected)
        try scan(from: 0, to: raw.n)
        guard !cues.isEmpty || payload.rootAttributesEnd > 0 else {
            throw CaptionError(.notTTML, message: "no root element was found")
        }
        return finish()
    }

    mutating func buildParagraph(_ range: Range<Int>, context: TTMLParagraphContext)
        -> (runs: [TextRun], scopes: [Int: TTMLPayload.Scope]) {
        let lo = raw.clamped(range).lowerBound, hi = raw.clamped(range).upperBound
        buildRuns = true
        definitions = context.definitions
        family = context.definitions.family
        styleSheet = context.definitions.styleSheet
        styleSheet.frozen = true
        namespaces = TTMLNamespaceScope(raw, bindings: context.bindings, indexed: false)
        // No prefix index here: it is not kept with every paragraph (memory), and
        // one paragraph's few lookups cost less than building it (at most
        // `maximumBindings` bindings are searched).
        xml = XMLTokenizer(partOf: raw, from: lo)
        var frame = Frame(element: .p)
        frame.displayed = true
        frame.style = context.style
        frame.preserve = context.preserve
        stack = [frame]
        inParagraph = true
        paragraphDepth = 1
        paragraphBindings = namespaces.bindings.count
        // Scopes matter only where the paragraph redeclares namespaces inside.
        if context.innerNamespaces { paragraphScope = scope(contentPrefix: Array(context.contentPrefix.utf8)) }
        text.reserveCapacity(256)
        try? scan(from: lo, to: hi)
        text.trimTrailingSpace()
        var scopes: [Int: TTMLPayload.Scope] = [:]
        for (start, index) in payload.runScopes where payload.scopes.indices.contains(Int(index)) {
            scopes[start] = payload.scopes[Int(index)]
        }
        return (text.runs, scopes)
    }

    mutating func scan(from start: Int, to limit: Int) throws {
        xml.position = start
        while let token = try xml.next(before: limit) {
            switch token {
            case .text(let range):
                if buildRuns, inParagraph, stack.last?.displayed == true { addText(range, cdata: false) }
            case .cdata(let range):
                if buildRuns, inParagraph, stack.last?.displayed == true { addText(range, cdata: true) }
            case .endTag(let start):
                endElement(tagStart: start)
            case .startTag(let tag):
                try startElement(tag)
            case .markup:
                break
            }
        }
    }

    // MARK: Start tags

    mutating func startElement(_ tag: XMLStartTag) throws {
        let pushed = try declareNamespaces(tag)
        let ns = namespaces.namespace(prefix: tag.prefix)
        let element = classify(ns, tag.localName)
        let tagLine = buildRuns ? 0 : xml.line(at: tag.start)

        var frame: Frame
        if let parent = stack.last {
            frame = parent
            frame.element = element
            frame.timed = false
            frame.explicitEnd = false
            frame.seq = false
            frame.latestChildEnd = nil
            frame.regionID = nil
            frame.cursor = parent.seq ? parent.cursor : parent.begin
        } else {
            frame = try rootFrame(tag, element: element, namespace: ns, line: tagLine)
        }
        frame.bindings = pushed

        // xml:space.
        for a in attributes where a.colon >= 0 && raw.equals(a.name, "xml:space") {
            let v = raw.decodedString(a.value)
            if v == "preserve" { frame.preserve = true } else if v == "default" { frame.preserve = false }
            else { log.warn(tagLine, "xml:space=\"\(v)\" is neither \"default\" nor \"preserve\"; ignored") }
        }

        if !buildRuns { noteUncarried(element); noteLanguage(element) }
        let parent = stack.last
        switch element {
        case .head:
            frame.inHead = true; frame.displayed = false
        case .style where frame.inHead:
            styleSheet.define(style: definition(), id: xmlID(), inRegion: parent?.regionID, line: tagLine, warnings: &log)
        case .region where frame.inHead:
            if let id = xmlID() {
                styleSheet.define(region: definition(), id: id)
                frame.regionID = id
            }
        case .body where parent?.element == .tt:
            frame.displayed = true
            try timeAndStyle(&frame, parent: parent, line: tagLine, name: tag.name)
        case .div, .p, .span:
            if frame.displayed { try timeAndStyle(&frame, parent: parent, line: tagLine, name: tag.name) }
        case .br:
            if buildRuns, inParagraph, frame.displayed {
                text.lineBreak(tag.start..<tag.end, style: parent?.style.textStyle ?? [], preserve: parent?.preserve == true)
            }
        case .metadata, .otherContent, .foreign:
            frame.displayed = false
        default:
            break
        }

        guard stack.count < TTMLReader.maximumDepth else {
            throw CaptionError(.tooLarge, line: tagLine, message: "elements are nested more than \(TTMLReader.maximumDepth) deep; no caption document needs that")
        }
        stack.append(frame)
        if element == .p, frame.displayed, !inParagraph { beginParagraph(tag, frame: frame, line: tagLine) }
        if tag.selfClosing { endElement(tagStart: tag.slash) }
    }

    /// Brings the start tag's `xmlns` declarations into scope: how many there were.
    mutating func declareNamespaces(_ tag: XMLStartTag) throws -> Int {
        var pushed = 0
        for a in attributes {
            let isDefault = raw.equals(a.name, "xmlns")
            let isPrefixed = a.colon >= 0 && raw.equals(a.prefix, "xmlns")
            guard isDefault || isPrefixed else { continue }
            let prefix = isDefault ? a.name.lowerBound..<a.name.lowerBound : a.localName
            let uri = raw.decodedString(a.value)
            guard namespaces.bindings.count < TTMLReader.maximumBindings else {
                throw CaptionError(.tooLarge, line: buildRuns ? nil : xml.line(at: tag.start),
                                   message: "more than \(TTMLReader.maximumBindings) namespace declarations are in scope at once; no caption document needs that")
            }
            namespaces.push(TTMLNamespaceScope.Binding(prefix: prefix, namespace: TTMLNamespace.classify(uri)))
            declaredPrefixes[raw.string(prefix), default: []].insert(uri)
            pushed += 1
        }
        if pushed > 0, inParagraph, !buildRuns { payload.paragraphsWithInnerNamespaces.insert(cues.count) }
        return pushed
    }

    /// The root element's frame: it must be `tt` in a TTML namespace, whose
    /// generation and `ttp:` parameters then hold for the whole document.
    mutating func rootFrame(_ tag: XMLStartTag, element: Element, namespace ns: TTMLNamespace, line: Int) throws -> Frame {
        guard element == .tt else {
            let uri = tag.colon < 0 ? "no namespace or a non-TTML one" : "a non-TTML namespace"
            throw CaptionError(.notTTML, line: line,
                               message: "the root element is <\(raw.string(tag.name))> in \(uri), not <tt> in the TTML namespace (http://www.w3.org/ns/ttml, or the DFXP http://www.w3.org/2006/10/ttaf1 or http://www.w3.org/2006/04/ttaf1)")
        }
        family = ns.family
        payload.rootAttributesEnd = tag.attributesEnd
        payload.stylingURI = TTMLNamespace.stylingURI(family: family)
        readParameters(line: line)
        return Frame(element: .tt)
    }

    /// Starts reading a displayed paragraph (its frame is on the stack).
    mutating func beginParagraph(_ tag: XMLStartTag, frame: Frame, line: Int) {
        inParagraph = true
        paragraphDepth = stack.count
        paragraphBindings = namespaces.bindings.count
        paragraphLine = line
        paragraphContentStart = tag.selfClosing ? tag.slash : tag.end
        paragraphID = nil
        paragraphIDRange = nil
        for a in attributes where a.colon >= 0 ? raw.equals(a.name, "xml:id") : raw.equals(a.name, "id") {
            if a.colon >= 0 || paragraphID == nil { paragraphID = raw.decodedString(a.value); paragraphIDRange = a.value }
        }
        paragraphScope = scope(contentPrefix: raw.bytes(tag.prefix))
        paragraphStyle = frame.style
        paragraphPreserve = frame.preserve
        if definitions == nil { definitions = makeDefinitions(line: line) }
        if bindingSnapshot?.generation != namespaces.generation { bindingSnapshot = (namespaces.generation, namespaces.bindings) }
        if tag.selfClosing { payload.selfClosingParagraphs[cues.count] = raw.string(tag.name) }
    }

    static let carriedStyling: Set<String> = ["fontWeight", "fontStyle", "textDecoration"]

    /// Notes what a start tag has that cues cannot carry (for conversion losses).
    mutating func noteUncarried(_ element: Element) {
        switch element {
        case .region: payload.hasRegions = true
        case .metadata: payload.hasMetadata = true
        case .foreign: payload.hasForeignElements = true
        default: break
        }
        for a in attributes {
            if a.colon < 0 {
                if raw.equals(a.name, "region") { payload.hasRegions = true }
                continue
            }
            switch namespaces.namespace(of: a).role {
            case .styling:
                let name = raw.string(a.localName)
                if !TTMLReader.carriedStyling.contains(name) { payload.uncarriedStyling.insert(name) }
            case .metadata:
                payload.hasMetadata = true
            default:
                break
            }
        }
    }

    /// Notes the `xml:lang` of the root and of the body's content (for the
    /// language carried to another format, and set with `--language`).
    private mutating func noteLanguage(_ element: Element) {
        guard element == .tt || element == .body || element == .div || element == .p || element == .span else { return }
        for a in attributes where a.colon >= 0 && raw.equals(a.name, "xml:lang") {
            let language = LanguageTag.declared(raw.decodedString(a.value))
            if stack.isEmpty {
                payload.rootLanguageValue = a.value
                payload.rootLanguage = language
            }
            // A few are all a loss names: a hostile file's thousands are not compared with each other.
            if let language, payload.languages.count < TTMLPayload.languagesKept,
               !payload.languages.contains(where: { $0.lowercased() == language.lowercased() }) {
                payload.languages.append(language)
            }
        }
    }

    func classify(_ ns: TTMLNamespace, _ local: Range<Int>) -> Element {
        switch ns.role {
        case .content:
            if raw.equals(local, "p") { return .p }
            if raw.equals(local, "span") { return .span }
            if raw.equals(local, "br") { return .br }
            if raw.equals(local, "div") { return .div }
            if raw.equals(local, "body") { return .body }
            if raw.equals(local, "tt") { return .tt }
            if raw.equals(local, "head") { return .head }
            if raw.equals(local, "styling") { return .styling }
            if raw.equals(local, "style") { return .style }
            if raw.equals(local, "layout") { return .layout }
            if raw.equals(local, "region") { return .region }
            if raw.equals(local, "metadata") { return .metadata }
            return .otherContent
        case .metadata:
            return .metadata
        default:
            return .foreign
        }
    }

    func xmlID() -> String? {
        for a in attributes where a.colon >= 0 && raw.equals(a.name, "xml:id") { return raw.decodedString(a.value) }
        for a in attributes where raw.equals(a.name, "id") { return raw.decodedString(a.value) }
        return nil
    }

    /// The inline `tts:` styles and `style` references of the current start tag.
    func definition() -> TTMLStyleSheet.Definition {
        var def = TTMLStyleSheet.Definition()
        for a in attributes {
            if a.colon < 0 {
                if raw.equals(a.name, "style") {
                    def.references = raw.decodedString(a.value).split(separator: " ").map(String.init)
                }
            } else if namespaces.namespace(of: a).role == .styling {
                def.own.apply(attribute: raw.string(a.localName), value: raw.decodedString(a.value))
            }
        }
        return def
    }

    /// The definitions paragraphs share, with every style and region resolved once.
    mutating func makeDefinitions(line: Int) -> TTMLDefinitions {
        styleSheet.resolveAll(line: line, warnings: &log)
        return TTMLDefinitions(family: family, styleSheet: styleSheet)
    }

    // MARK: End tags

    mutating func endElement(tagStart: Int) {
        guard let frame = stack.popLast() else { return }
        if inParagraph, stack.count + 1 == paragraphDepth { finishParagraph(frame, contentEnd: tagStart) }
        if frame.timed, !stack.isEmpty {
            let definite: CaptionTime? = frame.explicitEnd ? frame.end : frame.latestChildEnd
            let parentIndex = stack.count - 1
            if let definite {
                stack[parentIndex].latestChildEnd = stack[parentIndex].latestChildEnd.map { max($0, definite) } ?? definite
            }
            if stack[parentIndex].seq {
                stack[parentIndex].cursor = definite ?? frame.end ?? frame.begin
            }
        }
        if frame.bindings > 0 {
            namespaces.pop(frame.bindings)
        }
    }

}
