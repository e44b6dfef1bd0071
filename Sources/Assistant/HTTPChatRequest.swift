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
    /// The words and phrases a keyword may be (the `enum` of keyword items);
    /// empty: any string within the length bounds.
    var keywordCandidates: [String] = []

    /// The longest keyword the schema allows, in characters.
    static let maximumKeywordLength = 40
    /// The longest title the schema allows, in characters: a title, not a paragraph.
    static let maximumTitleLength = 60
    /// The shortest title the schema allows, in characters.
    static let minimumTitleLength = 8
    /// What a title may be, for grammar-constrained servers (llama.cpp's converter
    /// turns a `pattern` into grammar and drops `minLength`/`maxLength` beside it, so
    /// the length is in the pattern too): 8 to 60 characters, starting with neither
    /// white space nor punctuation, with no quotes, brackets, braces, markup,
    /// underscores, slashes or line breaks (SmolLM2-135M otherwise wrote JSON
    /// fragments and file paths as titles).
    static let titlePattern = #"^[^ .,;:!?'"\\{}\[\]<>_/#*|=+@~^`-][^"\\{}\[\]<>_/#*|=+@~^`\n\r\t]{7,59}$"#
    /// `EmojiTable` as one character class (each entry is one scalar).
    static let emojiPattern = "^[" + EmojiTable.entries.map(\.emoji).joined() + "]$"
    /// The most keywords the schema lets the model name (the decoder keeps up to `SuggestionDecoder.maxKeywords`).
    static let schemaMaximumKeywords = 6

    /// The answer's schema: `keywords` (one to six strings), `titles` (exactly
    /// three strings), `emoji` (a string), all required, nothing else, in that order.
    ///
    /// It makes invalid answers impossible where the server honours it: the
    /// emoji is one of `EmojiTable`'s, each keyword one of `keywordCandidates`
    /// (words and phrases of the transcript part sent; any string when the list
    /// is empty). Other strings have length bounds: without them a
    /// grammar-constrained small model can write one endless string until
    /// `max_tokens` cuts it off (seen with SmolLM2-135M). OpenAI's strict mode
    /// takes neither length nor item-count bounds, so `strict` leaves them out
    /// (it takes `enum`). The decoder validates the answer afterwards all the
    /// same: a server may ignore the schema.
    ///
    /// `emojiAsPattern` sends the emoji choice as a `pattern` (`^[🎬🚀…]$`) instead
    /// of an `enum`: llama-cpp-python 0.3.36 writes enum literals into its grammar
    /// with `json.dumps`, which turns every emoji outside the Basic Multilingual
    /// Plane into a surrogate pair the grammar can never match (SmolLM2 then
    /// answered `""`), while a pattern's characters stay as they are.
    static func answerSchema(strict: Bool = false, keywordCandidates: [String] = [], emojiAsPattern: Bool = false) -> JSONValue {
        func string(_ minimum: Int, _ maximum: Int) -> JSONValue {
            strict
                ? .object([("type", .string("string"))])
                : .object([("type", .string("string")), ("minLength", .int(minimum)), ("maxLength", .int(maximum))])
        }
        func oneOf(_ values: [String]) -> JSONValue {
            .object([("type", .string("string")), ("enum", .array(values.map { .string($0) }))])
        }
        func array(_ items: JSONValue, _ minimum: Int, _ maximum: Int) -> JSONValue {
            strict
                ? .object([("type", .string("array")), ("items", items)])
                : .object([("type", .string("array")), ("items", items), ("minItems", .int(minimum)), ("maxItems", .int(maximum))])
        }
        let keywordItem = keywordCandidates.isEmpty ? string(1, maximumKeywordLength) : oneOf(keywordCandidates)
        var titleItem = string(minimumTitleLength, maximumTitleLength)
        if !strict, case .object(var pairs) = titleItem {
            pairs.append(("pattern", .string(titlePattern)))
            titleItem = .object(pairs)
        }
        return .object([
            ("type", .string("object")),
            ("properties", .object([
                ("keywords", array(keywordItem, 1, schemaMaximumKeywords)),
                ("titles", array(titleItem, 3, 3)),
                ("emoji", emojiAsPattern
                    ? .object([("type", .string("string")), ("pattern", .string(emojiPattern))])
                    : oneOf(EmojiTable.entries.map(\.emoji))),
            ])),
            ("required", .array([.string("keywords"), .string("titles"), .string("emoji")])),
            ("additionalProperties", .bool(false)),
        ])
    }

    /// The `response_format` value for `form`.
    static func responseFormat(_ form: SchemaForm, keywordCandidates: [String] = []) -> JSONValue {
        switch form {
        case .jsonSchema(let strict):
            var jsonSchema: [(String, JSONValue)] = [
                ("name", .string(schemaName)),
                ("schema", answerSchema(strict: strict, keywordCandidates: keywordCandidates)),
            ]
            if strict { jsonSchema.append(("strict", .bool(true))) }
            return .object([("type", .string("json_schema")), ("json_schema", .object(jsonSchema))])
        case .jsonObject:
            return .object([("type", .string("json_object")),
                            ("schema", answerSchema(keywordCandidates: keywordCandidates, emojiAsPattern: true))])
        }
    }

    /// The JSON body, compact; the same request is always the same bytes.
    func encoded() -> Data {
        var body: [(String, JSONValue)] = []
        if let model { body.append(("model", .string(model))) }
        body += [
            ("messages", .array([
                .object([("role", .string("system")), ("content", .string(instructions))]),
                .object([("role", .string("user")), ("content", .string(prompt))]),
            ])),
            ("temperature", .int(0)),
            ("max_tokens", .int(maxTokens)),
            ("stream", .bool(false)),
            ("response_format", Self.responseFormat(form, keywordCandidates: keywordCandidates)),
        ]
        var bytes: [UInt8] = []
        JSONValue.object(body).writeOneLine(to: &bytes, spaced: false)
        return Data(bytes)
    }
}
