import Foundation
import JSON

/// Reads what OpenAI-compatible servers send back: chat completions, model lists
/// and the three shapes of error body.
///
/// Everything a server says is untrusted: text taken from it passes
/// `ServerTextGate` (cut to a short snippet on one line, control and hidden
/// characters shown, an echoed API key or bearer token redacted).
enum HTTPResponseParser {
    /// The longest server text kept in an error, in characters (the gate's bound).
    static let snippetLength = ServerTextGate.messageCharacters

    /// The server's own error text from a body, or a snippet of the body when it is
    /// not one of the known shapes; `nil` for an empty body.
    ///
    /// Known shapes: `{"error": "…"}` (Ollama), `{"error": {"message": "…"}}`
    /// (OpenAI, llama.cpp, llama-cpp-python, Ollama `/v1`), `{"object": "error",
    /// "message": "…"}` (older vLLM) and FastAPI's `{"detail": …}`.
    static func serverMessage(from body: Data, redacting key: HTTPConfiguration.APIKey?) -> String? {
        serverMessage(in: JSONValue.parse(body), body: body, redacting: key)
    }

    /// `serverMessage(from:redacting:)` of a body already parsed (`root`: nil when it is not JSON).
    private static func serverMessage(in root: JSONValue?, body: Data, redacting key: HTTPConfiguration.APIKey?) -> String? {
        if let object = root, case .object = object {
            for case .string(let text)? in [object["error"], object["error"]?["message"], object["message"], object["detail"]] {
                return clean(text, redacting: key)
            }
            if case .array(let details)? = object["detail"] {
                let texts = details.compactMap { detail -> String? in
                    if case .string(let text)? = detail["msg"] { return text }
                    return nil
                }
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

    /// Makes untrusted text safe for one line of a report: `ServerTextGate.message`
    /// (the key and bearer-shaped tokens redacted, control and hidden characters
    /// shown as `\u{…}`, runs of white space as one space, at most
    /// `snippetLength` characters and `ServerTextGate.messageBytes` bytes).
    static func clean(_ text: String, redacting key: HTTPConfiguration.APIKey?) -> String {
        ServerTextGate.message(text, key: key?.secret)
    }

    /// The answer of a chat completion: `choices[0].message.content`, and
    /// `usage.prompt_tokens` and `usage.completion_tokens` where the server
    /// reports them; the body is parsed once.
    /// - Throws: `HTTPAssistantError` `.invalidResponse` (not JSON, or no content)
    ///   or `.truncated` (`finish_reason` is `length`).
    static func chatAnswer(from body: Data, endpoint: String, redacting key: HTTPConfiguration.APIKey?) throws -> ModelAnswer {
        func invalid(_ what: String) -> HTTPAssistantError {
            let snippet = snippet(of: body, redacting: key) ?? "(empty body)"
            return HTTPAssistantError(kind: .invalidResponse, serverMessage: "\(what); the body began: \(snippet)", endpoint: endpoint)
        }
        guard let root = JSONValue.parse(body) else {
            throw invalid("the answer is not JSON")
        }
        guard case .object = root else {
            throw invalid("the answer is not a JSON object")
        }
        guard case .array(let choices)? = root["choices"] else {
            if root["error"] != nil || root["object"] == .string("error") {
                throw HTTPAssistantError(
                    kind: .invalidResponse,
                    serverMessage: serverMessage(in: root, body: body, redacting: key),
                    endpoint: endpoint
                )
            }
            throw invalid("the answer has no \"choices\"")
        }
        guard let first = choices.first, case .object = first else {
            throw invalid("the answer's \"choices\" is empty")
        }
        var content: String?
        if case .string(let text)? = first["message"]?["content"] { content = text }
        if first["finish_reason"] == .string("length") {
            let partial = content.map { "the partial answer began: " + clean($0, redacting: key) }
            throw HTTPAssistantError(kind: .truncated, serverMessage: partial, endpoint: endpoint)
        }
        guard let content else {
            throw invalid("the answer has no choices[0].message.content")
        }
        func count(_ key: String) -> Int? {
            switch root["usage"]?[key] {
            case .int(let n)? where n >= 0: return n
            case .number(let d)? where d >= 0 && d < 1e15: return Int(d)
            default: return nil
            }
        }
        return ModelAnswer(text: content, promptTokens: count("prompt_tokens"), completionTokens: count("completion_tokens"))
    }

    /// The `id`s listed by `GET /v1/models` (`{"data": [{"id": …}]}`), or by
    /// Ollama's `/api/tags` shape (`{"models": [{"name": …}]}`); `nil` when the body
    /// is neither.
    static func modelIDs(from body: Data) -> (ids: [String], owners: [String])? {
        guard let root = JSONValue.parse(body) else { return nil }
        func strings(_ items: [JSONValue], _ keys: String...) -> [String] {
            items.compactMap { item in
                for key in keys { if case .string(let text)? = item[key] { return text } }
                return nil
            }
        }
        if case .array(let data)? = root["data"], data.allSatisfy(\.isObject) {
            return (strings(data, "id"), strings(data, "owned_by"))
        }
        if case .array(let models)? = root["models"], models.allSatisfy(\.isObject) {
            return (strings(models, "name", "model"), [])
        }
        return nil
    }
}
