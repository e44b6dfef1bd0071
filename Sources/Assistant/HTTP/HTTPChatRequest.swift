import Foundation
import JSON
import Words

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

    /// What a title may be, for grammar-constrained servers: one to
    /// `TitleCheck.maximumWords` words of at most `maximumTitleWordLength`
    /// characters, one space between them, starting with neither white space
    /// nor punctuation, with no double quotes (straight or typographic),
    /// brackets, braces, markup, underscores, slashes, the prompt's
    /// placeholder `…` or line breaks (SmolLM2-135M otherwise wrote JSON
    /// fragments and file paths as titles, and lists in typographic quotes
    /// inside one title string, `Austerleys”, “Tennis Factory”, “…`, until
    /// `max_tokens` cut them off: 340 of one run's 3,785 completion tokens).
    /// Guillemets (`« La Seine »`) and apostrophes stay.
    ///
    /// Bounded in words, not in characters: a character bound is one a
    /// grammar enforces by stopping the model where it runs out, mid-clause
    /// or mid-word (9 of 15 titles of one measured run stopped at the 60
    /// characters the schema allowed). A title the word bound ends early
    /// still has to pass the decoder (`TitleCheck`: not ending mid-clause).
    /// No `minLength`/`maxLength` is sent for titles either: a server that
    /// honours them would cut the same way. One word is allowed (not the
    /// prompt's two) for scripts written without spaces.
    static let titlePattern = titlePattern(twoWordsAtLeast: false)

    /// A character a title's word may hold (`titlePattern`).
    static let titleCharacter = #"[^ "“”„‟″＂〝〞\\{}\[\]<>_/#*|=+@~^`…\n\r\t]"#
    /// A title's first word: it starts with neither punctuation nor a dash.
    static let titleFirstWord = #"[^ .,;:!?'"“”„‟″＂〝〞\\{}\[\]<>_/#*|=+@~^`…\n\r\t-]"# + titleCharacter
        + "{0,\(maximumTitleWordLength - 1)}"
    /// Any other word of a title.
    static let titleWord = titleCharacter + "{1,\(maximumTitleWordLength)}"

    /// `titlePattern` with two to `TitleCheck.maximumWords` words (the
    /// prompt's "2 to 7"), for a transcript written with spaces between words
    /// (`isWrittenWithSpaces`); otherwise one to seven (`titlePattern`), as
    /// one word may be a whole title in Japanese or Chinese. A one-word title was the most
    /// common short one a small model wrote ("Boil", "Japan", "1895", "River":
    /// refused as shorter than a title), and the prompt never asked for one.
    ///
    /// Not tried again: a pattern that made every title carry one of the
    /// transcript's words. It met the check that a title shares a word with
    /// the captions (`TitleGround`) by construction, and so let through what
    /// that check existed to refuse: SmolLM2-135M wrote letters of no language
    /// around the one word it had to use ("follsti llyth minutest",
    /// "Tofu-kai-ko-toi-takamag2 10.3.2018 tokyohanami-s"), and 73% of the
    /// files' titles were "applied" in one measured run, few publishable.
    static func titlePattern(twoWordsAtLeast: Bool) -> String {
        "^" + titleFirstWord + "( " + titleWord + "){\(twoWordsAtLeast ? 1 : 0),\(TitleCheck.maximumWords - 1)}$"
    }

    /// Whether the words of `keywords` (the transcript's candidates, most
    /// frequent first) are mostly in scripts written with spaces between
    /// words: not those the word rule cuts by dictionary
    /// (`WordScanner.isDictionaryScript`: Han, Kana, Thai…, and Hangul).
    static func isWrittenWithSpaces(_ keywords: [String]) -> Bool {
        let spaced = keywords.filter { !$0.unicodeScalars.contains { WordScanner.isDictionaryScript($0.value) } }.count
        return !keywords.isEmpty && spaced * 2 > keywords.count
    }

    /// The most characters one word of a title may have in the schema.
    static let maximumTitleWordLength = 24

    /// The emoji of `schema` as one character class (each is one scalar).
    static func emojiPattern(_ schema: AnswerSchema) -> String {
        "^[" + schema.emoji.joined() + "]$"
    }

    /// The answer's schema for `schema`: `keywords`, `titles` (exactly
    /// `AnswerSchema.titleCandidates` strings), `emoji` (a string), all required,
    /// nothing else, in that order; only those of `schema.fields` (a repair
    /// asks for the unusable fields alone).
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
            // One to `groups.count` of them, as the prompt asks ("up to 3").
            keywords = .object([("type", .string("array")), ("prefixItems", .array(groups.map(oneOf))),
                                ("minItems", .int(1)), ("maxItems", .int(groups.count))])
        }
        let titleItem: JSONValue = strict
            ? .object([("type", .string("string"))])
            : .object([("type", .string("string")), ("pattern", .string(titlePattern(twoWordsAtLeast: isWrittenWithSpaces(allowed))))])
        let properties: [(AssistantAction, String, JSONValue)] = [
            (.keywords, "keywords", keywords),
            (.titles, "titles", array(titleItem, AnswerSchema.titleCandidates...AnswerSchema.titleCandidates)),
            (.emoji, "emoji", emojiAsPattern
                ? .object([("type", .string("string")), ("pattern", .string(emojiPattern(schema)))])
                : oneOf(schema.emoji)),
        ].filter { schema.fields.contains($0.0) }
        return .object([
            ("type", .string("object")),
            ("properties", .object(properties.map { ($0.1, $0.2) })),
            ("required", .array(properties.map { .string($0.1) })),
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
