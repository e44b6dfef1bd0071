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
final class HTTPTransport: Sendable, CustomReflectable {
    /// A server's answer: status and body.
    struct Reply: Sendable {
        /// The HTTP status code.
        let status: Int
        /// The body as received.
        let body: Data
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

    /// What `dump`, `Mirror` and `String(reflecting:)` show: the configuration
    /// (which hides the key) and the timeout, never the `URLSession`. Reflecting
    /// the session reached its requests in flight, `Authorization` header and
    /// all, and, as the session changes them on its own queues, crashed the
    /// process when a request was in flight.
    var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration, "timeout": timeout], displayStyle: .class)
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
        return Reply(status: http.statusCode, body: data)
    }

    /// Runs the request, giving up after `timeout` seconds in all.
    ///
    /// Two problems of `URLSession` on Linux are avoided here. Its timeouts only
    /// measure idleness, so a server that trickles a byte now and then would hold
    /// the request forever: a deadline of our own ends it. And cancelling its async
    /// `data(for:)` can deadlock when the request completes at the same moment
    /// (the cancellation handler waits for the session's queue while that queue
    /// waits to resume the task): so the completion-handler API is used, and the
    /// `URLSessionTask` is cancelled from another queue, never while the Swift
    /// task's cancellation lock is held.
    private func withDeadline(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let pending = PendingRequest()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        pending.finish(.failure(error))
                    } else if let data, let response {
                        pending.finish(.success((data, response)))
                    } else {
                        pending.finish(.failure(URLError(.badServerResponse)))
                    }
                }
                guard pending.start(continuation, task: task) else { return }
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                    pending.finish(.failure(URLError(.timedOut)), cancellingTask: true)
                }
            }
        } onCancel: {
            pending.finish(.failure(CancellationError()), cancellingTask: true)
        }
    }

    /// One request in flight: its continuation is resumed exactly once, by the
    /// first of completion, deadline and cancellation.
    private final class PendingRequest: @unchecked Sendable {
        // @unchecked: every field is read and written under `lock`.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
        private var task: URLSessionDataTask?
        private var finished = false

        /// Registers the continuation; false (and resumed with `CancellationError`)
        /// when cancellation came first.
        func start(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>, task: URLSessionDataTask) -> Bool {
            let alreadyFinished: Bool = lock.withLock {
                if finished { return true }
                self.continuation = continuation
                self.task = task
                return false
            }
            if alreadyFinished { continuation.resume(throwing: CancellationError()) }
            return !alreadyFinished
        }

        /// Resumes the continuation with `result` unless it already was.
        func finish(_ result: Result<(Data, URLResponse), any Error>, cancellingTask: Bool = false) {
            let (waiting, task): (CheckedContinuation<(Data, URLResponse), any Error>?, URLSessionDataTask?) = lock.withLock {
                if finished { return (nil, nil) }
                finished = true
                defer { continuation = nil; self.task = nil }
                return (continuation, self.task)
            }
            if cancellingTask, let task {
                DispatchQueue.global().async { task.cancel() }
            }
            waiting?.resume(with: result)
        }
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
