import Foundation

/// The body of one `POST /v1/chat/completions`: instructions as the system
/// message, the prompt as the user message, temperature 0, a bounded
/// `max_tokens`, no streaming, and the answer's JSON schema in the form the
/// server understands.
struct HTTPChatRequest: Sendable {
    /// How the answer's schema is sent in `response_format`.
    enum SchemaForm: Sendable, Equatable {
        /// `{"type": "json_schema", "json_schema": {"name": …, "schema": …}}`, with
        /// `"strict": true` when `strict` (OpenAI).
        case jsonSchema(strict: Bool)
        /// `{"type": "json_object", "schema": …}` (llama-cpp-python's server).
        case jsonObject

        /// The form to send first for a server kind.
        init(for kind: HTTPServerKind) {
            switch kind {
            case .llamaCppPython: self = .jsonObject
            case .openai: self = .jsonSchema(strict: true)
            case .auto, .llamaCpp, .ollama, .vllm: self = .jsonSchema(strict: false)
            }
        }
    }

    /// The name given to the schema (`json_schema.name`).
    static let schemaName = "caption_suggestions"
    /// At most this many keywords are asked for.
    static let maximumKeywords = 10

    /// The model to ask for; `nil` leaves `model` out.
    let model: String?
    /// The system message.
    let instructions: String
    /// The user message.
    let prompt: String
    /// The bound on the answer's length, in tokens.
    let maxTokens: Int
    /// How the schema is sent.
    let form: SchemaForm

    /// The answer's schema: `keywords` (up to ten strings), `titles` (exactly
    /// three strings), `emoji` (a string), all required, nothing else.
    static func answerSchema() -> [String: Any] {
        [
            "type": "object",
            "properties": [
                "keywords": ["type": "array", "items": ["type": "string"], "maxItems": maximumKeywords],
                "titles": ["type": "array", "items": ["type": "string"], "minItems": 3, "maxItems": 3],
                "emoji": ["type": "string"],
            ] as [String: Any],
            "required": ["keywords", "titles", "emoji"],
            "additionalProperties": false,
        ]
    }

    /// The `response_format` value for `form`.
    static func responseFormat(_ form: SchemaForm) -> [String: Any] {
        switch form {
        case .jsonSchema(let strict):
            var jsonSchema: [String: Any] = ["name": schemaName, "schema": answerSchema()]
            if strict { jsonSchema["strict"] = true }
            return ["type": "json_schema", "json_schema": jsonSchema]
        case .jsonObject:
            return ["type": "json_object", "schema": answerSchema()]
        }
    }

    /// The JSON body, with sorted keys so the same request is always the same bytes.
    func encoded() throws -> Data {
        var body: [String: Any] = [
            "messages": [
                ["role": "system", "content": instructions],
                ["role": "user", "content": prompt],
            ],
            "temperature": 0,
            "max_tokens": maxTokens,
            "stream": false,
            "response_format": Self.responseFormat(form),
        ]
        if let model { body["model"] = model }
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
