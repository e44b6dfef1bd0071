/// The TTML namespaces, recognised by URI (never by prefix), in the three
/// generations of the specification: TTML (`http://www.w3.org/ns/ttml`) and the
/// DFXP drafts (`http://www.w3.org/2006/10/ttaf1` and `http://www.w3.org/2006/04/ttaf1`).
struct TTMLNamespace: Hashable, Sendable {
    /// What a namespace is for.
    enum Role: UInt8, Sendable {
        /// Elements (`tt`, `body`, `p`, `span`, …).
        case content
        /// `#styling` attributes (`tts:`).
        case styling
        /// `#parameter` attributes (`ttp:`).
        case parameter
        /// `#metadata` elements and attributes (`ttm:`).
        case metadata
        /// The XML namespace (`xml:id`, `xml:space`, `xml:lang`).
        case xml
        /// No namespace, or one TTML does not define.
        case foreign
    }

    /// The role of the namespace.
    var role: Role
    /// 0: `http://www.w3.org/ns/ttml`; 1: `…/2006/10/ttaf1`; 2: `…/2006/04/ttaf1`.
    var family: UInt8

    static let foreign = TTMLNamespace(role: .foreign, family: 0)
    static let xml = TTMLNamespace(role: .xml, family: 0)

    /// The content namespace URI of each family.
    static let familyURIs = ["http://www.w3.org/ns/ttml", "http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1"]

    /// The styling namespace URI of a family.
    static func stylingURI(family: UInt8) -> String {
        familyURIs[Int(family) % familyURIs.count] + "#styling"
    }

    /// Classifies a namespace URI (already decoded from its attribute).
    static func classify(_ uri: String) -> TTMLNamespace {
        if uri == "http://www.w3.org/XML/1998/namespace" { return .xml }
        for (family, base) in familyURIs.enumerated() where uri.hasPrefix(base) {
            let rest = uri.dropFirst(base.count)
            let f = UInt8(family)
            switch rest {
            case "": return TTMLNamespace(role: .content, family: f)
            case "#styling": return TTMLNamespace(role: .styling, family: f)
            case "#parameter": return TTMLNamespace(role: .parameter, family: f)
            case "#metadata": return TTMLNamespace(role: .metadata, family: f)
            default: return .foreign
            }
        }
        return .foreign
    }
}
