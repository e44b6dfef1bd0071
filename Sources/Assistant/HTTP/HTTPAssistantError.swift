import Foundation

/// A failed request to an OpenAI-compatible model server.
///
/// Carries the HTTP status and the server's own error text (read from any of the
/// three shapes servers use: `{"error": "…"}`, `{"error": {"message": …}}` and
/// `{"object": "error", "message": …}`), so the report shows what the server said.
/// `isTemporary` is what the service's retry loop asks, and this type is where
/// the HTTP backend's retry policy is stated (`temporaryFailures` says it in
/// words for `--help`, `check` and the README): no answer in time, a refused,
/// dropped or reset connection, an answer cut short, and the statuses in
/// `temporaryStatuses` are worth another try; everything else (400, 401, 404,
/// 500, an answer over the size limit, an answer cut off at the token limit, an
/// answer of the wrong shape, a redirect) is not. A server's `Retry-After` is
/// kept in `retryAfter`. The API key never appears in it: server text that
/// echoes the key is redacted.
public struct HTTPAssistantError: LocalizedError, TemporaryError, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// Nothing listens at the endpoint (connection refused) or the host is unknown.
        case unreachable
        /// No answer within the request timeout.
        case timedOut
        /// The connection dropped before a full answer came.
        case connectionLost
        /// Another transport failure, with the system's words.
        case transport(String)
        /// The server's certificate is not signed by a CA this machine (or `--ca-file`) trusts.
        case untrustedCertificate
        /// No CA certificates could be loaded to check the server's (none installed, or `--ca-file` unreadable).
        case noCABundle
        /// An `https://` endpoint answered in plain HTTP.
        case notTLS
        /// The answer's headers are over `HTTPTransport.maximumHeaderBytes`.
        case headerTooLarge
        /// The server answered with this non-success HTTP status.
        case status(Int)
        /// The server answered 2xx, but not with a chat completion (not JSON, or no
        /// `choices[0].message.content`).
        case invalidResponse
        /// The answer stopped at `max_tokens` (`finish_reason: "length"`).
        case truncated
        /// The server redirected the request elsewhere; it is not followed, so the
        /// API key is not sent to another address.
        case redirected
        /// The answer is larger than `HTTPTransport.maximumAnswerBytes`; it was
        /// not read (a chat completion bounded by `max_tokens` is a few KB).
        case answerTooLarge
    }

    /// The HTTP statuses worth another try: 408 (the server gave up waiting for
    /// the request), 429 (too many requests), 502 and 504 (a proxy in front of
    /// the server found it down or slow) and 503 (busy or still loading).
    ///
    /// 500 is not among them: the model servers this backend talks to answer
    /// 500 for requests they will refuse again, such as a prompt over the
    /// context size or a `response_format` they do not take (llama.cpp,
    /// llama-cpp-python), and each retry would cost a one-thread server the
    /// whole prompt again. A server that is overloaded says 503 or 429.
    static let temporaryStatuses: [Int] = [408, 429, 502, 503, 504]

    /// The failures worth another try, in words: the one statement of them that
    /// `AssistantOptions.retryPolicy` (and so `--help`, `check` and the README)
    /// gives; `isTemporary` decides by the same classes.
    public static var temporaryFailures: String {
        var statuses = temporaryStatuses.map(String.init)
        let last = statuses.removeLast()
        return "no answer in time, a refused, dropped or reset connection, an answer cut short, HTTP "
            + statuses.joined(separator: ", ") + " or " + last
    }

    /// What went wrong.
    public let kind: Kind
    /// The server's own error text, or a snippet of its answer; `nil` when it said nothing.
    public let serverMessage: String?
    /// The endpoint as safe to show (no credentials).
    public let endpoint: String
    /// How long the server asked to be left alone before another try (its
    /// `Retry-After` header), when it said.
    public let retryAfter: Duration?

    /// Creates an error; `serverMessage` should already be cleaned (see `HTTPResponseParser`).
    public init(kind: Kind, serverMessage: String? = nil, endpoint: String, retryAfter: Duration? = nil) {
        self.kind = kind
        self.serverMessage = serverMessage
        self.endpoint = endpoint
        self.retryAfter = retryAfter
    }

    /// The HTTP status, when the server answered with one that failed.
    public var statusCode: Int? {
        if case .status(let code) = kind { return code }
        return nil
    }

    /// Whether sending the same request again later may succeed.
    public var isTemporary: Bool {
        switch kind {
        case .unreachable, .timedOut, .connectionLost: true
        case .status(let code): Self.temporaryStatuses.contains(code)
        case .transport, .invalidResponse, .truncated, .redirected, .answerTooLarge,
             .untrustedCertificate, .noCABundle, .notTLS, .headerTooLarge: false
        }
    }

    /// Whether the server said the requested model is not there (404 "not found,
    /// try pulling it first", "does not exist").
    public var isModelMissing: Bool {
        guard statusCode == 404, let text = serverMessage?.lowercased() else { return false }
        return text.contains("try pulling") || text.contains("does not exist")
            || (text.contains("model") && text.contains("not found"))
    }

    /// One sentence for the report, with the server's words.
    public var errorDescription: String? {
        let said = serverMessage.map { ": \($0)" } ?? ""
        switch kind {
        case .unreachable:
            return "The model server at \(endpoint) could not be reached\(said)."
        case .timedOut:
            return "The model server at \(endpoint) did not answer in time\(said)."
        case .connectionLost:
            return "The connection to the model server at \(endpoint) dropped before the answer came\(said)."
        case .transport(let detail):
            return "The request to the model server at \(endpoint) failed: \(detail)\(said)."
        case .untrustedCertificate:
            return "The model server at \(endpoint) has a certificate this machine does not trust\(said)."
        case .noCABundle:
            return "No CA certificates could be loaded to check the certificate of the model server at \(endpoint)\(said)."
        case .notTLS:
            return "The model server at \(endpoint) answered in plain HTTP, not TLS, to an https:// address\(said)."
        case .headerTooLarge:
            return "The model server at \(endpoint) sent response headers over the \(HTTPTransport.maximumHeaderBytes / 1024) KiB limit; the answer was not read\(said)."
        case .status(let code):
            return "The model server at \(endpoint) answered HTTP \(code)\(said)."
        case .invalidResponse:
            return "The model server at \(endpoint) did not answer with a chat completion\(said)."
        case .truncated:
            return "The model's answer was cut off at the token limit before it was complete\(said)."
        case .redirected:
            return "The model server at \(endpoint) redirected the request\(said)."
        case .answerTooLarge:
            return "The model server at \(endpoint) sent an answer over the \(HTTPTransport.maximumAnswerBytes / (1 << 20)) MiB limit; it was not read\(said)."
        }
    }

    /// What the person can do, in the library's words (`remedy` spelled by `SettingNames.plain`).
    public var recoverySuggestion: String? { remedy?.rendered(.plain) }

    /// What the person can do, naming the settings to change.
    public var remedy: Advice? {
        switch kind {
        case .unreachable:
            return "Start the model server, or check \(.endpoint) (now \(endpoint))."
        case .timedOut:
            return "The server may be busy or slow; raise \(.requestTimeout) or lower \(.concurrentRequests)."
        case .connectionLost:
            return "Check that the server is still running."
        case .transport:
            return "Check \(.endpoint) and the network."
        case .untrustedCertificate:
            return "Give the CA that signed the server's certificate with \(.caFile, .placeholder) (a PEM file), or add it to the system's CAs (update-ca-certificates); check that \(.endpoint) is the server you mean."
        case .noCABundle:
            return "Install the system's CA certificates (Debian, Ubuntu: apt-get install ca-certificates), or give the server's CA with \(.caFile, .placeholder) (a readable PEM file)."
        case .notTLS:
            return "The server speaks plain HTTP: write \(.endpoint) with http:// (on a trusted network), or turn on TLS on the server."
        case .headerTooLarge:
            return "Check that \(.endpoint) points to an OpenAI-compatible model server (and not a proxy or page that sends oversized headers)."
        case .status(let code):
            switch code {
            case 401, 403: return "Check \(.apiKey)."
            case 404 where isModelMissing: return "Check \(.modelName), or download the model (for Ollama: ollama pull NAME)."
            case 404: return "Check that \(.endpoint) is the server's base URL."
            case let code where Self.temporaryStatuses.contains(code): return "The server is busy or starting; try again later."
            default: return nil
            }
        case .invalidResponse:
            return "Check that \(.endpoint) points to an OpenAI-compatible server."
        case .truncated:
            return "Use a model that answers more briefly, or a smaller \(.maxCharacters)."
        case .redirected:
            return "Set \(.endpoint) to the address the server redirects to."
        case .answerTooLarge:
            return "Check that the endpoint is an OpenAI-compatible model server."
        }
    }
}
