import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request to the configured server and maps transport failures
/// to `HTTPAssistantError`.
///
/// Owns its `URLSession` (ephemeral: no cookies, no cache, no stored credentials)
/// and invalidates it when released. Redirects are not followed, so the bearer
/// token is never sent to an address the person did not configure. Safe to use
/// from many tasks at once: it holds no mutable state.
final class HTTPTransport: Sendable {
    /// A server's answer: status, headers that matter, and body.
    struct Reply: Sendable {
        /// The HTTP status code.
        let status: Int
        /// The body as received.
        let body: Data
        /// The `Retry-After` header, when present.
        let retryAfter: String?
    }

    let configuration: HTTPConfiguration
    private let session: URLSession
    private let timeout: Double

    /// Creates a transport whose requests give up after `timeout` seconds.
    init(configuration: HTTPConfiguration, timeout: Double) {
        self.configuration = configuration
        self.timeout = timeout
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = timeout
        sessionConfiguration.timeoutIntervalForResource = timeout
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.urlCredentialStorage = nil
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: sessionConfiguration, delegate: RedirectRefuser(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `method` to `route` (e.g. `/v1/models`) with an optional JSON body.
    /// - Throws: `HTTPAssistantError` for transport failures and redirects (never for
    ///   an HTTP error status: the caller reads those); `CancellationError` when cancelled.
    func send(_ method: String, _ route: String, json body: Data? = nil) async throws -> Reply {
        var request = URLRequest(url: configuration.url(for: route))
        request.httpMethod = method
        request.timeoutInterval = timeout
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let key = configuration.apiKey {
            request.setValue("Bearer \(key.secret)", forHTTPHeaderField: "Authorization")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await withDeadline(request)
        } catch let error as URLError {
            try Task.checkCancellation()
            throw mapped(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            try Task.checkCancellation()
            throw HTTPAssistantError(
                kind: .transport(HTTPResponseParser.clean(String(describing: error), redacting: configuration.apiKey)),
                endpoint: configuration.displayEndpoint
            )
        }
        guard let http = response as? HTTPURLResponse else {
            throw HTTPAssistantError(kind: .invalidResponse, serverMessage: "not an HTTP response", endpoint: configuration.displayEndpoint)
        }
        if (300..<400).contains(http.statusCode) {
            let location = (http.value(forHTTPHeaderField: "Location")).map {
                HTTPResponseParser.clean($0, redacting: configuration.apiKey)
            }
            throw HTTPAssistantError(
                kind: .redirected,
                serverMessage: location.map { "HTTP \(http.statusCode) to \($0)" } ?? "HTTP \(http.statusCode)",
                endpoint: configuration.displayEndpoint
            )
        }
        return Reply(status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }

    /// Runs the request, giving up after `timeout` seconds in all.
    ///
    /// `URLSession`'s own timeouts on Linux only measure idleness: a server that
    /// trickles a byte now and then would hold the request forever. The deadline
    /// cancels the request (which ends it promptly) and reports `.timedOut`.
    private func withDeadline(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let session = self.session
        let timeout = self.timeout
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask { .answered(try await session.data(for: request)) }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return .deadlinePassed
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), case .answered(let answer) = first else {
                throw URLError(.timedOut)
            }
            return answer
        }
    }

    /// Which of the request and the deadline finished first.
    private enum Outcome: Sendable {
        case answered((Data, URLResponse))
        case deadlinePassed
    }

    private func mapped(_ error: URLError) -> HTTPAssistantError {
        let endpoint = configuration.displayEndpoint
        switch error.code {
        case .cannotConnectToHost:
            return HTTPAssistantError(kind: .unreachable, serverMessage: "connection refused", endpoint: endpoint)
        case .cannotFindHost, .dnsLookupFailed:
            return HTTPAssistantError(kind: .unreachable, serverMessage: "host not found", endpoint: endpoint)
        case .notConnectedToInternet:
            return HTTPAssistantError(kind: .unreachable, serverMessage: "no network", endpoint: endpoint)
        case .timedOut:
            return HTTPAssistantError(
                kind: .timedOut,
                serverMessage: "no answer within \(HTTPConfiguration.seconds(timeout))",
                endpoint: endpoint
            )
        case .networkConnectionLost:
            return HTTPAssistantError(kind: .connectionLost, endpoint: endpoint)
        case .badServerResponse, .zeroByteResource:
            // curl's "empty reply from server": the connection closed with no answer.
            return HTTPAssistantError(kind: .connectionLost, serverMessage: "empty reply", endpoint: endpoint)
        default:
            // The system's text may quote the URL; keep only the code.
            return HTTPAssistantError(kind: .transport("URL error \(error.code.rawValue)"), endpoint: endpoint)
        }
    }
}

/// Refuses every redirect, so the caller sees the 3xx answer instead.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
