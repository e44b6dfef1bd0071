import Foundation

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
    private struct Result {
        var cues: [Cue]
        var warnings: [CaptionWarning]
        var payload: TTMLPayload
    }

    /// Scans a document. Cues keep what is needed to build their runs later
    /// (`paragraphRuns`), so no text is copied into strings here.
    private static func scan(_ bytes: [UInt8]) throws -> Result {
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

    private enum Element: UInt8 {
        case tt, head, styling, style, layout, region, body, div, p, span, br, metadata, otherContent, foreign
    }

    private struct Frame {
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
    private let raw: XMLBytes
    private var xml: XMLTokenizer
    /// The document's bytes as an array (shared with the cues' lazy runs; empty when building one paragraph).
    private let source: [UInt8]
    /// Whether text is turned into runs (one paragraph) or skipped (the structure scan).
    private var buildRuns = false
    private var definitions: TTMLDefinitions?
    private var bindingSnapshot: (generation: Int, bindings: [TTMLNamespaceScope.Binding])?
    private var paragraphStyle = TTMLStyleState()
    private var paragraphPreserve = false
    private var namespaces: TTMLNamespaceScope
    private var stack: [Frame] = []
    private var timing = TTMLTimeExpression()
    private var family: UInt8 = 0
    private var styleSheet = TTMLStyleSheet()
    private var declaredPrefixes: [String: Set<String>] = [:]

    private var cues: [Cue] = []
    private var payload = TTMLPayload()
    private var scopeIndex: [TTMLPayload.Scope: UInt16] = [:]
    private var scopeCache: (generation: Int, prefix: [UInt8], index: UInt16)?
    private var unresolvedEnds: [Int] = []

    // The paragraph being read.
    private var inParagraph = false
    private var paragraphDepth = 0
    private var paragraphBindings = 0
    private var paragraphScope: UInt16 = 0
    private var paragraphLine = 0
    private var paragraphID: String?
    private var paragraphContentStart = 0
    private var text: TTMLParagraphText

    private var log = CaptionWarningLog(perKind: 20)
    /// libxml2's own default depth limit (its push parser does not apply it, so the reader does).
    private static let maximumDepth = 256
    /// The most namespace declarations in scope at once (real documents have a
    /// handful; each paragraph keeps the ones in scope, so this bounds memory too).
    static let maximumBindings = 256

    private init(_ p: UnsafeBufferPointer<UInt8>, source: [UInt8]) {
        raw = XMLBytes(p)
        xml = XMLTokenizer(raw)
        namespaces = TTMLNamespaceScope(raw, indexed: true)
        text = TTMLParagraphText(raw)
        self.source = source
    }

    /// The attributes of the start tag being read.
    private var attributes: [XMLAttribute] { xml.attributes }

    // MARK: - Namespaces

    private mutating func scope(contentPrefix: [UInt8]) -> UInt16 {
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
    private func countParagraphEndTags() -> Int {
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

    private mutating func run() throws -> Result {
        let expected = countParagraphEndTags()
        cues.reserveCapacity(expected)
        payload.cueScopes.reserveCapacity(expected)
        try scan(from: 0, to: raw.n)
        guard !cues.isEmpty || payload.rootAttributesEnd > 0 else {
            throw CaptionError(.notTTML, message: "no root element was found")
        }
        return finish()
    }

    private mutating func buildParagraph(_ range: Range<Int>, context: TTMLParagraphContext)
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

    private mutating func scan(from start: Int, to limit: Int) throws {
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

    private mutating func startElement(_ tag: XMLStartTag) throws {
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
            else { log.warn(tagLine, "xml:space", "xml:space=\"\(v)\" is neither \"default\" nor \"preserve\"; ignored") }
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
    private mutating func declareNamespaces(_ tag: XMLStartTag) throws -> Int {
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
    private mutating func rootFrame(_ tag: XMLStartTag, element: Element, namespace ns: TTMLNamespace, line: Int) throws -> Frame {
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
    private mutating func beginParagraph(_ tag: XMLStartTag, frame: Frame, line: Int) {
        inParagraph = true
        paragraphDepth = stack.count
        paragraphBindings = namespaces.bindings.count
        paragraphLine = line
        paragraphContentStart = tag.selfClosing ? tag.slash : tag.end
        paragraphID = nil
        for a in attributes where a.colon >= 0 ? raw.equals(a.name, "xml:id") : raw.equals(a.name, "id") {
            if a.colon >= 0 || paragraphID == nil { paragraphID = raw.decodedString(a.value) }
        }
        paragraphScope = scope(contentPrefix: raw.bytes(tag.prefix))
        paragraphStyle = frame.style
        paragraphPreserve = frame.preserve
        if definitions == nil { definitions = makeDefinitions(line: line) }
        if bindingSnapshot?.generation != namespaces.generation { bindingSnapshot = (namespaces.generation, namespaces.bindings) }
        if tag.selfClosing { payload.selfClosingParagraphs[cues.count] = raw.string(tag.name) }
    }

    private static let carriedStyling: Set<String> = ["fontWeight", "fontStyle", "textDecoration"]

    /// Notes what a start tag has that cues cannot carry (for conversion losses).
    private mutating func noteUncarried(_ element: Element) {
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

    private func classify(_ ns: TTMLNamespace, _ local: Range<Int>) -> Element {
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

    private func xmlID() -> String? {
        for a in attributes where a.colon >= 0 && raw.equals(a.name, "xml:id") { return raw.decodedString(a.value) }
        for a in attributes where raw.equals(a.name, "id") { return raw.decodedString(a.value) }
        return nil
    }

    /// The inline `tts:` styles and `style` references of the current start tag.
    private func definition() -> TTMLStyleSheet.Definition {
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
    private mutating func makeDefinitions(line: Int) -> TTMLDefinitions {
        styleSheet.resolveAll(line: line, warnings: &log)
        return TTMLDefinitions(family: family, styleSheet: styleSheet)
    }

    // MARK: Parameters and timing

    private mutating func readParameters(line: Int) {
        for a in attributes where namespaces.namespace(of: a).role == .parameter {
            timing.apply(parameter: raw.string(a.localName), value: raw.decodedString(a.value), line: line, warnings: &log)
        }
    }

    private mutating func time(_ a: XMLAttribute, on element: Range<Int>, line: Int) -> CaptionTime? {
        let value = raw.slice(a.value)
        let parsed = value.contains(UInt8(ascii: "&")) ? timing.parse(raw.decodedValue(a.value)) : timing.parse(value)
        switch parsed {
        case let .time(t, note):
            if let note { log.warn(line, "time", "\(raw.string(a.name)) on <\(raw.string(element))>: \(note)") }
            return t
        case let .invalid(reason):
            log.warn(line, "time", "\(raw.string(a.name)) on <\(raw.string(element))> ignored: \(reason)")
            return nil
        }
    }

    private mutating func timeAndStyle(_ frame: inout Frame, parent: Frame?, line: Int, name: Range<Int>) throws {
        var begin: CaptionTime?, end: CaptionTime?, dur: CaptionTime?
        var region: String?, styleIDs: [Substring] = []
        var inline = TTMLStyleState()
        for a in attributes {
            if a.colon < 0 {
                let local = a.name
                if buildRuns, raw.equals(local, "begin") || raw.equals(local, "end") || raw.equals(local, "dur") { continue }
                if raw.equals(local, "begin") { begin = time(a, on: name, line: line) }
                else if raw.equals(local, "end") { end = time(a, on: name, line: line) }
                else if raw.equals(local, "dur") { dur = time(a, on: name, line: line) }
                else if raw.equals(local, "timeContainer") {
                    let v = raw.decodedString(a.value)
                    if v == "seq" { frame.seq = true } else if v != "par" {
                        log.warn(line, "timeContainer", "timeContainer=\"\(v)\" is neither \"par\" nor \"seq\"; read as par")
                    }
                } else if raw.equals(local, "style") {
                    styleIDs = raw.decodedString(a.value).split(separator: " ")
                } else if raw.equals(local, "region") {
                    region = raw.decodedString(a.value)
                } else if raw.equals(local, "start") || raw.equals(local, "stop") || raw.equals(local, "duration") {
                    log.warn(line, "timing attribute", "\(raw.string(local))= is not a TTML timing attribute (begin, end, dur); ignored")
                }
            } else {
                let ns = namespaces.namespace(of: a)
                if ns.role == .styling {
                    inline.apply(attribute: raw.string(a.localName), value: raw.decodedString(a.value))
                } else if ns.role == .content {
                    let local = a.localName
                    if raw.equals(local, "begin") || raw.equals(local, "end") || raw.equals(local, "dur") {
                        log.warn(line, "timing attribute", "\(raw.string(a.name)) is in the TTML element namespace; timing attributes have no prefix. Read as \(raw.string(local))")
                        let t = time(a, on: name, line: line)
                        if raw.equals(local, "begin") { begin = begin ?? t } else if raw.equals(local, "end") { end = end ?? t } else { dur = dur ?? t }
                    }
                }
            }
        }

        // Timing (TTML2 §12.2, Appendix I): relative to the parent's begin (par)
        // or the previous sibling's end (seq); end and dur: the earlier wins.
        frame.timed = !buildRuns
        let reference = parent.map { $0.seq ? $0.cursor : $0.begin } ?? .zero
        var b = reference
        if let begin {
            if let sum = reference.adding(begin) { b = sum } else { log.warn(line, "overflow", "begin on <\(raw.string(name))> overflows; the parent's begin is used") }
        }
        var e: CaptionTime?
        if let end {
            if let sum = reference.adding(end) { e = sum } else { log.warn(line, "overflow", "end on <\(raw.string(name))> overflows; ignored") }
        }
        if let dur {
            if dur.numerator <= 0 { log.warn(line, "time", "dur on <\(raw.string(name))> must be greater than zero") }
            if let sum = b.adding(dur) { e = e.map { min($0, sum) } ?? sum } else { log.warn(line, "overflow", "dur on <\(raw.string(name))> overflows; ignored") }
        }
        let parentEnd = parent?.end
        if let explicit = e {
            frame.explicitEnd = true
            frame.end = parentEnd.map { min($0, explicit) } ?? explicit
        } else {
            frame.explicitEnd = false
            frame.end = parentEnd
        }
        if let parentEnd, b > parentEnd {
            log.warn(line, "outside parent", "<\(raw.string(name))> begins at \(b) after its parent ends at \(parentEnd); it is never shown")
        }
        frame.begin = b
        frame.cursor = b

        // Style: inherited, then region, referential (chained), inline.
        if let region { frame.style.overlay(styleSheet.region(region, line: line, warnings: &log)) }
        for id in styleIDs { frame.style.overlay(styleSheet.style(String(id), line: line, warnings: &log)) }
        frame.style.overlay(inline)
    }

    // MARK: End tags

    private mutating func endElement(tagStart: Int) {
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

    // MARK: Paragraph text

    /// Adds a text node or CDATA section to the paragraph's runs, noting its namespace scope.
    private mutating func addText(_ range: Range<Int>, cdata: Bool) {
        guard let frame = stack.last else { return }
        if text.add(range, cdata: cdata, style: frame.style.textStyle, preserve: frame.preserve) {
            noteRunScope(range.lowerBound)
        }
    }

    /// Records a run's namespace scope when a namespace was redeclared inside the paragraph.
    private mutating func noteRunScope(_ start: Int) {
        guard buildRuns, namespaces.bindings.count > paragraphBindings else { return }
        let contentPrefix = namespaces.prefix(boundTo: TTMLNamespace(role: .content, family: family), allowDefault: true) ?? ""
        let index = scope(contentPrefix: Array(contentPrefix.utf8))
        if index != paragraphScope { payload.runScopes[start] = index }
    }

    private mutating func finishParagraph(_ frame: Frame, contentEnd: Int) {
        guard !buildRuns else { return }
        inParagraph = false
        let end = frame.end ?? frame.latestChildEnd
        let lower = min(paragraphContentStart, contentEnd)
        let context = TTMLParagraphContext(
            definitions: definitions ?? makeDefinitions(line: paragraphLine),
            bindings: bindingSnapshot?.bindings ?? namespaces.bindings,
            contentPrefix: payload.scopes.indices.contains(Int(paragraphScope)) ? payload.scopes[Int(paragraphScope)].contentPrefix : "",
            style: paragraphStyle, preserve: paragraphPreserve,
            innerNamespaces: payload.paragraphsWithInnerNamespaces.contains(cues.count))
        let cue = Cue(identifier: paragraphID, start: frame.begin, end: end ?? frame.begin, settings: nil,
                      line: paragraphLine, textRange: lower..<contentEnd,
                      lazyRuns: LazyRuns(bytes: source, range: lower..<contentEnd, builder: .ttml(context)))
        if end == nil { unresolvedEnds.append(cues.count) }
        if let end, end < frame.begin {
            log.warn(paragraphLine, "end before begin", "the paragraph ends (\(end)) before it begins (\(frame.begin))")
        }
        cues.append(cue)
        payload.cueScopes.append(paragraphScope)
    }

    // MARK: Finishing

    private mutating func finish() -> Result {
        payload.openEnded = unresolvedEnds
        if !unresolvedEnds.isEmpty {
            let latest = cues.reduce(CaptionTime.zero) { max($0, $1.end, $1.start) }
            for index in unresolvedEnds {
                let start = cues[index].start
                var end = latest > start ? latest : start
                var j = index + 1
                while j < cues.count, j <= index + 64 {
                    if cues[j].start > start { end = cues[j].start; break }
                    j += 1
                }
                cues[index].end = end
            }
            let first = cues[unresolvedEnds[0]].line
            let count = unresolvedEnds.count
            log.append(CaptionWarning(line: first,
                message: "\(count == 1 ? "a paragraph has" : "\(count) paragraphs have") no end time (no end or dur on it or any parent): each is shown until the next paragraph begins, the last until the latest end in the document"))
        }
        if cues.isEmpty { log.append(CaptionWarning(line: nil, message: "the document has no <p> elements in its <body>: there are no cues")) }
        // A prefix for declaring the styling namespace: one never bound to anything else.
        let uri = payload.stylingURI
        var candidate = "tts"
        var suffix = 1
        while let uris = declaredPrefixes[candidate], uris != [uri] {
            suffix += 1
            candidate = "tts\(suffix)"
        }
        payload.declarationPrefix = candidate
        if payload.scopes.isEmpty { payload.scopes = [TTMLPayload.Scope(contentPrefix: "", stylingPrefix: nil)] }
        return Result(cues: cues, warnings: log.finish(), payload: payload)
    }
}

/// What a TTML document's paragraphs share for building their runs later:
/// the TTML generation and the resolved style and region definitions.
final class TTMLDefinitions: Sendable {
    let family: UInt8
    let styleSheet: TTMLStyleSheet

    init(family: UInt8, styleSheet: TTMLStyleSheet) {
        self.family = family
        self.styleSheet = styleSheet
    }
}

/// What one paragraph inherits from outside its content: the namespaces in
/// scope, the style and `xml:space` in effect, and the shared definitions.
struct TTMLParagraphContext: Sendable {
    let definitions: TTMLDefinitions
    let bindings: [TTMLNamespaceScope.Binding]
    let contentPrefix: String
    let style: TTMLStyleState
    let preserve: Bool
    /// Whether the paragraph declares namespaces inside its content.
    let innerNamespaces: Bool
}
