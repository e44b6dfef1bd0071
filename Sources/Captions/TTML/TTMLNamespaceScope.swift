/// The XML namespace declarations in scope at a point of a TTML document,
/// innermost last, and the questions the reader asks of them: which namespace
/// a prefix is bound to, and which prefix is bound to a namespace.
///
/// Bindings keep their prefix as a byte range into the document, so pushing
/// one copies nothing. With many bindings in scope, a prefix index
/// (`indexed`) makes a lookup cost the same however many there are; the
/// reader keeps it for the structure scan, not for one paragraph's runs.
struct TTMLNamespaceScope {
    /// One `xmlns` or `xmlns:prefix` declaration.
    struct Binding: Sendable {
        /// The prefix's bytes in the document (empty for the default namespace).
        var prefix: Range<Int>
        var namespace: TTMLNamespace
    }

    private let raw: XMLBytes
    /// The bindings in scope, innermost last.
    private(set) var bindings: [Binding]
    /// Whether `bindingsByPrefix` is kept.
    private let indexed: Bool
    /// For each prefix (its bytes) with a binding in scope, the indices in
    /// `bindings` of its bindings, innermost last.
    private var bindingsByPrefix: [[UInt8]: [Int]] = [:]
    /// Changes whenever a binding is pushed or popped (for caches of what depends on the scope).
    private(set) var generation = 0

    /// A scope over `raw`'s bytes holding `bindings` (whose prefixes are ranges of `raw`).
    init(_ raw: XMLBytes, bindings: [Binding] = [], indexed: Bool) {
        self.raw = raw
        self.indexed = indexed
        self.bindings = indexed ? [] : bindings
        if indexed { for binding in bindings { push(binding) } }
        generation = 0
    }

    /// The namespace `prefix` (bytes of the document) is bound to; `xml` is always bound.
    func namespace(prefix: Range<Int>) -> TTMLNamespace {
        if raw.equals(prefix, "xml") { return .xml }
        if indexed, bindings.count > 8 {
            guard let j = bindingsByPrefix[raw.bytes(prefix)]?.last, bindings.indices.contains(j) else { return .foreign }
            return bindings[j].namespace
        }
        var j = bindings.count - 1
        while j >= 0 {
            if raw.sameBytes(bindings[j].prefix, prefix) { return bindings[j].namespace }
            j -= 1
        }
        return .foreign
    }

    /// An attribute's namespace: an attribute with no prefix is in none (read as foreign).
    func namespace(of a: XMLAttribute) -> TTMLNamespace {
        a.colon < 0 ? .foreign : namespace(prefix: a.name.lowerBound..<a.colon)
    }

    /// The prefix whose innermost binding in scope is `target` (the default namespace counts for elements only).
    func prefix(boundTo target: TTMLNamespace, allowDefault: Bool) -> String? {
        var j = bindings.count - 1
        if indexed, bindings.count > 8 {
            // A binding counts only if it is the innermost one of its prefix.
            while j >= 0 {
                let b = bindings[j]
                j -= 1
                guard b.namespace == target, allowDefault || !b.prefix.isEmpty,
                      bindingsByPrefix[raw.bytes(b.prefix)]?.last == j + 1 else { continue }
                return raw.string(b.prefix)
            }
            return nil
        }
        var shadowed: [Range<Int>] = []
        while j >= 0 {
            let b = bindings[j]
            j -= 1
            if shadowed.contains(where: { raw.sameBytes($0, b.prefix) }) { continue }
            shadowed.append(b.prefix)
            if b.namespace == target, allowDefault || !b.prefix.isEmpty { return raw.string(b.prefix) }
        }
        return nil
    }

    /// Brings a declaration into scope (innermost).
    mutating func push(_ binding: Binding) {
        if indexed { bindingsByPrefix[raw.bytes(binding.prefix), default: []].append(bindings.count) }
        bindings.append(binding)
        generation += 1
    }

    /// Takes the innermost `count` declarations out of scope.
    mutating func pop(_ count: Int) {
        guard count > 0 else { return }
        for _ in 0..<min(count, bindings.count) {
            guard let b = bindings.popLast() else { break }
            guard indexed else { continue }
            let key = raw.bytes(b.prefix)
            bindingsByPrefix[key]?.removeLast()
            if bindingsByPrefix[key]?.isEmpty == true { bindingsByPrefix[key] = nil }
        }
        generation += 1
    }
}
