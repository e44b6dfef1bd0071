#if canImport(CLibCurl)
internal import CLibCurl
import Foundation

// The one Swift file that uses libcurl (Linux). Each exchange runs on a thread
// of its own with an easy handle in a multi handle of its own: the thread
// sleeps in `curl_multi_poll` until the socket is ready, curl's own timer
// fires, or `curl_multi_wakeup` says the Swift task was cancelled. No curl
// type leaves this file.

extension HTTPTransport {
    /// Runs one exchange with libcurl.
    /// - Throws: `HTTPTransport.Failure`, or `CancellationError` when the task is cancelled.
    static func exchange(_ request: Request, timeout: Double) async throws -> Response {
        guard curlIsReady else {
            // libcurl is opened on first use (Sources/CLibCurl/shim.h), not at start.
            throw Failure.other(ca_curl_is_loaded() != 0
                ? "libcurl could not be initialised"
                : "libcurl (libcurl.so.4) could not be loaded: install libcurl's runtime library (Debian's and Ubuntu's libcurl4) for an HTTP model")
        }
        let transfer = CurlTransfer(request, timeout: timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.start(continuation)
            }
        } onCancel: {
            transfer.cancel()
        }
    }
}

/// `curl_global_init`, once per process, before the first handle (false
/// when libcurl cannot be loaded).
private let curlIsReady: Bool = ca_curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

/// One exchange: its handles, what came back, and whether it was cancelled.
///
/// Everything but `cancelled` and `multi` is touched only by the transfer's
/// thread; those two are read and written under `lock`, so `cancel()` can wake
/// the thread from any other and never touches a handle being freed.
private final class CurlTransfer: @unchecked Sendable {
    private let request: HTTPTransport.Request
    private let timeout: Double
    private var continuation: CheckedContinuation<HTTPTransport.Response, any Error>?

    private let lock = NSLock()
    private var cancelled = false
    private var multi: UnsafeMutableRawPointer?

    private var body = Data()
    private var headers: [String: String] = [:]
    /// The last response's Content-Length, read here: curl refuses a body
    /// announced over CURLOPT_MAXFILESIZE before it records the length.
    private var announcedLength: Int64?
    private var overLimit = false
    /// The bytes of header lines received, and whether they went over `maximumHeaderBytes`.
    private var headerBytes = 0
    private var headersOverLimit = false
    /// curl's own words for a failure (CURLOPT_ERRORBUFFER).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(_ request: HTTPTransport.Request, timeout: Double) {
        self.request = request
        self.timeout = timeout
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit { errorText.deallocate() }

    /// Starts the thread that runs the exchange and resumes `continuation` once.
    func start(_ continuation: CheckedContinuation<HTTPTransport.Response, any Error>) {
        self.continuation = continuation
        let thread = Thread { [self] in
            // A TLS write to a connection the server closed raises SIGPIPE in the
            // writing thread (CURLOPT_NOSIGNAL leaves it to us, and OpenSSL does
            // not send with MSG_NOSIGNAL): blocked on this thread of ours, the
            // write fails with EPIPE instead of ending the process, and the
            // signal is dropped with the thread.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            let result = Result { try run() }
            self.continuation?.resume(with: result)
            self.continuation = nil
        }
        thread.name = "caption-assistant HTTP"
        thread.start()
    }

    /// Ends the exchange at once: wakes the thread out of `curl_multi_poll`.
    func cancel() {
        lock.withLock {
            cancelled = true
            if let multi { _ = ca_curl_multi_wakeup(multi) }
        }
    }

    private var isCancelled: Bool { lock.withLock { cancelled } }

    // MARK: - The exchange, on the transfer's thread

    private func run() throws -> HTTPTransport.Response {
        guard let easy = ca_curl_easy_init() else { throw HTTPTransport.Failure.other("libcurl could not create a request") }
        defer { ca_curl_easy_cleanup(easy) }
        var list: UnsafeMutablePointer<curl_slist>?
        // "Expect:" with no value: no `100-continue` wait (a second against servers that never send 100).
        for header in request.headers + [(name: "Expect", value: "")] {
            let line = header.value.isEmpty ? "\(header.name):" : "\(header.name): \(header.value)"
            guard let longer = ca_curl_slist_append(list, line) else {
                ca_curl_slist_free_all(list)
                throw HTTPTransport.Failure.other("libcurl could not hold the request's headers")
            }
            list = longer
        }
        defer { ca_curl_slist_free_all(list) }
        try configure(easy, headers: list)

        guard let multi = ca_curl_multi_init() else { throw HTTPTransport.Failure.other("libcurl could not create a request") }
        defer { ca_curl_multi_cleanup(multi) }
        guard ca_curl_multi_add_handle(multi, easy) == CURLM_OK else { throw HTTPTransport.Failure.other("libcurl could not start the request") }
        defer { ca_curl_multi_remove_handle(multi, easy) }
        let started: Bool = lock.withLock {
            if cancelled { return false }
            self.multi = multi
            return true
        }
        guard started else { throw CancellationError() }
        defer { lock.withLock { self.multi = nil } }

        var running: Int32 = 1
        while running > 0 {
            let code = ca_curl_multi_perform(multi, &running)
            guard code == CURLM_OK else { throw HTTPTransport.Failure.other(String(cString: ca_curl_multi_strerror(code))) }
            if running == 0 { break }
            if isCancelled { throw CancellationError() }
            // Sleeps until the socket is ready, curl's own deadline, or a wakeup;
            // the minute is only an upper bound on one sleep.
            _ = ca_curl_multi_poll(multi, nil, 0, 60_000, nil)
            if isCancelled { throw CancellationError() }
        }
        var left: Int32 = 0
        var result = CURLE_OK
        while let message = ca_curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
        }
        guard result == CURLE_OK else { throw failure(result, easy) }
        var status = 0
        _ = ca_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return HTTPTransport.Response(status: status, headers: headers, body: body)
    }

    private func configure(_ easy: UnsafeMutableRawPointer, headers list: UnsafeMutablePointer<curl_slist>?) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let milliseconds = Int(min(max(timeout * 1000, 1), Double(Int32.max)).rounded(.up))
        var codes = [
            ca_curl_set_pointer(easy, CURLOPT_URL, request.url.absoluteString),
            ca_curl_set_pointer(easy, CURLOPT_HTTPHEADER, list),
            ca_curl_set_long(easy, CURLOPT_NOSIGNAL, 1),
            ca_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0),
            ca_curl_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds),
            ca_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
            ca_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(HTTPTransport.maximumAnswerBytes)),
            ca_curl_set_pointer(easy, CURLOPT_USERAGENT, "caption-assistant"),
            ca_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorText),
            ca_curl_set_data_callback(easy, CURLOPT_WRITEFUNCTION, receiveBody),
            ca_curl_set_pointer(easy, CURLOPT_WRITEDATA, context),
            ca_curl_set_data_callback(easy, CURLOPT_HEADERFUNCTION, receiveHeader),
            ca_curl_set_pointer(easy, CURLOPT_HEADERDATA, context),
            // The proxy is chosen by HTTPProxy's rules and given explicitly: "" is no proxy at all,
            // and an empty CURLOPT_NOPROXY makes libcurl read no *_proxy variable on its own.
            ca_curl_set_pointer(easy, CURLOPT_PROXY, request.proxy?.url ?? ""),
            ca_curl_set_pointer(easy, CURLOPT_NOPROXY, ""),
        ]
        if let caFile = request.caFile { codes.append(ca_curl_set_pointer(easy, CURLOPT_CAINFO, caFile)) }
        if let proxy = request.proxy, !proxy.seesRequests {
            // An https:// endpoint through an HTTP proxy goes by CONNECT: TLS runs end to end, the key inside it.
            codes.append(ca_curl_set_long(easy, CURLOPT_HTTPPROXYTUNNEL, 1))
        }
        switch (request.method, request.body) {
        case ("GET", nil):
            codes.append(ca_curl_set_long(easy, CURLOPT_HTTPGET, 1))
        case (let method, let body):
            let bytes = body ?? Data()
            codes.append(ca_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)))
            // COPYPOSTFIELDS copies the bytes (POSTFIELDSIZE of them) before returning.
            codes.append(bytes.isEmpty
                ? ca_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, "")
                : bytes.withUnsafeBytes { ca_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
            if method != "POST" { codes.append(ca_curl_set_pointer(easy, CURLOPT_CUSTOMREQUEST, method)) }
        }
        if let bad = codes.first(where: { $0 != CURLE_OK }) {
            throw HTTPTransport.Failure.other("libcurl refused an option: \(String(cString: ca_curl_easy_strerror(bad)))")
        }
    }

    /// Keeps up to `maximumAnswerBytes` of the body; past that, ends the transfer.
    fileprivate func received(body bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= HTTPTransport.maximumAnswerBytes else {
            overLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Keeps the headers the backend reads, of the last response only (a
    /// `100 Continue` or other interim response comes first). False (the
    /// transfer ends) once the headers are over `maximumHeaderBytes`.
    fileprivate func received(headerLine bytes: UnsafeRawBufferPointer) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= HTTPTransport.maximumHeaderBytes else {
            headersOverLimit = true
            return false
        }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") { headers = [:]; announcedLength = nil; return true }
        guard let colon = line.firstIndex(of: ":") else { return true }
        let name = line[..<colon].lowercased()
        if name == "content-length" {
            announcedLength = Int64(line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard HTTPTransport.readHeaders.contains(name) else { return true }
        headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        return true
    }

    /// Whether OpenSSL's words for a failed handshake say the server spoke no TLS
    /// (a plain HTTP answer read as a TLS record).
    static func saysNotTLS(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["wrong version number", "packet length too long", "unknown protocol", "http request", "record layer failure"]
            .contains { lower.contains($0) }
    }

    /// What a failed transfer was, by curl's code, the system's errno and the bytes that came.
    private func failure(_ code: CURLcode, _ easy: UnsafeMutableRawPointer) -> HTTPTransport.Failure {
        var osError = 0
        _ = ca_curl_get_long(easy, CURLINFO_OS_ERRNO, &osError)
        var received: curl_off_t = 0
        _ = ca_curl_get_offset(easy, CURLINFO_SIZE_DOWNLOAD_T, &received)
        var announced: curl_off_t = -1
        _ = ca_curl_get_offset(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced)
        let expected = announced >= 0 ? Int64(announced) : announcedLength
        let text = errorText.pointee != 0 ? String(cString: errorText) : String(cString: ca_curl_easy_strerror(code))
        switch code {
        case CURLE_WRITE_ERROR where overLimit, CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(announced: expected)
        case CURLE_WRITE_ERROR where headersOverLimit:
            return .headerTooLarge
        // libcurl before 8.6 says "Out of memory" for a header line over its own 100 KB limit
        // (CURLE_TOO_LARGE, 100, from 8.6): nothing of the body had come.
        case CURLE_OUT_OF_MEMORY where received == 0, CURLcode(rawValue: 100):
            return .headerTooLarge
        case CURLE_PEER_FAILED_VERIFICATION:
            return .untrustedCertificate(text)
        case CURLE_SSL_CACERT_BADFILE:
            return .noCABundle(text)
        case CURLE_SSL_CONNECT_ERROR where Self.saysNotTLS(text):
            return .notTLS(text)
        case CURLE_RECV_ERROR where Self.saysNotTLS(text):
            return .notTLS(text)
        case CURLE_COULDNT_CONNECT where osError == Int(ECONNREFUSED):
            return .refused
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .hostNotFound
        case CURLE_COULDNT_CONNECT:
            return .unreachable(text)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_GOT_NOTHING:
            return .closedWithoutAnswer
        case CURLE_PARTIAL_FILE:
            return .closedEarly(received: Int64(received), expected: expected)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return osError == Int(ECONNRESET) || osError == Int(EPIPE) ? .reset(received: Int64(received)) : .dropped(text)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
            return .tls(text)
        default:
            return .other(text)
        }
    }
}

/// CURLOPT_WRITEFUNCTION: a piece of the body. Returning less than was given ends the transfer.
private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let length = size * count
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.received(body: UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// CURLOPT_HEADERFUNCTION: one header line, with its line break.
private func receiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let length = size * count
    let kept = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().received(headerLine: UnsafeRawBufferPointer(start: data, count: length))
    return kept ? length : 0
}
#endif
