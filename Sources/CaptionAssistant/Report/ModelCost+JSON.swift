import Assistant

extension ModelCost {
    /// `{"requests": …, "promptTokens": …, "completionTokens": …, "milliseconds": …}`;
    /// the token counts are `null` when the server reported no usage.
    package var json: JSONValue {
        .object([
            ("requests", .int(requests)),
            ("promptTokens", promptTokens.map { .int($0) } ?? .null),
            ("completionTokens", completionTokens.map { .int($0) } ?? .null),
            ("milliseconds", .int(Int((seconds * 1000).rounded()))),
        ])
    }

    /// Adds another file's cost (token counts stay nil only while none was reported).
    mutating func add(_ other: ModelCost) {
        requests += other.requests
        if let p = other.promptTokens { promptTokens = (promptTokens ?? 0) + p }
        if let c = other.completionTokens { completionTokens = (completionTokens ?? 0) + c }
        seconds += other.seconds
    }

    /// "3 requests, 1,200 prompt + 90 completion tokens, 12.3 s".
    package var summary: String {
        var parts = ["\(requests) request\(requests == 1 ? "" : "s")"]
        if promptTokens != nil || completionTokens != nil {
            parts.append("\(promptTokens ?? 0) prompt + \(completionTokens ?? 0) completion tokens")
        }
        parts.append("\((seconds * 10).rounded() / 10) s")
        return parts.joined(separator: ", ")
    }
}
