import Foundation
import JSON

/// The body of one `POST /v1/chat/completions`, built from the prompt value:
/// its instructions as the system message, its request as the user message,
/// temperature 0 (a repair request: `repairTemperature` with a fixed `seed`,
/// so the model does not give the refused answer again, and the same run
/// gives the same request), a bounded `max_tokens`, no streaming, and its
/// answer schema as JSON schema in the form the server understands.
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

    /// The sampling temperature of a repair request.
    static let repairTemperature = 0.7
    /// The seed sent with a repair request (servers that take one sample reproducibly).
    static let repairSeed = 24

    /// The name given to the schema (`json_schema.name`).
    static let schemaName = "caption_suggestions"

    /// The model to ask for; `nil` leaves `model` out.
    let model: String?
    /// The prompt: its instructions are the system message, its request the
    /// user message, its schema the `response_format`.
    let prompt: AssistantPrompt
    /// The bound on the answer's length, in tokens.
    let maxTokens: Int
    /// How the schema is sent.
    let form: SchemaForm

    /// What a title may be, for grammar-constrained servers (llama.cpp's converter
    /// turns a `pattern` into grammar and drops `minLength`/`maxLength` beside it, so
    /// the length is in the pattern too): `AnswerSchema.titleLength` characters,
    /// starting with neither white space nor punctuation, with no quotes,
    /// brackets, braces, markup, underscores, slashes or line breaks
    /// (SmolLM2-135M otherwise wrote JSON fragments and file paths as titles).
    static let titlePattern = #"^[^ .,;:!?'"\\{}\[\]<>_/#*|=+@~^`-][^"\\{}\[\]<>_/#*|=+@~^`\n\r\t]{"#
        + "\(AnswerSchema.titleLength.lowerBound - 1),\(AnswerSchema.titleLength.upperBound - 1)}$"

    /// The emoji of `schema` as one character class (each is one scalar).
    static func emojiPattern(_ schema: AnswerSchema) -> String {
        "^[" + schema.emoji.joined() + "]$"
    }

    /// The answer's schema for `schema`: `keywords`, `titles` (exactly
    /// `AnswerSchema.titleCount` strings), `emoji` (a string), all required,
    /// nothing else, in that order.
    ///
    /// It makes invalid answers impossible where the server honours it: the
    /// emoji is one of `schema.emoji`; the keywords are one from each of
    /// `schema.keywordGroups` in turn (`prefixItems`: words and phrases of the
    /// transcript part sent, never one twice), or, under OpenAI's strict mode
    /// (no `prefixItems` there), each one of `schema.keywords`, or, with no
    /// candidates, one to `AnswerSchema.maximumKeywords` strings within a
    /// length bound. Other strings have length bounds: without them a
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
    static func answerSchema(_ schema: AnswerSchema, strict: Bool = false, emojiAsPattern: Bool = false) -> JSONValue {
        func string(_ bounds: ClosedRange<Int>) -> JSONValue {
            strict
                ? .object([("type", .string("string"))])
                : .object([("type", .string("string")), ("minLength", .int(bounds.lowerBound)), ("maxLength", .int(bounds.upperBound))])
        }
        func oneOf(_ values: [String]) -> JSONValue {
            .object([("type", .string("string")), ("enum", .array(values.map { .string($0) }))])
        }
        func array(_ items: JSONValue, _ bounds: ClosedRange<Int>) -> JSONValue {
            strict
                ? .object([("type", .string("array")), ("items", items)])
                : .object([("type", .string("array")), ("items", items), ("minItems", .int(bounds.lowerBound)), ("maxItems", .int(bounds.upperBound))])
        }
        let allowed = schema.keywords
        let keywords: JSONValue
        if allowed.isEmpty {
            keywords = array(string(1...AnswerSchema.maximumKeywordLength), 1...AnswerSchema.maximumKeywords)
        } else if strict {
            keywords = array(oneOf(allowed), 1...AnswerSchema.maximumKeywords)
        } else {
            // No `"items": false`: llama.cpp's converter would read it as the item schema.
            let groups = AnswerSchema.groups(of: allowed)
            keywords = .object([("type", .string("array")), ("prefixItems", .array(groups.map(oneOf))),
                                ("minItems", .int(groups.count)), ("maxItems", .int(groups.count))])
        }
        var titleItem = string(AnswerSchema.titleLength)
        if !strict, case .object(var pairs) = titleItem {
            pairs.append(("pattern", .string(titlePattern)))
            titleItem = .object(pairs)
        }
        return .object([
            ("type", .string("object")),
            ("properties", .object([
                ("keywords", keywords),
                ("titles", array(titleItem, AnswerSchema.titleCount...AnswerSchema.titleCount)),
                ("emoji", emojiAsPattern
                    ? .object([("type", .string("string")), ("pattern", .string(emojiPattern(schema)))])
                    : oneOf(schema.emoji)),
            ])),
            ("required", .array([.string("keywords"), .string("titles"), .string("emoji")])),
            ("additionalProperties", .bool(false)),
        ])
    }

    /// The `response_format` value for `schema` in `form`.
    static func responseFormat(_ schema: AnswerSchema, form: SchemaForm) -> JSONValue {
        switch form {
        case .jsonSchema(let strict):
            var jsonSchema: [(String, JSONValue)] = [
                ("name", .string(schemaName)),
                ("schema", answerSchema(schema, strict: strict)),
            ]
            if strict { jsonSchema.append(("strict", .bool(true))) }
            return .object([("type", .string("json_schema")), ("json_schema", .object(jsonSchema))])
        case .jsonObject:
            return .object([("type", .string("json_object")),
                            ("schema", answerSchema(schema, emojiAsPattern: true))])
        }
    }

    /// The JSON body, compact; the same request is always the same bytes.
    func encoded() -> Data {
        var body: [(String, JSONValue)] = []
        if let model { body.append(("model", .string(model))) }
        body += [
            ("messages", .array([
                .object([("role", .string("system")), ("content", .string(prompt.instructions))]),
                .object([("role", .string("user")), ("content", .string(prompt.request))]),
            ])),
            ("temperature", prompt.isRepair ? .number(Self.repairTemperature) : .int(0)),
        ]
        if prompt.isRepair { body.append(("seed", .int(Self.repairSeed))) }
        body += [
            ("max_tokens", .int(maxTokens)),
            ("stream", .bool(false)),
            ("response_format", Self.responseFormat(prompt.schema, form: form)),
        ]
        var bytes: [UInt8] = []
        JSONValue.object(body).writeOneLine(to: &bytes, spaced: false)
        return Data(bytes)
    }
}
