/// Writes an answer in the JSON shape the prompt asks for, for backends that get structured output.
enum AnswerJSON {
    /// `{"keywords": [...], "titles": [...], "emoji": "..."}` with every string escaped.
    static func encode(keywords: [String], titles: [String], emoji: String) -> String {
        encode(keywords: keywords, tail: tail(titles: titles, emoji: emoji))
    }

    /// `encode(keywords:titles:emoji:)` with the part after the keywords (`tail(titles:emoji:)`) made once beforehand.
    static func encode(keywords: [String], tail: String) -> String {
        var out = #"{"keywords": "#
        out.reserveCapacity(out.utf8.count + tail.utf8.count + keywords.reduce(2) { $0 + $1.utf8.count + 4 })
        append(keywords, to: &out)
        out += tail
        return out
    }

    /// What follows the keywords list: `, "titles": [...], "emoji": "..."}`.
    static func tail(titles: [String], emoji: String) -> String {
        var out = #", "titles": "#
        append(titles, to: &out)
        out += #", "emoji": "#
        append(emoji, to: &out)
        out += "}"
        return out
    }

    /// Appends `[` the items as JSON strings, separated by `, `, `]`.
    private static func append(_ items: [String], to out: inout String) {
        out += "["
        for (k, item) in items.enumerated() {
            if k > 0 { out += ", " }
            append(item, to: &out)
        }
        out += "]"
    }

    /// Appends `text` as a JSON string literal.
    private static func append(_ text: String, to out: inout String) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
            out += "\""
            out += text
            out += "\""
        } else {
            out += string(text)
        }
    }

    /// `text` as a JSON string literal.
    static func string(_ text: String) -> String {
        // Nothing to escape (no control character, quote or backslash): the text as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) { return "\"" + text + "\"" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
