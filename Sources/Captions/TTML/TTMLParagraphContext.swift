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
/// A class, so that a cue holds it by reference (see `Cue.Attachment`).
final class TTMLParagraphContext: Sendable {
    let definitions: TTMLDefinitions
    let bindings: [TTMLNamespaceScope.Binding]
    let contentPrefix: String
    let style: TTMLStyleState
    let preserve: Bool
    /// Whether the paragraph declares namespaces inside its content.
    let innerNamespaces: Bool

    init(definitions: TTMLDefinitions, bindings: [TTMLNamespaceScope.Binding], contentPrefix: String,
         style: TTMLStyleState, preserve: Bool, innerNamespaces: Bool) {
        self.definitions = definitions; self.bindings = bindings; self.contentPrefix = contentPrefix
        self.style = style; self.preserve = preserve; self.innerNamespaces = innerNamespaces
    }
}
