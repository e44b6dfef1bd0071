#if !canImport(CLibCurl)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Apple platforms: the exchange is URLSession's (Linux uses libcurl, see
// HTTPTransport+Curl.swift). Not compiled or run where this project is tested.

extension HTTPTransport {
    /// One ephemeral session for the process: no cookies, no cache, no stored credentials.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// Runs one exchange with `URLSession`, reading the body up to
    /// `maximumAnswerBytes` (counted after the system's own decoding of a
    /// compressed answer), with `timeout` as a deadline for all of it.
    /// - Throws: `HTTPTransport.Failure`, or `CancellationError` when the task is cancelled.
    static func exchange(_ request: Request, timeout: Double) async throws -> Response {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        urlRequest.httpBody = request.body
        return try await withThrowingTaskGroup(of: Response.self) { group in
            group.addTask {
                do {
                    let (bytes, response) = try await session.bytes(for: urlRequest, delegate: RedirectRefuser())
                    guard let http = response as? HTTPURLResponse else { throw Failure.other("not an HTTP response") }
                    if http.expectedContentLength > maximumAnswerBytes { throw Failure.tooLarge(announced: http.expectedContentLength) }
                    var body = Data()
                    for try await byte in bytes {
                        guard body.count < maximumAnswerBytes else { throw Failure.tooLarge(announced: nil) }
                        body.append(byte)
                    }
                    var headers: [String: String] = [:]
                    // Content-Encoding is left out: URLSession has already decoded the body.
                    for name in readHeaders where name != "content-encoding" {
                        headers[name] = http.value(forHTTPHeaderField: name)
                    }
                    return Response(status: http.statusCode, headers: headers, body: body)
                } catch let error as URLError {
                    throw failure(error)
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int(min(timeout * 1000, 1e12))))
                throw Failure.timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    private static func failure(_ error: URLError) -> Failure {
        switch error.code {
        case .cancelled: return .other("cancelled")
        case .cannotConnectToHost: return .refused
        case .cannotFindHost, .dnsLookupFailed: return .hostNotFound
        case .notConnectedToInternet: return .unreachable("no network")
        case .timedOut: return .timedOut
        case .networkConnectionLost: return .dropped("the network connection was lost")
        case .badServerResponse, .zeroByteResource: return .closedWithoutAnswer
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .tls("URL error \(error.code.rawValue)")
        default: return .other("URL error \(error.code.rawValue)")  // the system's text may quote the URL
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
#endif
