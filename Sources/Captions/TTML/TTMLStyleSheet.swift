/// A TTML document's `style` and `region` definitions and their resolved
/// states: referential styles (`style="a b"`), chained styles (a style that
/// refers to others), styles nested in a region, and inline `tts:` attributes.
///
/// Resolving walks an explicit stack rather than recursing, so a chain of any
/// length (each style referring to the next) cannot overflow the call stack;
/// a loop is cut where it closes, with a warning. Each style and region is
/// resolved once; the structure scan resolves them all before the first
/// paragraph (`resolveAll`), so rebuilding one paragraph's runs later only
/// looks them up (`frozen`).
struct TTMLStyleSheet: Sendable {
    /// One `style` or `region` element: its own styling attributes, the
    /// styles it refers to, and (for a region) the styles nested in it.
    struct Definition: Sendable {
        var own = TTMLStyleState()
        var references: [String] = []
        var nested: [TTMLStyleState] = []
    }

    private(set) var styles: [String: Definition] = [:]
    private(set) var regions: [String: Definition] = [:]
    private var resolvedStyles: [String: TTMLStyleState] = [:]
    private var resolvedRegions: [String: TTMLStyleState] = [:]
    private var resolving: Set<String> = []
    /// Whether every definition is already resolved (and warned about): an
    /// unknown name then means no style, silently.
    var frozen = false

    /// Adds a `style` element's definition: a style of its own (`id`), or one nested in the region `region`.
    mutating func define(style definition: Definition, id: String?, inRegion region: String?,
                         line: Int, warnings: inout CaptionWarningLog) {
        if let region {
            var state = TTMLStyleState()
            for r in definition.references { state.overlay(style(r, line: line, warnings: &warnings)) }
            state.overlay(definition.own)
            regions[region]?.nested.append(state)
        } else if let id {
            styles[id] = definition
        }
    }

    /// Adds a `region` element's definition.
    mutating func define(region definition: Definition, id: String) {
        regions[id] = definition
    }

    /// Resolves every style and region (in name order), so later lookups need no warnings.
    mutating func resolveAll(line: Int, warnings: inout CaptionWarningLog) {
        for id in styles.keys.sorted() { _ = style(id, line: line, warnings: &warnings) }
        for id in regions.keys.sorted() { _ = region(id, line: line, warnings: &warnings) }
    }

    /// A style's resolved state: its references' states in order, then its own attributes.
    mutating func style(_ id: String, line: Int, warnings: inout CaptionWarningLog) -> TTMLStyleState {
        if let done = resolvedStyles[id] { return done }
        if frozen { return TTMLStyleState() }
        struct Pending {
            var id: String
            var definition: Definition
            var next = 0
            var state = TTMLStyleState()
        }
        var pending: [Pending] = []
        // A style's state when known at once (resolved, unknown, or closing a loop); else it is pushed.
        func enter(_ id: String, _ sheet: inout TTMLStyleSheet, _ warnings: inout CaptionWarningLog) -> TTMLStyleState? {
            if let done = sheet.resolvedStyles[id] { return done }
            guard let definition = sheet.styles[id] else {
                warnings.warn(line, "style=\"\(id)\" names no style in the document's <styling>; ignored")
                sheet.resolvedStyles[id] = TTMLStyleState()
                return TTMLStyleState()
            }
            guard sheet.resolving.insert(id).inserted else {
                warnings.warn(line, "style \"\(id)\" refers back to itself through its chain of style references; the loop was cut")
                return TTMLStyleState()
            }
            pending.append(Pending(id: id, definition: definition))
            return nil
        }
        if let known = enter(id, &self, &warnings) { return known }
        while let top = pending.indices.last {
            if pending[top].next < pending[top].definition.references.count {
                let reference = pending[top].definition.references[pending[top].next]
                pending[top].next += 1
                if let known = enter(reference, &self, &warnings) { pending[top].state.overlay(known) }
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

    /// A region's resolved state: its referenced styles, its nested styles, then its own attributes.
    mutating func region(_ id: String, line: Int, warnings: inout CaptionWarningLog) -> TTMLStyleState {
        if let done = resolvedRegions[id] { return done }
        if frozen { return TTMLStyleState() }
        guard let definition = regions[id] else {
            warnings.warn(line, "region=\"\(id)\" names no region in the document's <layout>; ignored")
            resolvedRegions[id] = TTMLStyleState()
            return TTMLStyleState()
        }
        var state = TTMLStyleState()
        for r in definition.references { state.overlay(style(r, line: line, warnings: &warnings)) }
        for s in definition.nested { state.overlay(s) }
        state.overlay(definition.own)
        resolvedRegions[id] = state
        return state
    }
}
