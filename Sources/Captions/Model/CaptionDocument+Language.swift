extension CaptionDocument {
    /// The language the file declares, when it is a well-formed BCP 47 tag:
    /// TTML's root `xml:lang` (or, when the root declares none, the one
    /// language its content declares), WebVTT's `Language:` header line; nil
    /// for SRT, which has no place for one, and where none is declared or
    /// the value is empty or `und`.
    public var language: String? {
        declaredLanguage.flatMap { LanguageTag.isWellFormed($0) ? $0 : nil }
    }

    /// The language the file declares, as written (well formed or not).
    var declaredLanguage: String? {
        switch payload {
        case .ttml(let payload): return payload.rootLanguage ?? (payload.languages.count == 1 ? payload.languages.first : nil)
        case .vtt(_, let header): return header.language
        case .none: return nil
        }
    }

    /// The language a file written with `options` declares: the file's own,
    /// else `options.language` (when it is a well-formed tag).
    public func outputLanguage(_ options: WriteOptions) -> String? {
        language ?? options.language.flatMap { LanguageTag.isWellFormed($0) ? $0 : nil }
    }
}
