import Foundation

/// Reads what OpenAI-compatible servers send back: chat completions, model lists
/// and the three shapes of error body.
///
/// Everything a server says is untrusted: text taken from it is cut to a short
/// snippet, control characters become spaces, and an echoed API key is redacted.
enum HTTPResponseParser {
    /// The longest server text kept in an error, in characters.
    static let snippetLength = 300

    /// The server's own error text from a body, or a snippet of the body when it is
    /// not one of the known shapes; `nil` for an empty body.
    ///
    /// Known shapes: `{"error": "…"}` (Ollama), `{"error": {"message": "…"}}`
    /// (OpenAI, llama.cpp, llama-cpp-python, Ollama `/v1`), `{"object": "error",
    /// "message": "…"}` (older vLLM) and FastAPI's `{"detail": …}`.
    static func serverMessage(from body: Data, redacting key: HTTPConfiguration.APIKey?) -> String? {
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            if let text = object["error"] as? String {
                return clean(text, redacting: key)
            }
            if let error = object["error"] as? [String: Any], let text = error["message"] as? String {
                return clean(text, redacting: key)
            }
            if let text = object["message"] as? String {
                return clean(text, redacting: key)
            }
            if let text = object["detail"] as? String {
                return clean(text, redacting: key)
            }
            if let details = object["detail"] as? [[String: Any]] {
                let texts = details.compactMap { $0["msg"] as? String }
                if !texts.isEmpty { return clean(texts.joined(separator: "; "), redacting: key) }
            }
        }
        return snippet(of: body, redacting: key)
    }

    /// A short, printable piece of a body, or `nil` when it is empty.
    static func snippet(of body: Data, redacting key: HTTPConfiguration.APIKey?) -> String? {
        let text = String(decoding: body.prefix(4 * snippetLength), as: UTF8.self)
        let cleaned = clean(text, redacting: key)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// Makes untrusted text safe for one line of a report: control characters
    /// become spaces, runs of spaces collapse, the key is redacted, and the text
    /// is cut to `snippetLength` characters.
    static func clean(_ text: String, redacting key: HTTPConfiguration.APIKey?) -> String {
        var text = text
        if let secret = key?.secret, !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: "<redacted>")
        }
        var result = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.generalCategory == .control
                || scalar.properties.isWhitespace
                || scalar.properties.generalCategory == .format && scalar.value != 0x200D
            if isSpace {
                if !lastWasSpace, !result.isEmpty { result.unicodeScalars.append(" ") }
                lastWasSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        while result.hasSuffix(" ") { result.removeLast() }
        if result.count > snippetLength {
            result = String(result.prefix(snippetLength)) + "…"
        }
        return result
    }

    /// `usage.prompt_tokens` and `usage.completion_tokens` of a chat completion, where the server reports them.
    static func usage(from body: Data) -> (prompt: Int?, completion: Int?) {
        guard let root = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let usage = root["usage"] as? [String: Any] else { return (nil, nil) }
        func count(_ key: String) -> Int? {
            guard let n = usage[key] as? NSNumber, n.intValue >= 0 else { return nil }
            return n.intValue
        }
        return (count("prompt_tokens"), count("completion_tokens"))
    }

    /// `choices[0].message.content` of a chat completion.
    /// - Throws: `HTTPAssistantError` `.invalidResponse` (not JSON, or no content)
    ///   or `.truncated` (`finish_reason` is `length`).
    static func chatContent(from body: Data, endpoint: String, redacting key: HTTPConfiguration.APIKey?) throws -> String {
        func invalid(_ what: String) -> HTTPAssistantError {
            let snippet = snippet(of: body, redacting: key) ?? "(empty body)"
            return HTTPAssistantError(kind: .invalidResponse, serverMessage: "\(what); the body began: \(snippet)", endpoint: endpoint)
        }
        guard let object = try? JSONSerialization.jsonObject(with: body) else {
            throw invalid("the answer is not JSON")
        }
        guard let root = object as? [String: Any] else {
            throw invalid("the answer is not a JSON object")
        }
        guard let choices = root["choices"] as? [Any] else {
            if root["error"] != nil || root["object"] as? String == "error" {
                throw HTTPAssistantError(
                    kind: .invalidResponse,
                    serverMessage: serverMessage(from: body, redacting: key),
                    endpoint: endpoint
                )
            }
            throw invalid("the answer has no \"choices\"")
        }
        guard let first = choices.first as? [String: Any] else {
            throw invalid("the answer's \"choices\" is empty")
        }
        let content = (first["message"] as? [String: Any])?["content"] as? String
        if first["finish_reason"] as? String == "length" {
            let partial = content.map { "the partial answer began: " + clean($0, redacting: key) }
            throw HTTPAssistantError(kind: .truncated, serverMessage: partial, endpoint: endpoint)
        }
        guard let content else {
            throw invalid("the answer has no choices[0].message.content")
        }
        return content
    }

    /// The `id`s listed by `GET /v1/models` (`{"data": [{"id": …}]}`), or by
    /// Ollama's `/api/tags` shape (`{"models": [{"name": …}]}`); `nil` when the body
    /// is neither.
    static func modelIDs(from body: Data) -> (ids: [String], owners: [String])? {
        guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        if let data = root["data"] as? [[String: Any]] {
            return (data.compactMap { $0["id"] as? String }, data.compactMap { $0["owned_by"] as? String })
        }
        if let models = root["models"] as? [[String: Any]] {
            return (models.compactMap { ($0["name"] ?? $0["model"]) as? String }, [])
        }
        return nil
    }
}
