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
    /// nor punctuation, with no quotes, brackets, braces, markup, underscores,
    /// slashes, the prompt's placeholder `…` or line breaks (SmolLM2-135M
    /// otherwise wrote JSON fragments and file paths as titles).
    ///
    /// Bounded in words, not in characters: a character bound is one a
    /// grammar enforces by stopping the model where it runs out, mid-clause
    /// or mid-word (9 of 15 titles of one measured run stopped at the 60
    /// characters the schema allowed). A title the word bound ends early
    /// still has to pass the decoder (`TitleCheck`: not ending mid-clause).
    /// No `minLength`/`maxLength` is sent for titles either: a server that
    /// honours them would cut the same way. One word is allowed (not the
    /// prompt's two) for scripts written without spaces.
    static let titlePattern: String = "^" + titleFirstWord + "( " + titleWord + "){0,\(TitleCheck.maximumWords - 1)}$"

    /// A character a title's word may hold (`titlePattern`).
    static let titleCharacter = #"[^ "\\{}\[\]<>_/#*|=+@~^`…\n\r\t]"#
    /// A title's first word: it starts with neither punctuation nor a dash.
    static let titleFirstWord = #"[^ .,;:!?'"\\{}\[\]<>_/#*|=+@~^`…\n\r\t-]"# + titleCharacter
        + "{0,\(maximumTitleWordLength - 1)}"
    /// Any other word of a title.
    static let titleWord = titleCharacter + "{1,\(maximumTitleWordLength)}"

    /// What a title may be when the transcript offers words to name it by
    /// (`titleAnchors`): `titlePattern`'s words, two to
    /// `TitleCheck.maximumWords` of them (the prompt's "2 to 7 words"), one of
    /// the first three (`latestAnchorPosition`) starting with one of `anchors`, as written or with its first
    /// letter in the other case. A word of fewer than `TitleGround.stemLength`
    /// characters is the whole title word; a longer one may go on (an ending,
    /// a possessive).
    ///
    /// The decoder refuses a title that shares no word with the captions
    /// (`TitleGround`): the most common flaw of a small model's titles (20 of
    /// 26 files' refusals in one measured run of SmolLM2-135M: "A Tale of
    /// Two Cities" for a fox's story). A grammar that makes every title carry
    /// a word of the transcript writes what the check accepts in the first
    /// place, and never cuts: the model chooses where the word goes and how
    /// the title ends. Without anchors (a transcript in a script written
    /// without spaces, or too short to offer any) it is `titlePattern`.
    static func titlePattern(anchors: [String]) -> String {
        guard !anchors.isEmpty else { return titlePattern }
        let suffix = titleCharacter + "{0,\(maximumAnchorSuffix)}"
        let alternatives = anchors.map { anchor -> String in
            let head = anchor.first.map { first -> String in
                let other = first.isUppercase ? first.lowercased() : first.uppercased()
                return other.count == 1 && Character(other) != first ? "[\(first)\(other)]" : String(first)
            } ?? ""
            return head + anchor.dropFirst() + (anchor.count >= TitleGround.stemLength ? suffix : "")
        }
        let anchorWord = "(" + alternatives.joined(separator: "|") + ")"
        let most = TitleCheck.maximumWords
        // The anchor is the title's word at `position`; the words after it make the title two to `most` words long.
        let shapes = (0...latestAnchorPosition).map { position -> String in
            let before = position == 0 ? "" : titleFirstWord + (position > 1 ? "( \(titleWord)){\(position - 1)}" : "") + " "
            let after = "( \(titleWord)){\(max(0, 1 - position)),\(most - 1 - position)}"
            return before + anchorWord + after
        }
        return "^(" + shapes.joined(separator: "|") + ")$"
    }

    /// The latest word (counted from 0) a title's anchor may be: a headline
    /// names its topic early ("Humpback Whales", "Where the Whales Go"). With
    /// the anchor allowed anywhere in seven words, SmolLM2-135M wrote six words
    /// of debris before one (`A-B-C-D-E-F-G-H-I-J-K-L- M-N-O-…`) until the
    /// token limit cut the whole answer off.
    static let latestAnchorPosition = 2

    /// The most characters a title word may have after the anchor it starts with.
    static let maximumAnchorSuffix = 8

    /// The words of `keywords` a title may be anchored by (`titlePattern(anchors:)`):
    /// single words of `TitleGround.stemLength - 1` letters or more, every character a
    /// letter or a combining mark (nothing a pattern would read as syntax), in scripts
    /// written with spaces, `maximumAnchors` at most. Fewer than `minimumAnchors` of
    /// them, none: the transcript offers too little to bind every title to.
    static func titleAnchors(_ keywords: [String]) -> [String] {
        let anchors = keywords.filter { word in
            word.count >= TitleGround.stemLength - 1 && word.unicodeScalars.allSatisfy { scalar in
                (scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark)
                    && !WordScanner.isDictionaryScript(scalar.value)
            }
        }
        return anchors.count >= minimumAnchors ? Array(anchors.prefix(maximumAnchors)) : []
    }

    /// The most anchor words offered (the most frequent first, as `KeywordCandidates` orders
    /// them): the pattern lists them once for each place the anchor may take in a title
    /// (`latestAnchorPosition`).
    static let maximumAnchors = 24

    /// The fewest anchor words for which titles are anchored.
    static let minimumAnchors = 3

    /// The most characters one word of a title may have in the schema.
    static let maximumTitleWordLength = 24

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
            // One to `groups.count` of them, as the prompt asks ("up to 3").
            keywords = .object([("type", .string("array")), ("prefixItems", .array(groups.map(oneOf))),
                                ("minItems", .int(1)), ("maxItems", .int(groups.count))])
        }
        let titleItem: JSONValue = strict
            ? .object([("type", .string("string"))])
            : .object([("type", .string("string")), ("pattern", .string(titlePattern(anchors: titleAnchors(allowed))))])
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
