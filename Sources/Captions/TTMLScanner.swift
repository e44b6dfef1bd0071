import Foundation

/// The structure pass of the TTML reader: one scan over a document's UTF-8
/// bytes that libxml2 has already found well-formed (and namespace-well-formed),
/// building cues with exact times. Their runs are not built here: each cue
/// keeps its paragraph's context (`TTMLParagraphContext`) and the same scanner
/// rebuilds the runs from the shared source bytes when asked, each run keeping
/// the exact byte range of its raw text for the writer.
///
/// Namespaces are resolved by URI from the document's own `xmlns` declarations,
/// so `tt:`-prefixed, default-namespace and DFXP documents read alike. Every
/// byte access is bounds-checked, so even input that somehow slipped past the
/// well-formedness check cannot make it trap.
struct TTMLScanner {
    /// What a scan produces.
    struct Result {
        var cues: [Cue]
        var warnings: [CaptionWarning]
        var payload: TTMLPayload
    }

    /// Scans a document. Cues keep what is needed to build their runs later
    /// (`paragraphRuns`), so no text is copied into strings here.
    static func scan(_ bytes: [UInt8]) throws -> Result {
        try bytes.withUnsafeBufferPointer { buffer in
            var scanner = TTMLScanner(buffer, source: bytes)
            return try scanner.run()
        }
    }

    /// The runs of one paragraph (`range` is its content), rebuilt from the
    /// source bytes with the paragraph's inherited context, and the namespace
    /// scope of each run that differs from the paragraph's own (by run start).
    static func paragraphRuns(in range: Range<Int>, of bytes: [UInt8], context: TTMLParagraphContext)
        -> (runs: [TextRun], scopes: [Int: TTMLPayload.Scope]) {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = TTMLScanner(buffer, source: [])
            return scanner.buildParagraph(range, context: context)
        }
    }

    // MARK: - State

    private struct Attribute {
        var name: Range<Int>
        /// Index of the `:` in the name, or -1.
        var colon: Int
        var value: Range<Int>
    }

    struct Binding: Sendable {
        var prefix: Range<Int>
        var namespace: TTMLNamespace
    }

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

    struct StyleDefinition: Sendable {
        var own = TTMLStyleState()
        var references: [String] = []
        var nested: [TTMLStyleState] = []
    }

    private let p: UnsafeBufferPointer<UInt8>
    private let n: Int
    /// The document's bytes as an array (shared with the cues' lazy runs; empty when building one paragraph).
    private let source: [UInt8]
    /// Whether text is turned into runs (one paragraph) or skipped (the structure scan).
    private var buildRuns = false
    private var definitions: TTMLDefinitions?
    private var bindingSnapshot: (generation: Int, bindings: [Binding])?
    private var paragraphStyle = TTMLStyleState()
    private var paragraphPreserve = false
    private var attributes: [Attribute] = []
    private var bindings: [Binding] = []
    /// For each prefix (its bytes) with a binding in scope, the indices in
    /// `bindings` of its bindings, innermost last: a lookup costs the same
    /// however many namespaces are declared.
    private var bindingsByPrefix: [[UInt8]: [Int]] = [:]
    /// Whether `bindingsByPrefix` is kept (the structure scan) or not (one paragraph's runs).
    private var indexed = true
    private var bindingGeneration = 0
    private var stack: [Frame] = []
    private var timing = TTMLTimeExpression()
    private var family: UInt8 = 0
    private var styles: [String: StyleDefinition] = [:]
    private var regions: [String: StyleDefinition] = [:]
    private var resolvedStyles: [String: TTMLStyleState] = [:]
    private var resolvedRegions: [String: TTMLStyleState] = [:]
    private var resolving: Set<String> = []
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
    private var runs: [TextRun] = []
    private var lastWasSpace = true
    private var trailingSpaceRun: Int?
    private var scratch: [UInt8] = []

    private var lineScanned = 0
    private var lineNumber = 1
    private var warnings: [CaptionWarning] = []
    private var warningCounts: [String: Int] = [:]
    private static let warningsPerKind = 20
    /// libxml2's own default depth limit (its push parser does not apply it, so the scanner does).
    private static let maximumDepth = 256
    /// The most namespace declarations in scope at once (real documents have a
    /// handful; each paragraph keeps the ones in scope, so this bounds memory too).
    static let maximumBindings = 256

    private init(_ p: UnsafeBufferPointer<UInt8>, source: [UInt8]) {
        self.p = p
        self.source = source
        n = p.count
    }

    // MARK: - Bytes

    @inline(__always) private func at(_ k: Int) -> UInt8 { k >= 0 && k < n ? p[k] : 0 }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private func starts(_ k: Int, _ s: StaticString) -> Bool {
        let count = s.utf8CodeUnitCount
        guard k >= 0, k + count <= n else { return false }
        let q = s.utf8Start
        for j in 0..<count where p[k + j] != q[j] { return false }
        return true
    }

    private func equals(_ r: Range<Int>, _ s: StaticString) -> Bool {
        r.count == s.utf8CodeUnitCount && starts(r.lowerBound, s)
    }

    private func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for j in 0..<a.count where at(a.lowerBound + j) != at(b.lowerBound + j) { return false }
        return true
    }

    private func string(_ r: Range<Int>) -> String {
        let lo = max(0, min(r.lowerBound, n)), hi = max(lo, min(r.upperBound, n))
        return String(decoding: UnsafeBufferPointer(rebasing: p[lo..<hi]), as: UTF8.self)
    }

    private func find(_ byte: UInt8, from k: Int) -> Int? {
        guard k < n, let base = p.baseAddress else { return nil }
        guard let hit = memchr(base + k, Int32(byte), n - k) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    private func skip(past end: StaticString, from k: Int) -> Int {
        var j = k
        while let lt = find(end.utf8Start.pointee, from: j) {
            if starts(lt, end) { return lt + end.utf8CodeUnitCount }
            j = lt + 1
        }
        return n
    }

    /// The 1-based line of byte `k` (counting forwards from the last question, so a scan costs O(n) in all).
    private mutating func line(at k: Int) -> Int {
        if k < lineScanned { lineScanned = 0; lineNumber = 1 }
        var j = lineScanned
        let end = min(k, n)
        while j < end {
            let b = p[j]
            if b == 0x0A || (b == 0x0D && at(j + 1) != 0x0A) { lineNumber += 1 }
            j += 1
        }
        lineScanned = max(lineScanned, end)
        return lineNumber
    }

    /// Decodes a character or entity reference at `k` (which holds `&`): the scalar and the reference's length.
    private func reference(at k: Int, limit: Int) -> (scalar: UInt32, length: Int)? {
        var j = k + 1
        let stop = min(limit, k + 12)
        while j < stop, p[j] != UInt8(ascii: ";") { j += 1 }
        guard j < stop else { return nil }
        let body = (k + 1)..<j
        let length = j + 1 - k
        if at(k + 1) == UInt8(ascii: "#") {
            var value: UInt32 = 0
            var m = k + 2
            let hex = at(m) == UInt8(ascii: "x")
            if hex { m += 1 }
            guard m < j else { return nil }
            while m < j {
                let c = p[m]
                let digit: UInt32
                switch c {
                case 0x30...0x39: digit = UInt32(c - 0x30)
                case 0x61...0x66 where hex: digit = UInt32(c - 0x61 + 10)
                case 0x41...0x46 where hex: digit = UInt32(c - 0x41 + 10)
                default: return nil
                }
                value = value * (hex ? 16 : 10) + digit
                if value > 0x10FFFF { return nil }
                m += 1
            }
            guard Unicode.Scalar(value) != nil else { return nil }
            return (value, length)
        }
        if equals(body, "lt") { return (0x3C, length) }
        if equals(body, "gt") { return (0x3E, length) }
        if equals(body, "amp") { return (0x26, length) }
        if equals(body, "quot") { return (0x22, length) }
        if equals(body, "apos") { return (0x27, length) }
        return nil
    }

    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        guard let s = Unicode.Scalar(scalar) else { return }
        UTF8.encode(s) { out.append($0) }
    }

    /// An attribute value with references decoded and whitespace normalised to spaces.
    private func decodedValue(_ r: Range<Int>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(r.count)
        var k = r.lowerBound
        while k < r.upperBound {
            let b = at(k)
            if b == UInt8(ascii: "&"), let ref = reference(at: k, limit: r.upperBound) {
                TTMLScanner.appendUTF8(ref.scalar, to: &out)
                k += ref.length
            } else if b == 0x0D && at(k + 1) == 0x0A {
                out.append(0x20); k += 2
            } else {
                out.append(TTMLScanner.isSpace(b) ? 0x20 : b); k += 1
            }
        }
        return out
    }

    private func decodedString(_ r: Range<Int>) -> String { String(decoding: decodedValue(r), as: UTF8.self) }

    // MARK: - Warnings

    private mutating func warn(_ line: Int?, _ kind: String, _ message: String) {
        let count = warningCounts[kind, default: 0]
        warningCounts[kind] = count + 1
        if count < TTMLScanner.warningsPerKind { warnings.append(CaptionWarning(line: line, message: message)) }
    }

    // MARK: - Namespaces

    private func namespace(prefix: Range<Int>) -> TTMLNamespace {
        if equals(prefix, "xml") { return .xml }
        if indexed, bindings.count > 8 {
            guard let j = bindingsByPrefix[bytes(prefix)]?.last, bindings.indices.contains(j) else { return .foreign }
            return bindings[j].namespace
        }
        var j = bindings.count - 1
        while j >= 0 {
            if sameBytes(bindings[j].prefix, prefix) { return bindings[j].namespace }
            j -= 1
        }
        return .foreign
    }

    private func bytes(_ r: Range<Int>) -> [UInt8] {
        let lo = max(0, min(r.lowerBound, n)), hi = max(lo, min(r.upperBound, n))
        return Array(UnsafeBufferPointer(rebasing: p[lo..<hi]))
    }

    private mutating func pushBinding(_ binding: Binding) {
        if indexed { bindingsByPrefix[bytes(binding.prefix), default: []].append(bindings.count) }
        bindings.append(binding)
    }

    private mutating func popBindings(_ count: Int) {
        for _ in 0..<min(count, bindings.count) {
            guard let b = bindings.popLast() else { break }
            guard indexed else { continue }
            let key = bytes(b.prefix)
            bindingsByPrefix[key]?.removeLast()
            if bindingsByPrefix[key]?.isEmpty == true { bindingsByPrefix[key] = nil }
        }
    }

    private func attributeNamespace(_ a: Attribute) -> TTMLNamespace {
        a.colon < 0 ? .foreign : namespace(prefix: a.name.lowerBound..<a.colon)
    }

    private func localName(_ a: Attribute) -> Range<Int> {
        a.colon < 0 ? a.name : (a.colon + 1)..<a.name.upperBound
    }

    /// The prefix whose innermost binding in scope is `target` (the default namespace counts for elements only).
    private func prefix(boundTo target: TTMLNamespace, allowDefault: Bool) -> String? {
        var j = bindings.count - 1
        if indexed, bindings.count > 8 {
            // A binding counts only if it is the innermost one of its prefix.
            while j >= 0 {
                let b = bindings[j]
                j -= 1
                guard b.namespace == target, allowDefault || !b.prefix.isEmpty,
                      bindingsByPrefix[bytes(b.prefix)]?.last == j + 1 else { continue }
                return string(b.prefix)
            }
            return nil
        }
        var shadowed: [Range<Int>] = []
        while j >= 0 {
            let b = bindings[j]
            j -= 1
            if shadowed.contains(where: { sameBytes($0, b.prefix) }) { continue }
            shadowed.append(b.prefix)
            if b.namespace == target, allowDefault || !b.prefix.isEmpty { return string(b.prefix) }
        }
        return nil
    }

    private mutating func scope(contentPrefix: [UInt8]) -> UInt16 {
        if let cache = scopeCache, cache.generation == bindingGeneration, cache.prefix == contentPrefix { return cache.index }
        let scope = TTMLPayload.Scope(
            contentPrefix: String(decoding: contentPrefix, as: UTF8.self),
            stylingPrefix: prefix(boundTo: TTMLNamespace(role: .styling, family: family), allowDefault: false))
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
        scopeCache = (bindingGeneration, contentPrefix, index)
        return index
    }

    // MARK: - The scan

    /// How many `</p>` (any prefix) end tags there are: the cue array is sized once, not grown by doubling.
    private func countParagraphEndTags() -> Int {
        var count = 0
        var i = 0
        while let lt = find(UInt8(ascii: "<"), from: i) {
            i = lt + 1
            guard at(lt + 1) == UInt8(ascii: "/") else { continue }
            var k = lt + 2
            while k < n, k < lt + 64, p[k] != UInt8(ascii: ">") { k += 1 }
            if at(k) == UInt8(ascii: ">"), at(k - 1) == UInt8(ascii: "p"), at(k - 2) == UInt8(ascii: "/") || at(k - 2) == UInt8(ascii: ":") {
                count += 1
            }
        }
        return count
    }

    private mutating func run() throws -> Result {
        let expected = countParagraphEndTags()
        cues.reserveCapacity(expected)
        payload.cueScopes.reserveCapacity(expected)
        try scan(from: 0, to: n)
        guard !cues.isEmpty || payload.rootAttributesEnd > 0 else {
            throw CaptionError(.notTTML, message: "no root element was found")
        }
        return finish()
    }

    private mutating func buildParagraph(_ range: Range<Int>, context: TTMLParagraphContext)
        -> (runs: [TextRun], scopes: [Int: TTMLPayload.Scope]) {
        let lo = max(0, min(range.lowerBound, n)), hi = max(lo, min(range.upperBound, n))
        buildRuns = true
        definitions = context.definitions
        family = context.definitions.family
        styles = context.definitions.styles
        regions = context.definitions.regions
        resolvedStyles = context.definitions.resolvedStyles
        resolvedRegions = context.definitions.resolvedRegions
        bindings = context.bindings
        // No prefix index here: it is not kept with every paragraph (memory), and
        // one paragraph's few lookups cost less than building it (at most
        // `maximumBindings` bindings are searched).
        indexed = false
        lineScanned = lo
        var frame = Frame(element: .p)
        frame.displayed = true
        frame.style = context.style
        frame.preserve = context.preserve
        stack = [frame]
        inParagraph = true
        paragraphDepth = 1
        paragraphBindings = bindings.count
        // Scopes matter only where the paragraph redeclares namespaces inside.
        if context.innerNamespaces { paragraphScope = scope(contentPrefix: Array(context.contentPrefix.utf8)) }
        lastWasSpace = true
        scratch.reserveCapacity(256)
        try? scan(from: lo, to: hi)
        trimTrailingSpace()
        var scopes: [Int: TTMLPayload.Scope] = [:]
        for (start, index) in payload.runScopes where payload.scopes.indices.contains(Int(index)) {
            scopes[start] = payload.scopes[Int(index)]
        }
        return (runs, scopes)
    }

    private mutating func scan(from start: Int, to limit: Int) throws {
        var i = start
        while i < limit {
            if p[i] != UInt8(ascii: "<") {
                let next = min(find(UInt8(ascii: "<"), from: i) ?? limit, limit)
                if buildRuns, inParagraph, stack.last?.displayed == true { addText(i..<next, cdata: false) }
                i = next
                continue
            }
            let b1 = at(i + 1)
            if b1 == UInt8(ascii: "?") {
                i = skip(past: "?>", from: i + 2)
            } else if b1 == UInt8(ascii: "!") {
                if starts(i, "<!--") {
                    i = skip(past: "-->", from: i + 4)
                } else if starts(i, "<![CDATA[") {
                    let end = skip(past: "]]>", from: i + 9)
                    if buildRuns, inParagraph, stack.last?.displayed == true { addText((i + 9)..<max(i + 9, end - 3), cdata: true) }
                    i = end
                } else {
                    i = skipDoctype(from: i)
                }
            } else if b1 == UInt8(ascii: "/") {
                let close = find(UInt8(ascii: ">"), from: i) ?? n
                endElement(tagStart: i)
                i = close + 1
            } else {
                i = try startElement(at: i)
            }
        }
    }

    private func skipDoctype(from k: Int) -> Int {
        var j = k + 9
        var quote: UInt8 = 0
        var depth = 0
        while j < n {
            let c = p[j]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == 0x22 || c == 0x27 {
                quote = c
            } else if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth -= 1
            } else if starts(j, "<!--") {
                j = skip(past: "-->", from: j + 4); continue
            } else if starts(j, "<?") {
                j = skip(past: "?>", from: j + 2); continue
            } else if c == UInt8(ascii: ">"), depth <= 0 {
                return j + 1
            }
            j += 1
        }
        return n
    }

    // MARK: Start tags

    private mutating func startElement(at lt: Int) throws -> Int {
        // Name.
        var k = lt + 1
        let nameStart = k
        var colon = -1
        while k < n {
            let c = p[k]
            if TTMLScanner.isSpace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") { break }
            if c == UInt8(ascii: ":") && colon < 0 { colon = k }
            k += 1
        }
        let name = nameStart..<k
        var lastAttributeEnd = k
        // Attributes.
        attributes.removeAll(keepingCapacity: true)
        var selfClosing = false
        var slash = k
        while true {
            while k < n, TTMLScanner.isSpace(p[k]) { k += 1 }
            guard k < n else { throw truncated(lt) }
            let c = p[k]
            if c == UInt8(ascii: ">") { k += 1; break }
            if c == UInt8(ascii: "/") { selfClosing = true; slash = k; k += 1; if at(k) == UInt8(ascii: ">") { k += 1 }; break }
            let attributeStart = k
            var attributeColon = -1
            while k < n, p[k] != UInt8(ascii: "="), !TTMLScanner.isSpace(p[k]) {
                if p[k] == UInt8(ascii: ":") && attributeColon < 0 { attributeColon = k }
                k += 1
            }
            let attributeName = attributeStart..<k
            while k < n, TTMLScanner.isSpace(p[k]) { k += 1 }
            guard at(k) == UInt8(ascii: "=") else { throw truncated(lt) }
            k += 1
            while k < n, TTMLScanner.isSpace(p[k]) { k += 1 }
            let quote = at(k)
            guard quote == 0x22 || quote == 0x27 else { throw truncated(lt) }
            k += 1
            let valueStart = k
            guard let valueEnd = find(quote, from: k) else { throw truncated(lt) }
            k = valueEnd + 1
            lastAttributeEnd = k
            attributes.append(Attribute(name: attributeName, colon: attributeColon, value: valueStart..<valueEnd))
        }
        let tagEnd = k

        // Namespace declarations.
        var pushed = 0
        for a in attributes {
            let isDefault = equals(a.name, "xmlns")
            let isPrefixed = a.colon >= 0 && equals(a.name.lowerBound..<a.colon, "xmlns")
            guard isDefault || isPrefixed else { continue }
            let prefix = isDefault ? a.name.lowerBound..<a.name.lowerBound : (a.colon + 1)..<a.name.upperBound
            let uri = decodedString(a.value)
            guard bindings.count < TTMLScanner.maximumBindings else {
                throw CaptionError(.tooLarge, line: buildRuns ? nil : line(at: lt),
                                   message: "more than \(TTMLScanner.maximumBindings) namespace declarations are in scope at once; no caption document needs that")
            }
            pushBinding(Binding(prefix: prefix, namespace: TTMLNamespace.classify(uri)))
            declaredPrefixes[string(prefix), default: []].insert(uri)
            pushed += 1
        }
        if pushed > 0 {
            bindingGeneration += 1
            if inParagraph, !buildRuns { payload.paragraphsWithInnerNamespaces.insert(cues.count) }
        }

        let ns = namespace(prefix: colon < 0 ? nameStart..<nameStart : nameStart..<colon)
        let local = colon < 0 ? name : (colon + 1)..<name.upperBound
        let element = classify(ns, local)
        let tagLine = buildRuns ? 0 : line(at: lt)

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
            guard element == .tt else {
                let uri = colon < 0 ? "no namespace or a non-TTML one" : "a non-TTML namespace"
                throw CaptionError(.notTTML, line: tagLine,
                                   message: "the root element is <\(string(name))> in \(uri), not <tt> in the TTML namespace (http://www.w3.org/ns/ttml, or the DFXP http://www.w3.org/2006/10/ttaf1 or http://www.w3.org/2006/04/ttaf1)")
            }
            frame = Frame(element: .tt)
            family = ns.family
            payload.rootAttributesEnd = lastAttributeEnd
            payload.stylingURI = TTMLNamespace.stylingURI(family: family)
            readParameters(line: tagLine)
        }
        frame.bindings = pushed

        // xml:space.
        for a in attributes where a.colon >= 0 && equals(a.name, "xml:space") {
            let v = decodedString(a.value)
            if v == "preserve" { frame.preserve = true } else if v == "default" { frame.preserve = false }
            else { warn(tagLine, "xml:space", "xml:space=\"\(v)\" is neither \"default\" nor \"preserve\"; ignored") }
        }

        if !buildRuns { noteUncarried(element) }
        let parent = stack.last
        switch element {
        case .head:
            frame.inHead = true; frame.displayed = false
        case .style where frame.inHead:
            defineStyle(parent: parent, line: tagLine)
        case .region where frame.inHead:
            if let id = xmlID() {
                regions[id] = definition()
                frame.regionID = id
            }
        case .body where parent?.element == .tt:
            frame.displayed = true
            try timeAndStyle(&frame, parent: parent, line: tagLine, name: name)
        case .div, .p, .span:
            if frame.displayed { try timeAndStyle(&frame, parent: parent, line: tagLine, name: name) }
        case .br:
            if buildRuns, inParagraph, frame.displayed { lineBreak(lt..<tagEnd) }
        case .metadata, .otherContent, .foreign:
            frame.displayed = false
        default:
            break
        }

        guard stack.count < TTMLScanner.maximumDepth else {
            throw CaptionError(.tooLarge, line: tagLine, message: "elements are nested more than \(TTMLScanner.maximumDepth) deep; no caption document needs that")
        }
        stack.append(frame)
        if element == .p, frame.displayed, !inParagraph {
            inParagraph = true
            paragraphDepth = stack.count
            paragraphBindings = bindings.count
            paragraphLine = tagLine
            paragraphContentStart = selfClosing ? slash : tagEnd
            paragraphID = nil
            for a in attributes where a.colon >= 0 ? equals(a.name, "xml:id") : equals(a.name, "id") {
                if a.colon >= 0 || paragraphID == nil { paragraphID = decodedString(a.value) }
            }
            let contentPrefix = colon < 0 ? [] : Array(UnsafeBufferPointer(rebasing: p[nameStart..<colon]))
            paragraphScope = scope(contentPrefix: contentPrefix)
            paragraphStyle = frame.style
            paragraphPreserve = frame.preserve
            if definitions == nil { definitions = makeDefinitions(line: tagLine) }
            if bindingSnapshot?.generation != bindingGeneration { bindingSnapshot = (bindingGeneration, bindings) }
            if selfClosing { payload.selfClosingParagraphs[cues.count] = string(name) }
        }
        if selfClosing { endElement(tagStart: slash) }
        return tagEnd
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
                if equals(a.name, "region") { payload.hasRegions = true }
                continue
            }
            switch attributeNamespace(a).role {
            case .styling:
                let name = string(localName(a))
                if !TTMLScanner.carriedStyling.contains(name) { payload.uncarriedStyling.insert(name) }
            case .metadata:
                payload.hasMetadata = true
            default:
                break
            }
        }
    }

    private func truncated(_ k: Int) -> CaptionError {
        CaptionError(.malformedXML, message: "a start tag is cut short")
    }

    private func classify(_ ns: TTMLNamespace, _ local: Range<Int>) -> Element {
        switch ns.role {
        case .content:
            if equals(local, "p") { return .p }
            if equals(local, "span") { return .span }
            if equals(local, "br") { return .br }
            if equals(local, "div") { return .div }
            if equals(local, "body") { return .body }
            if equals(local, "tt") { return .tt }
            if equals(local, "head") { return .head }
            if equals(local, "styling") { return .styling }
            if equals(local, "style") { return .style }
            if equals(local, "layout") { return .layout }
            if equals(local, "region") { return .region }
            if equals(local, "metadata") { return .metadata }
            return .otherContent
        case .metadata:
            return .metadata
        default:
            return .foreign
        }
    }

    private func xmlID() -> String? {
        for a in attributes where a.colon >= 0 && equals(a.name, "xml:id") { return decodedString(a.value) }
        for a in attributes where equals(a.name, "id") { return decodedString(a.value) }
        return nil
    }

    /// The inline `tts:` styles and `style` references of the current start tag.
    private func definition() -> StyleDefinition {
        var def = StyleDefinition()
        for a in attributes {
            if a.colon < 0 {
                if equals(a.name, "style") {
                    def.references = decodedString(a.value).split(separator: " ").map(String.init)
                }
            } else if attributeNamespace(a).role == .styling {
                def.own.apply(attribute: string(localName(a)), value: decodedString(a.value))
            }
        }
        return def
    }

    private mutating func defineStyle(parent: Frame?, line: Int) {
        let def = definition()
        if let region = parent?.regionID {
            var state = TTMLStyleState()
            for r in def.references { state.overlay(resolveStyle(r, line: line)) }
            state.overlay(def.own)
            regions[region]?.nested.append(state)
        } else if let id = xmlID() {
            styles[id] = def
        }
    }

    /// The definitions paragraphs share, with every style and region resolved once.
    private mutating func makeDefinitions(line: Int) -> TTMLDefinitions {
        for id in styles.keys.sorted() { _ = resolveStyle(id, line: line) }
        for id in regions.keys.sorted() { _ = resolveRegion(id, line: line) }
        return TTMLDefinitions(family: family, styles: styles, regions: regions,
                               resolvedStyles: resolvedStyles, resolvedRegions: resolvedRegions)
    }

    /// A style's resolved state: its references' states in order, then its
    /// own attributes. Walked with an explicit stack rather than recursion, so
    /// a chain of any length (each style referring to the next) cannot
    /// overflow the call stack; a loop is cut where it closes, with a warning.
    private mutating func resolveStyle(_ id: String, line: Int) -> TTMLStyleState {
        if let done = resolvedStyles[id] { return done }
        if buildRuns { return TTMLStyleState() }  // already resolved (and warned about) by the structure scan
        struct Pending {
            var id: String
            var definition: StyleDefinition
            var next = 0
            var state = TTMLStyleState()
        }
        var pending: [Pending] = []
        // A style's state when known at once (resolved, unknown, or closing a loop); else it is pushed.
        func enter(_ id: String, _ scanner: inout TTMLScanner) -> TTMLStyleState? {
            if let done = scanner.resolvedStyles[id] { return done }
            guard let def = scanner.styles[id] else {
                scanner.warn(line, "unknown style", "style=\"\(id)\" names no style in the document's <styling>; ignored")
                scanner.resolvedStyles[id] = TTMLStyleState()
                return TTMLStyleState()
            }
            guard scanner.resolving.insert(id).inserted else {
                scanner.warn(line, "style loop", "style \"\(id)\" refers back to itself through its chain of style references; the loop was cut")
                return TTMLStyleState()
            }
            pending.append(Pending(id: id, definition: def))
            return nil
        }
        if let known = enter(id, &self) { return known }
        while let top = pending.indices.last {
            if pending[top].next < pending[top].definition.references.count {
                let reference = pending[top].definition.references[pending[top].next]
                pending[top].next += 1
                if let known = enter(reference, &self) { pending[top].state.overlay(known) }
                continue
            }
            var done = pending.removeLast()
            done.state.overlay(done.definition.own)
            resolving.remove(done.id)
            resolvedStyles[done.id] = done.state
            guard let parent = pending.indices.last else { return done.state }
            pending[parent].state.overlay(done.state)
        }
        return TTMLStyleState()
    }

    private mutating func resolveRegion(_ id: String, line: Int) -> TTMLStyleState {
        if let done = resolvedRegions[id] { return done }
        if buildRuns { return TTMLStyleState() }
        guard let def = regions[id] else {
            warn(line, "unknown region", "region=\"\(id)\" names no region in the document's <layout>; ignored")
            resolvedRegions[id] = TTMLStyleState()
            return TTMLStyleState()
        }
        var state = TTMLStyleState()
        for r in def.references { state.overlay(resolveStyle(r, line: line)) }
        for s in def.nested { state.overlay(s) }
        state.overlay(def.own)
        resolvedRegions[id] = state
        return state
    }

    // MARK: Parameters and timing

    private static let knownParameters: Set<String> = [
        "frameRate", "frameRateMultiplier", "subFrameRate", "tickRate", "timeBase", "dropMode", "clockMode",
        "markerMode", "pixelAspectRatio", "cellResolution", "profile", "displayAspectRatio", "version",
        "contentProfiles", "contentProfileCombination", "processorProfiles", "processorProfileCombination",
        "inferProcessorProfileMethod", "inferProcessorProfileSource", "permitFeatureNarrowing",
        "permitFeatureWidening", "validation", "validationAction", "mediaDuration", "mediaOffset",
        "displayMode", "activeArea",
    ]

    private mutating func readParameters(line: Int) {
        for a in attributes where attributeNamespace(a).role == .parameter {
            let name = string(localName(a))
            let value = decodedString(a.value).trimmingCharacters(in: .whitespaces)
            func positive(_ s: Substring) -> Int64? {
                guard let v = Int64(s), v > 0 else { return nil }
                return v
            }
            switch name {
            case "frameRate":
                if let v = positive(Substring(value)) { timing.frameRate = v; timing.frameRateSpecified = true }
                else { warn(line, "parameter", "ttp:frameRate=\"\(value)\" is not a positive whole number; 30 is used") }
            case "frameRateMultiplier":
                let parts = value.split(separator: " ", omittingEmptySubsequences: true)
                if parts.count == 2, let a = positive(parts[0]), let b = positive(parts[1]) {
                    timing.multiplierNumerator = a; timing.multiplierDenominator = b
                } else { warn(line, "parameter", "ttp:frameRateMultiplier=\"\(value)\" is not two positive whole numbers; 1:1 is used") }
            case "subFrameRate":
                if let v = positive(Substring(value)) { timing.subFrameRate = v }
                else { warn(line, "parameter", "ttp:subFrameRate=\"\(value)\" is not a positive whole number; 1 is used") }
            case "tickRate":
                if let v = positive(Substring(value)) { timing.tickRate = v }
                else { warn(line, "parameter", "ttp:tickRate=\"\(value)\" is not a positive whole number; the default is used") }
            case "timeBase":
                switch value {
                case "media": break
                case "smpte": warn(line, "parameter", "ttp:timeBase=\"smpte\": time codes are read as media times (frames counted without drop-frame adjustment)")
                case "clock": warn(line, "parameter", "ttp:timeBase=\"clock\": clock times are read as media times from the start of the document")
                default: warn(line, "parameter", "ttp:timeBase=\"\(value)\" is unknown; read as media")
                }
            case "dropMode":
                if value != "nonDrop" { warn(line, "parameter", "ttp:dropMode=\"\(value)\": drop-frame time codes are read without dropping frames") }
            default:
                if !TTMLScanner.knownParameters.contains(name) {
                    warn(line, "parameter", "unknown timing parameter ttp:\(name) ignored")
                }
            }
        }
    }

    private mutating func time(_ a: Attribute, on element: Range<Int>, line: Int) -> CaptionTime? {
        let lo = max(0, min(a.value.lowerBound, n)), hi = max(lo, min(a.value.upperBound, n))
        let raw = UnsafeBufferPointer(rebasing: p[lo..<hi])
        let parsed = raw.contains(UInt8(ascii: "&")) ? timing.parse(decodedValue(a.value)) : timing.parse(raw)
        switch parsed {
        case let .time(t, note):
            if let note { warn(line, "time", "\(string(a.name)) on <\(string(element))>: \(note)") }
            return t
        case let .invalid(reason):
            warn(line, "time", "\(string(a.name)) on <\(string(element))> ignored: \(reason)")
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
                if buildRuns, equals(local, "begin") || equals(local, "end") || equals(local, "dur") { continue }
                if equals(local, "begin") { begin = time(a, on: name, line: line) }
                else if equals(local, "end") { end = time(a, on: name, line: line) }
                else if equals(local, "dur") { dur = time(a, on: name, line: line) }
                else if equals(local, "timeContainer") {
                    let v = decodedString(a.value)
                    if v == "seq" { frame.seq = true } else if v != "par" {
                        warn(line, "timeContainer", "timeContainer=\"\(v)\" is neither \"par\" nor \"seq\"; read as par")
                    }
                } else if equals(local, "style") {
                    styleIDs = decodedString(a.value).split(separator: " ")
                } else if equals(local, "region") {
                    region = decodedString(a.value)
                } else if equals(local, "start") || equals(local, "stop") || equals(local, "duration") {
                    warn(line, "timing attribute", "\(string(local))= is not a TTML timing attribute (begin, end, dur); ignored")
                }
            } else {
                let ns = attributeNamespace(a)
                if ns.role == .styling {
                    inline.apply(attribute: string(localName(a)), value: decodedString(a.value))
                } else if ns.role == .content {
                    let local = localName(a)
                    if equals(local, "begin") || equals(local, "end") || equals(local, "dur") {
                        warn(line, "timing attribute", "\(string(a.name)) is in the TTML element namespace; timing attributes have no prefix. Read as \(string(local))")
                        let t = time(a, on: name, line: line)
                        if equals(local, "begin") { begin = begin ?? t } else if equals(local, "end") { end = end ?? t } else { dur = dur ?? t }
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
            if let sum = reference.adding(begin) { b = sum } else { warn(line, "overflow", "begin on <\(string(name))> overflows; the parent's begin is used") }
        }
        var e: CaptionTime?
        if let end {
            if let sum = reference.adding(end) { e = sum } else { warn(line, "overflow", "end on <\(string(name))> overflows; ignored") }
        }
        if let dur {
            if dur.numerator <= 0 { warn(line, "time", "dur on <\(string(name))> must be greater than zero") }
            if let sum = b.adding(dur) { e = e.map { min($0, sum) } ?? sum } else { warn(line, "overflow", "dur on <\(string(name))> overflows; ignored") }
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
            warn(line, "outside parent", "<\(string(name))> begins at \(b) after its parent ends at \(parentEnd); it is never shown")
        }
        frame.begin = b
        frame.cursor = b

        // Style: inherited, then region, referential (chained), inline.
        if let region { frame.style.overlay(resolveRegion(region, line: line)) }
        for id in styleIDs { frame.style.overlay(resolveStyle(String(id), line: line)) }
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
            popBindings(frame.bindings)
            bindingGeneration += 1
        }
    }

    // MARK: Paragraph text

    /// Adds the text of `range` (a text node, or the inside of a CDATA section)
    /// to the paragraph: references decoded, whitespace handled as
    /// `xml:space="default"` (collapsed, trimmed at line edges) or `preserve`.
    private mutating func addText(_ range: Range<Int>, cdata: Bool) {
        guard let frame = stack.last, !range.isEmpty else { return }
        let preserve = frame.preserve
        scratch.removeAll(keepingCapacity: true)
        let runIndex = runs.count
        var k = range.lowerBound
        let end = min(range.upperBound, n)
        while k < end {
            let b = p[k]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                var length = 1
                if b == 0x0D, k + 1 < end, p[k + 1] == 0x0A { length = 2 }
                whitespace(b == 0x0D ? 0x0A : b, preserve: preserve, runIndex: runIndex)
                k += length
            } else if b == UInt8(ascii: "&"), !cdata, let ref = reference(at: k, limit: end) {
                if ref.scalar == 0x20 || ref.scalar == 0x09 || ref.scalar == 0x0A || ref.scalar == 0x0D {
                    whitespace(UInt8(ref.scalar), preserve: preserve, runIndex: runIndex)
                } else {
                    TTMLScanner.appendUTF8(ref.scalar, to: &scratch)
                    lastWasSpace = false; trailingSpaceRun = nil
                }
                k += ref.length
            } else {
                scratch.append(b)
                lastWasSpace = false; trailingSpaceRun = nil
                k += 1
            }
        }
        guard !scratch.isEmpty else { return }
        runs.append(TextRun(kind: .text, text: String(decoding: scratch, as: UTF8.self), style: frame.style.textStyle, source: range))
        noteRunScope(range.lowerBound)
    }

    @inline(__always) private mutating func whitespace(_ b: UInt8, preserve: Bool, runIndex: Int) {
        if preserve {
            scratch.append(b)
            lastWasSpace = false; trailingSpaceRun = nil
        } else if !lastWasSpace {
            scratch.append(0x20)
            lastWasSpace = true; trailingSpaceRun = runIndex
        }
    }

    /// Records a run's namespace scope when a namespace was redeclared inside the paragraph.
    private mutating func noteRunScope(_ start: Int) {
        guard buildRuns, bindings.count > paragraphBindings else { return }
        let contentPrefix = prefix(boundTo: TTMLNamespace(role: .content, family: family), allowDefault: true) ?? ""
        let index = scope(contentPrefix: Array(contentPrefix.utf8))
        if index != paragraphScope { payload.runScopes[start] = index }
    }

    /// Drops the collapsible space that ends the paragraph's text so far (before a line break or the end).
    private mutating func trimTrailingSpace() {
        defer { trailingSpaceRun = nil }
        guard let t = trailingSpaceRun, runs.indices.contains(t) else { return }
        var bytes = Array(runs[t].text.utf8)
        guard bytes.last == 0x20 else { return }
        bytes.removeLast()
        if bytes.isEmpty { runs.remove(at: t) } else { runs[t].text = String(decoding: bytes, as: UTF8.self) }
    }

    private mutating func lineBreak(_ tag: Range<Int>) {
        if stack.last?.preserve != true { trimTrailingSpace() }
        runs.append(TextRun(kind: .lineBreak, text: "\n", style: stack.last?.style.textStyle ?? [], source: tag))
        lastWasSpace = true
        trailingSpaceRun = nil
    }

    private mutating func finishParagraph(_ frame: Frame, contentEnd: Int) {
        guard !buildRuns else { return }
        inParagraph = false
        let end = frame.end ?? frame.latestChildEnd
        let lower = min(paragraphContentStart, contentEnd)
        let context = TTMLParagraphContext(
            definitions: definitions ?? makeDefinitions(line: paragraphLine),
            bindings: bindingSnapshot?.bindings ?? bindings,
            contentPrefix: payload.scopes.indices.contains(Int(paragraphScope)) ? payload.scopes[Int(paragraphScope)].contentPrefix : "",
            style: paragraphStyle, preserve: paragraphPreserve,
            innerNamespaces: payload.paragraphsWithInnerNamespaces.contains(cues.count))
        let cue = Cue(identifier: paragraphID, start: frame.begin, end: end ?? frame.begin, settings: nil,
                      line: paragraphLine, textRange: lower..<contentEnd,
                      lazyRuns: LazyRuns(bytes: source, range: lower..<contentEnd, builder: .ttml(context)))
        if end == nil { unresolvedEnds.append(cues.count) }
        if let end, end < frame.begin {
            warn(paragraphLine, "end before begin", "the paragraph ends (\(end)) before it begins (\(frame.begin))")
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
            warnings.append(CaptionWarning(line: first,
                message: "\(count == 1 ? "a paragraph has" : "\(count) paragraphs have") no end time (no end or dur on it or any parent): each is shown until the next paragraph begins, the last until the latest end in the document"))
        }
        if cues.isEmpty { warnings.append(CaptionWarning(line: nil, message: "the document has no <p> elements in its <body>: there are no cues")) }
        for (kind, count) in warningCounts.sorted(by: { $0.key < $1.key }) where count > TTMLScanner.warningsPerKind {
            warnings.append(CaptionWarning(line: nil, message: "\(count - TTMLScanner.warningsPerKind) more warnings like the ones about \(kind) were left out"))
        }
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
        return Result(cues: cues, warnings: warnings, payload: payload)
    }
}

/// What a TTML document's paragraphs share for building their runs later:
/// the TTML generation and the style and region definitions.
final class TTMLDefinitions: Sendable {
    let family: UInt8
    let styles: [String: TTMLScanner.StyleDefinition]
    let regions: [String: TTMLScanner.StyleDefinition]
    let resolvedStyles: [String: TTMLStyleState]
    let resolvedRegions: [String: TTMLStyleState]

    init(family: UInt8, styles: [String: TTMLScanner.StyleDefinition], regions: [String: TTMLScanner.StyleDefinition],
         resolvedStyles: [String: TTMLStyleState], resolvedRegions: [String: TTMLStyleState]) {
        self.family = family; self.styles = styles; self.regions = regions
        self.resolvedStyles = resolvedStyles; self.resolvedRegions = resolvedRegions
    }
}

/// What one paragraph inherits from outside its content: the namespaces in
/// scope, the style and `xml:space` in effect, and the shared definitions.
struct TTMLParagraphContext: Sendable {
    let definitions: TTMLDefinitions
    let bindings: [TTMLScanner.Binding]
    let contentPrefix: String
    let style: TTMLStyleState
    let preserve: Bool
    /// Whether the paragraph declares namespaces inside its content.
    let innerNamespaces: Bool
}
