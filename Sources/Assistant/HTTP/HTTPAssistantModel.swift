import Foundation

/// The model behind an OpenAI-compatible HTTP server (llama.cpp's `llama-server`,
/// `llama-cpp-python`, Ollama, vLLM, OpenAI).
///
/// Each `respond(to:)` is one `POST {endpoint}/v1/chat/completions` built from
/// the prompt value (`HTTPChatRequest`): its instructions as the system
/// message, its request as the user message, temperature 0, `max_tokens`
/// bounded, no streaming, and its answer schema as JSON schema (see
/// `HTTPServerKind` for the form each server takes), never parsed back out of
/// the prompt's text. The schema constrains the answer where the server
/// honours it: the emoji is one of the schema's, and each keyword one of the
/// transcript part's words and phrases. It returns
/// `choices[0].message.content` with the configured key redacted
/// (`ServerTextGate`): callers decode and validate it.
///
/// **Retries:** this type makes no retries of its own. Failures worth another try
/// (timeouts, refused or dropped connections, 429, 503, …) are thrown as
/// `HTTPAssistantError` with `isTemporary == true`, and `AssistantService`'s one
/// retry loop retries them with backoff, so tries never multiply. The only
/// second request made here is the `auto` fallback from `json_schema` to
/// `json_object`, which is a different request, not a retry.
///
/// Safe to call from many tasks at once: the only shared state, the schema form
/// chosen by `auto`, sits behind a lock.
public struct HTTPAssistantModel: AssistantModel {
    /// The bound on `max_tokens` used when none is given: room for ten keywords,
    /// three titles and an emoji, with margin.
    public static let defaultMaxTokens = 400

    /// Where the server is and how to talk to it.
    public let configuration: HTTPConfiguration
    /// The most tokens the server may generate for one answer.
    public let maxTokens: Int

    private let transport: HTTPTransport
    private let chosenForm: ChosenForm

    /// Creates the model.
    ///
    /// - Parameters:
    ///   - configuration: the server, model name, key, server kind and timeout.
    ///   - maxTokens: the answer's token bound (at least 1).
    public init(configuration: HTTPConfiguration, maxTokens: Int = HTTPAssistantModel.defaultMaxTokens) {
        self.configuration = configuration
        self.maxTokens = max(1, maxTokens)
        self.transport = HTTPTransport(configuration: configuration, timeout: configuration.requestTimeout)
        self.chosenForm = ChosenForm(HTTPChatRequest.SchemaForm(for: configuration.serverKind))
    }

    /// Sends the prompt and returns the model's raw answer, the requests made
    /// (two when `auto` falls back to `json_object`) and the server's token usage.
    /// - Throws: `HTTPAssistantError` (with `isTemporary` set for failures worth
    ///   retrying) or `CancellationError`.
    public func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
        let form = chosenForm.value
        do {
            return try await send(prompt, form: form)
        } catch let error as HTTPAssistantError
            where configuration.serverKind == .auto && form != .jsonObject && Self.rejectsSchemaForm(error) {
            do {
                var answer = try await send(prompt, form: .jsonObject)
                answer.requests += 1
                chosenForm.value = .jsonObject
                return answer
            } catch let second as HTTPAssistantError where !Self.rejectsSchemaForm(second) {
                // The server took the second form and failed for another reason:
                // keep the form, report the real failure.
                chosenForm.value = .jsonObject
                throw second
            }
        }
    }

    /// The `response_format` form the next request will use (`auto` may change it once).
    var schemaFormInUse: HTTPChatRequest.SchemaForm { chosenForm.value }

    private func send(_ prompt: AssistantPrompt, form: HTTPChatRequest.SchemaForm) async throws -> ModelAnswer {
        let request = HTTPChatRequest(model: configuration.modelName, prompt: prompt, maxTokens: maxTokens, form: form)
        let reply = try await transport.send("POST", "/v1/chat/completions", json: request.encoded())
        guard (200..<300).contains(reply.status) else {
            throw HTTPAssistantError(
                kind: .status(reply.status),
                serverMessage: HTTPResponseParser.serverMessage(from: reply.body, redacting: configuration.apiKey),
                endpoint: configuration.displayEndpoint,
                retryAfter: reply.retryAfter
            )
        }
        var answer = try HTTPResponseParser.chatAnswer(from: reply.body, endpoint: configuration.displayEndpoint, redacting: configuration.apiKey)
        // A gateway may echo the key inside a normal answer ("Incorrect API key provided: sk-…"):
        // it is gone before the answer is decoded, quoted, stored or re-sent (bearer-shaped
        // tokens are the gate's to redact wherever the answer's text is quoted or kept).
        answer.text = ServerTextGate.redacted(answer.text, key: configuration.apiKey?.secret, tokens: false)
        return answer
    }

    /// Whether an error is a server refusing `{"type": "json_schema", …}`
    /// (llama-cpp-python: HTTP 500, "Input should be 'text' or 'json_object'";
    /// older llama-server: HTTP 400, "response_format type must be one of …").
    static func rejectsSchemaForm(_ error: HTTPAssistantError) -> Bool {
        guard let status = error.statusCode, [400, 422, 500].contains(status),
              let text = error.serverMessage?.lowercased() else { return false }
        return text.contains("json_object") || text.contains("response_format")
    }

    /// The schema form in use, shared by all copies of one model.
    private final class ChosenForm: @unchecked Sendable {
        private let lock = NSLock()
        private var form: HTTPChatRequest.SchemaForm

        init(_ form: HTTPChatRequest.SchemaForm) { self.form = form }

        var value: HTTPChatRequest.SchemaForm {
            get { lock.withLock { form } }
            set { lock.withLock { form = newValue } }
        }
    }
}
