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

    /// The longest keyword the schema allows, in characters.
    static let maximumKeywordLength = 40
    /// The longest title the schema allows, in characters.
    static let maximumTitleLength = 100
    /// The longest emoji string the schema allows, in characters (an emoji ZWJ
    /// sequence can take several); the validator still wants exactly one emoji.
    static let maximumEmojiLength = 12

    /// The answer's schema: `keywords` (up to ten strings), `titles` (exactly
    /// three strings), `emoji` (a string), all required, nothing else, in that order.
    ///
    /// Strings have length bounds: without them a grammar-constrained small model
    /// can write one endless string until `max_tokens` cuts it off (seen with
    /// SmolLM2-135M). OpenAI's strict mode does not take length bounds, so
    /// `strict` leaves them out.
    static func answerSchema(strict: Bool = false) -> HTTPJSONValue {
        func string(_ maximum: Int) -> HTTPJSONValue {
            strict
                ? .object([("type", .string("string"))])
                : .object([("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(maximum))])
        }
        return .object([
            ("type", .string("object")),
            ("properties", .object([
                ("keywords", .object([
                    ("type", .string("array")),
                    ("items", string(maximumKeywordLength)),
                    ("maxItems", .integer(maximumKeywords)),
                ])),
                ("titles", .object([
                    ("type", .string("array")),
                    ("items", string(maximumTitleLength)),
                    ("minItems", .integer(3)),
                    ("maxItems", .integer(3)),
                ])),
                ("emoji", string(maximumEmojiLength)),
            ])),
            ("required", .array([.string("keywords"), .string("titles"), .string("emoji")])),
            ("additionalProperties", .boolean(false)),
        ])
    }

    /// The `response_format` value for `form`.
    static func responseFormat(_ form: SchemaForm) -> HTTPJSONValue {
        switch form {
        case .jsonSchema(let strict):
            var jsonSchema: [(String, HTTPJSONValue)] = [
                ("name", .string(schemaName)),
                ("schema", answerSchema(strict: strict)),
            ]
            if strict { jsonSchema.append(("strict", .boolean(true))) }
            return .object([("type", .string("json_schema")), ("json_schema", .object(jsonSchema))])
        case .jsonObject:
            return .object([("type", .string("json_object")), ("schema", answerSchema())])
        }
    }

    /// The JSON body; the same request is always the same bytes.
    func encoded() throws -> Data {
        var body: [(String, HTTPJSONValue)] = []
        if let model { body.append(("model", .string(model))) }
        body += [
            ("messages", .array([
                .object([("role", .string("system")), ("content", .string(instructions))]),
                .object([("role", .string("user")), ("content", .string(prompt))]),
            ])),
            ("temperature", .integer(0)),
            ("max_tokens", .integer(maxTokens)),
            ("stream", .boolean(false)),
            ("response_format", Self.responseFormat(form)),
        ]
        return try HTTPJSONValue.object(body).encoded()
    }
}
