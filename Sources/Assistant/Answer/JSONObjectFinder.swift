import JSON
/// Finds a JSON object inside free text (prose, a Markdown code fence, or bare JSON).
///
/// It looks for balanced braces, skipping braces inside JSON strings, and tries
/// each candidate with `JSONValue.parse`. A candidate with one of the answer's
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
            guard let end = matchingBrace(in: bytes, from: index) else { continue }
            let candidate = UnsafeBufferPointer(rebasing: bytes[index...end])
            guard let object = JSONValue.parse(candidate), object.isObject else { continue }
            if answerKeys.contains(where: { object[$0] != nil }) { return object }
            if fallback == nil { fallback = object }
        }
        return fallback
    }

    /// The index of the brace closing the object that opens at `start`, or nil if it never closes.
    ///
    /// Works on UTF-8 bytes: braces, quotes and backslashes are ASCII and never
    /// occur inside a multi-byte sequence.
    static func matchingBrace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }
}
