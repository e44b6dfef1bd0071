/// BCP 47 language tags (RFC 5646), checked by their syntax.
///
/// A tag is carried from a file to another format (TTML `xml:lang` ↔ the
/// WebVTT `Language:` header) or set with `--language` only when it is well
/// formed, so a value such as `en-->x` can never reach a header line or an
/// attribute. Whether each subtag is registered (IANA's registry) is not
/// checked: `xx-YY` is well formed, as RFC 5646 section 2.2.9 defines it.
public enum LanguageTag {
    /// The irregular grandfathered tags: the only well-formed tags the
    /// `langtag` production does not match (section 2.1).
    static let irregular: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de",
    ]

    /// Whether `tag` is a well-formed BCP 47 tag (`en`, `en-GB`, `zh-Hant-TW`,
    /// `sr-Latn-RS`, `es-419`, `de-CH-1901`, `x-private`; case is free).
    public static func isWellFormed(_ tag: String) -> Bool {
        guard !tag.isEmpty, tag.utf8.count <= 256, tag.unicodeScalars.allSatisfy({ $0.isASCII }) else { return false }
        let lower = tag.lowercased()
        if irregular.contains(lower) { return true }
        let subtags = lower.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(isAlphanumeric) }) else { return false }
        var i = 0
        func at(_ test: (String) -> Bool) -> Bool {
            guard i < subtags.count, test(subtags[i]) else { return false }
            i += 1
            return true
        }
        // privateuse = "x" 1*("-" 1*8alphanum)
        func privateUse() -> Bool {
            guard at({ $0 == "x" }) else { return false }
            var n = 0
            while at({ _ in true }) { n += 1 }
            return n > 0
        }
        if subtags[0] == "x" { return privateUse() }
        // language = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA; extlang = 3ALPHA *2("-" 3ALPHA)
        guard let first = subtags.first, first.allSatisfy(isLetter), first.count >= 2 else { return false }
        i = 1
        if first.count <= 3 {
            var extlangs = 0
            while extlangs < 3, at({ $0.count == 3 && $0.allSatisfy(isLetter) }) { extlangs += 1 }
        }
        _ = at { $0.count == 4 && $0.allSatisfy(isLetter) }                                         // script
        _ = at { ($0.count == 2 && $0.allSatisfy(isLetter)) || ($0.count == 3 && $0.allSatisfy(isDigit)) }   // region
        while at({ $0.count >= 5 || ($0.count == 4 && $0.first.map(isDigit) == true) }) {}          // variants
        // extension = singleton 1*("-" 2*8alphanum)
        while i < subtags.count, subtags[i].count == 1, subtags[i] != "x" {
            i += 1
            var n = 0
            while at({ $0.count >= 2 }) { n += 1 }
            guard n > 0 else { return false }
        }
        if i < subtags.count, subtags[i] == "x" { return privateUse() }
        return i == subtags.count
    }

    /// The language a file declares, as a tag to carry: nil for an empty
    /// value and for `und` ("undetermined", what a file with no language is
    /// written with), so that neither hides a language `--language` gives.
    static func declared(_ value: String) -> String? {
        let trimmed = String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        guard !trimmed.isEmpty, trimmed.lowercased() != "und" else { return nil }
        return trimmed
    }

    private static func isLetter(_ c: Character) -> Bool { c.isASCII && c.isLetter }
    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
    private static func isAlphanumeric(_ c: Character) -> Bool { isLetter(c) || isDigit(c) }
}
