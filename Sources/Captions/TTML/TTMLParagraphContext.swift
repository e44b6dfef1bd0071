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
/// scope, the style and `xml:space` in effect, the shared definitions, and
/// the document's bytes. A class, so that a cue holds it by reference (see
/// `Cue.Storage`).
final class TTMLParagraphContext: Sendable {
    /// The whole document's UTF-8 bytes (shared: a reference), which the cue's compact fields point into.
    let bytes: [UInt8]
    let definitions: TTMLDefinitions
    let bindings: [TTMLNamespaceScope.Binding]
    let contentPrefix: String
    let style: TTMLStyleState
    let preserve: Bool
    /// Whether the paragraph declares namespaces inside its content.
    let innerNamespaces: Bool

    init(bytes: [UInt8], definitions: TTMLDefinitions, bindings: [TTMLNamespaceScope.Binding], contentPrefix: String,
         style: TTMLStyleState, preserve: Bool, innerNamespaces: Bool) {
        self.bytes = bytes; self.definitions = definitions; self.bindings = bindings; self.contentPrefix = contentPrefix
        self.style = style; self.preserve = preserve; self.innerNamespaces = innerNamespaces
    }
}
