import JSON

/// Finds a JSON object inside free text (prose, a Markdown code fence, or bare JSON).
///
/// It takes each opening brace as the start of a candidate, finds where that
/// value ends with `JSONScanner` (braces inside JSON strings skipped), and
/// tries the candidate with `JSONValue.parse`. A candidate with one of the answer's
/// keys wins over any other object.
enum JSONObjectFinder {
    /// How many opening braces are tried before giving up (hostile answers stay cheap).
    static let maximumCandidates = 64
    /// The answer's keys.
    static let answerKeys = ["keywords", "titles", "emoji"]

    /// The best JSON object found in `text` (an `.object`), or nil.
    static func firstObject(in text: String) -> JSONValue? {
        var text = text
        if let found = text.utf8.withContiguousStorageIfAvailable({ firstObject(in: $0) }) { return found }
        text.makeContiguousUTF8()
        if let found = text.utf8.withContiguousStorageIfAvailable({ firstObject(in: $0) }) { return found }
        return Array(text.utf8).withUnsafeBufferPointer { firstObject(in: $0) }
    }

    /// `firstObject(in:)` of the UTF-8 bytes `bytes`.
    static func firstObject(in bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var fallback: JSONValue?
        var tried = 0
        var index = 0
        while index < bytes.count, tried < maximumCandidates {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "{") else { continue }
            tried += 1
            var scanner = JSONScanner()
            guard let length = scanner.scan(UnsafeBufferPointer(rebasing: bytes[index...])) else { continue }
            let candidate = UnsafeBufferPointer(rebasing: bytes[index..<index + length])
            guard let object = JSONValue.parse(candidate), object.isObject else { continue }
            if answerKeys.contains(where: { object[$0] != nil }) { return object }
            if fallback == nil { fallback = object }
        }
        return fallback
    }
}
