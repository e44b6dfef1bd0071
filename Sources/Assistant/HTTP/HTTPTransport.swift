import Foundation

/// Sends one HTTP request to the configured server and maps transport failures
/// to `HTTPAssistantError`.
///
/// On Linux the exchange is libcurl's, on a thread of its own that sleeps in
/// `poll` until the server answers (`HTTPTransport+Curl.swift`): Foundation's
/// `URLSession` there keeps a socket's write readiness registered after the
/// request is sent, so against a server that closes its connections (Python's
/// `http.server`, a plain socket server) waiting for an answer cost most of a
/// core. On Apple platforms it is `URLSession` (`HTTPTransport+URLSession.swift`).
///
/// Either way: redirects are not followed (so the bearer token is never sent to
/// an address the person did not configure), a proxy is used only as
/// `HTTPProxy` decides (never for a loopback or link-local endpoint; an
/// `https://` endpoint only through a tunnel), compressed answers are not asked
/// for, an answer is read up to `maximumAnswerBytes` and refused past it, and
/// `timeout` bounds the whole exchange. A connection that drops, is reset or
/// ends before the announced length is `connectionLost`, with what came. Safe
/// to use from many tasks at once: it holds no mutable state.
final class HTTPTransport: Sendable, CustomReflectable {
    /// A server's answer: status, the headers this backend reads, and the body.
    struct Reply: Sendable {
        /// The HTTP status code.
        let status: Int
        /// The body as received.
        let body: Data
        /// How long the server asked to be left alone (`Retry-After`), if it said.
        var retryAfter: Duration? = nil
        /// What the server calls itself (`Server`), if it said: one of the signs of its kind (`HTTPServerKind.detect`).
        var server: String? = nil
    }

    /// The most bytes of one answer that are read: 4 MiB.
    ///
    /// A chat completion is bounded by `max_tokens` (a few KB with this
    /// backend's 400), and a model list of a server with hundreds of models is
    /// some hundreds of KB; 4 MiB leaves a wide margin for both, while a
    /// runaway or hostile answer costs at most 4 MiB per request in flight.
    static let maximumAnswerBytes = 4 << 20

    /// The most bytes of one answer's headers that are read: 64 KiB. Real
    /// servers send well under 1 KB; past this the exchange ends as
    /// `headerTooLarge` (libcurl itself gives up at 100 KB a line, as "Out of memory").
    static let maximumHeaderBytes = 64 << 10

    /// The response headers the backend reads (names in lower case).
    static let readHeaders: Set<String> = ["location", "retry-after", "content-encoding", "server"]

    /// One request as the platform's client sends it.
    struct Request: Sendable {
        let method: String
        let url: URL
        /// Header fields; the `Authorization` value holds the key, so a request
        /// is built for one exchange and never stored or printed.
        let headers: [(name: String, value: String)]
        let body: Data?
        /// The proxy to go through (`HTTPProxy`), or nil to go straight to `url`.
        var proxy: HTTPProxy? = nil
        /// The CA certificates to trust instead of the system's (`--ca-file`), or nil.
        var caFile: String? = nil
    }

    /// A server's answer as the platform's client received it.
    struct Response: Sendable {
        let status: Int
        /// The headers of `readHeaders` the server sent, names in lower case.
        let headers: [String: String]
        let body: Data
    }

    /// Why an exchange failed, as the platform's client found it.
    enum Failure: Error, Sendable, Equatable {
        /// Nothing listens at the address.
        case refused
        /// The host name has no address.
        case hostNotFound
        /// Another reason the server could not be reached, in the client's words.
        case unreachable(String)
        /// The exchange took longer than the timeout.
        case timedOut
        /// The server closed the connection without a byte of answer.
        case closedWithoutAnswer
        /// The connection was reset after `received` bytes of the body (0: before the answer).
        case reset(received: Int64)
        /// The server closed the connection after `received` bytes of a body
        /// announced as `expected` bytes (nil: its end was never announced).
        case closedEarly(received: Int64, expected: Int64?)
        /// Another way the connection dropped, in the client's words.
        case dropped(String)
        /// The answer is over `maximumAnswerBytes` (`announced`: its Content-Length, when it had one).
        case tooLarge(announced: Int64?)
        /// The server's certificate could not be verified against the CAs trusted (self-signed, a private CA).
        case untrustedCertificate(String)
        /// No CA certificates could be loaded (no bundle on the machine, or an unreadable `--ca-file`).
        case noCABundle(String)
        /// The server answered in plain HTTP where TLS was expected (an `https://` URL to a plain server).
        case notTLS(String)
        /// The answer's headers are over `maximumHeaderBytes` (or libcurl's own limit on one).
        case headerTooLarge
        /// TLS could not be set up for another reason, in the client's words.
        case tls(String)
        /// Anything else, in the client's words.
        case other(String)
    }

    let configuration: HTTPConfiguration
    private let timeout: Double

    /// Creates a transport whose requests give up after `timeout` seconds.
    init(configuration: HTTPConfiguration, timeout: Double) {
        self.configuration = configuration
        self.timeout = timeout
    }

    /// What `dump`, `Mirror` and `String(reflecting:)` show: the configuration
    /// (which hides the key) and the timeout.
    var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration, "timeout": timeout], displayStyle: .class)
    }

    /// Sends `method` to `route` (e.g. `/v1/models`) with an optional JSON body.
    /// - Throws: `HTTPAssistantError` for transport failures, redirects, answers
    ///   over the size limit and compressed answers (never for an HTTP error
    ///   status: the caller reads those); `CancellationError` when cancelled.
    func send(_ method: String, _ route: String, json body: Data? = nil) async throws -> Reply {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        if let key = configuration.apiKey { headers.append(("Authorization", "Bearer \(key.secret)")) }
        var request = Request(method: method, url: configuration.url(for: route), headers: headers, body: body, proxy: configuration.proxy)
        request.caFile = configuration.caFile
        let response: Response
        do {
            response = try await Self.exchange(request, timeout: timeout)
        } catch let failure as Failure {
            try Task.checkCancellation()
            if case .tls(let detail) = failure, await speaksPlainHTTP() {
                throw error(for: .notTLS(detail))
            }
            throw error(for: failure)
        }
        let endpoint = configuration.displayEndpoint
        if (300..<400).contains(response.status) {
            let location = response.headers["location"].map { HTTPResponseParser.clean($0, redacting: configuration.apiKey) }
            throw HTTPAssistantError(
                kind: .redirected,
                serverMessage: location.map { "HTTP \(response.status) to \($0)" } ?? "HTTP \(response.status)",
                endpoint: endpoint
            )
        }
        if let encoding = response.headers["content-encoding"], encoding.lowercased() != "identity" {
            // Not asked for, so not decoded: its size once decoded is unknown (1 MB of gzip can be gigabytes).
            let name = HTTPResponseParser.clean(encoding, redacting: configuration.apiKey)
            throw HTTPAssistantError(
                kind: .invalidResponse,
                serverMessage: "HTTP \(response.status) came compressed (Content-Encoding: \(name)), which was not asked for; it was not decoded",
                endpoint: endpoint
            )
        }
        return Reply(status: response.status, body: response.body, retryAfter: response.headers["retry-after"].flatMap { Self.retryAfter($0) },
                     server: response.headers["server"])
    }

    /// Whether the `https://` endpoint's host and port answer a plain HTTP request: asked after a
    /// TLS handshake failed in words that do not say why (a server that closes on a TLS hello),
    /// to tell a plain-HTTP server behind `https://` from other TLS failures. The request is a
    /// bare `GET /` with no key and no body, to the address the person gave (never through a proxy).
    private func speaksPlainHTTP() async -> Bool {
        guard configuration.proxy == nil, configuration.endpoint.scheme?.lowercased() == "https",
              var components = URLComponents(url: configuration.endpoint, resolvingAgainstBaseURL: false) else { return false }
        components.scheme = "http"
        components.port = configuration.endpoint.port ?? 443
        components.path = "/"
        components.user = nil
        components.password = nil
        guard let url = components.url else { return false }
        let probe = Request(method: "GET", url: url, headers: [], body: nil)
        guard let response = try? await Self.exchange(probe, timeout: min(timeout, 5)) else { return false }
        return response.status >= 100
    }

    /// The pause a `Retry-After` value asks for: delay-seconds, or an HTTP date
    /// (as from now; a date in the past asks for none). Nil when it is neither.
    static func retryAfter(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            // Held to a billion seconds (a number too long for Int included): longer than any cap.
            return .seconds(min(Int(text) ?? Int.max, 1_000_000_000))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(Int((seconds * 1000).rounded(.up))) : .zero
    }

    /// The error to report for a failed exchange.
    private func error(for failure: Failure) -> HTTPAssistantError {
        let endpoint = configuration.displayEndpoint
        // Through a proxy, a failure to connect may be the proxy's: the message names it.
        let via = configuration.proxy.map { " (through the proxy \($0.display) from \($0.variable))" } ?? ""
        func error(_ kind: HTTPAssistantError.Kind, _ message: String?) -> HTTPAssistantError {
            HTTPAssistantError(kind: kind, serverMessage: message.map { HTTPResponseParser.clean($0 + via, redacting: configuration.apiKey) },
                               endpoint: endpoint)
        }
        switch failure {
        case .refused: return error(.unreachable, "connection refused")
        case .hostNotFound: return error(.unreachable, "host not found")
        case .unreachable(let detail): return error(.unreachable, detail)
        case .timedOut: return error(.timedOut, "no answer within \(HTTPConfiguration.seconds(timeout))")
        case .closedWithoutAnswer: return error(.connectionLost, "the server closed the connection without answering")
        case .reset(let received):
            return error(.connectionLost, received > 0
                ? "the connection was reset after \(Self.bytes(received)) of the answer"
                : "the connection was reset before the answer came")
        case .closedEarly(let received, let expected?):
            return error(.connectionLost, "the server closed the connection after \(Self.count(received)) of \(Self.bytes(expected))")
        case .closedEarly(let received, nil):
            return error(.connectionLost, "the server closed the connection after \(Self.bytes(received)), before the answer's end")
        case .dropped(let detail): return error(.connectionLost, detail)
        case .tooLarge(let announced?):
            return error(.answerTooLarge, "it announced \(Self.bytes(announced))")
        case .tooLarge(nil):
            return error(.answerTooLarge, "more than \(Self.bytes(Int64(Self.maximumAnswerBytes))) came")
        case .untrustedCertificate(let detail): return error(.untrustedCertificate, detail)
        case .noCABundle(let detail): return error(.noCABundle, detail)
        case .notTLS(let detail): return error(.notTLS, detail)
        case .headerTooLarge: return error(.headerTooLarge, "more than \(Self.bytes(Int64(Self.maximumHeaderBytes))) of headers came")
        case .tls(let detail): return error(.transport(HTTPResponseParser.clean("TLS: \(detail)" + via, redacting: configuration.apiKey)), nil)
        case .other(let detail): return error(.transport(HTTPResponseParser.clean(detail + via, redacting: configuration.apiKey)), nil)
        }
    }

    /// "1,000 bytes".
    static func bytes(_ n: Int64) -> String { n == 1 ? "1 byte" : "\(count(n)) bytes" }

    /// A count with thousands separated by commas: "4,194,304".
    static func count(_ n: Int64) -> String {
        let digits = String(n.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return n < 0 ? "-" + grouped : grouped
    }
}
