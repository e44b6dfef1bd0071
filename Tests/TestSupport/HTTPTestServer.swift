#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// A request as the test server received it.
public struct HTTPTestRequest: Sendable {
    /// `GET`, `POST`, …
    public let method: String
    /// The path, e.g. `/v1/chat/completions`.
    public let path: String
    /// Header fields, names in lower case.
    public let headers: [String: String]
    /// The body bytes.
    public let body: Data

    /// The body parsed as a JSON object, if it is one.
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }
}

/// What the test server does with a request.
public enum HTTPTestReply: Sendable {
    /// Answers with a status and a body (`Connection: close`).
    case respond(Int, String, contentType: String = "application/json")
    /// Reads the request, answers nothing for this long, then closes.
    case hang(seconds: Double)
    /// Reads the request and closes the connection without answering.
    case close
    /// Answers 307 with a `Location` header.
    case redirect(String)
    /// Sends a 200 head announcing a longer body, then this much of it a byte every
    /// half second, then waits (a server that trickles and stalls).
    case trickle(String)
    /// Answers with a status, extra header fields and a body (`Connection: close`).
    case respondWithHeaders(Int, [String: String], String)
    /// Sends these bytes as they are (head and body, any framing), then closes
    /// the connection, with a reset (RST) instead of an orderly close when `reset`.
    case raw([UInt8], reset: Bool = false)
    /// Reads the request and answers nothing until the client closes the
    /// connection (counted in `connectionsClosedByClient`) or the server stops.
    case waitForClientToClose

    /// A JSON chat completion whose content is `content`.
    public static func completion(_ content: String, finishReason: String = "stop") -> HTTPTestReply {
        let body: [String: Any] = [
            "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": "test",
            "choices": [["index": 0, "message": ["role": "assistant", "content": content], "finish_reason": finishReason]],
            "usage": ["prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
        return .respond(200, String(decoding: data, as: UTF8.self))
    }
}

/// A tiny HTTP/1.1 server on 127.0.0.1 with an ephemeral port, on POSIX sockets,
/// for testing the HTTP backend against the error paths real servers rarely show.
///
/// One thread accepts; each connection gets its own thread, so a hanging answer
/// does not block the next request. Every connection is closed after one answer.
/// The handler gets the request and how many earlier requests had the same path
/// (so "503 first, then 200" needs no state of its own).
public final class HTTPTestServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPTestRequest, Int) -> HTTPTestReply

    /// The port the server listens on.
    public let port: UInt16
    /// The base URL to give the backend.
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var received: [HTTPTestRequest] = []
    private var openConnections: Set<Int32> = []
    private var closedByClient = 0
    private var stopped = false
    private let release = DispatchSemaphore(value: 0)
    private let threads = DispatchGroup()

    /// Starts listening; stop with `stop()` (also done on release).
    public init(handler: @escaping Handler) throws {
        self.handler = handler
        (listener, port) = try Self.bindLoopback()
        guard listen(listener, 16) == 0 else {
            close(listener)
            throw TestServerError("listen failed: errno \(errno)")
        }
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.start()
    }

    deinit { stop() }

    /// Every request received so far, in order of arrival.
    public var requests: [HTTPTestRequest] { lock.withLock { received } }

    /// How many `.waitForClientToClose` connections the client closed.
    public var connectionsClosedByClient: Int { lock.withLock { closedByClient } }

    /// The requests received for one path.
    public func requests(to path: String) -> [HTTPTestRequest] { requests.filter { $0.path == path } }

    /// Stops accepting, ends hanging answers and closes every connection.
    /// Safe to call more than once: only the first call closes the listener
    /// (a second `close` could close a descriptor another test has just opened
    /// under the same number, which showed up as EBADF in unrelated tests).
    public func stop() {
        let first: Bool = lock.withLock {
            if stopped { return false }
            stopped = true
            return true
        }
        guard first else { return }
        let connections: Set<Int32> = lock.withLock { openConnections }
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
        for _ in 0..<64 { release.signal() }
        _ = threads.wait(timeout: .now() + 5)
        close(listener)
    }

    /// A port on 127.0.0.1 that nothing listens on: bound (without
    /// `SO_REUSEADDR`) and never listened on, for the rest of the process, so a
    /// connection to it is refused. Closing it instead let a test server started
    /// at the same time in the parallel suite be given the same port, and
    /// answer (a retry test saw one attempt that succeeded).
    public static func refusedPort() throws -> UInt16 {
        let (fd, port) = try bindLoopback(reuseAddress: false)
        heldPortsLock.withLock { heldPorts.append(fd) }
        return port
    }

    /// The sockets `refusedPort` keeps bound (under `heldPortsLock`).
    nonisolated(unsafe) private static var heldPorts: [Int32] = []
    private static let heldPortsLock = NSLock()

    // MARK: - Internals

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        while !isStopped {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let accepted: Bool = lock.withLock {
                if stopped { return false }
                openConnections.insert(fd)
                return true
            }
            guard accepted else { close(fd); return }
            threads.enter()
            let thread = Thread { [self] in
                serve(fd)
                lock.withLock { _ = openConnections.remove(fd) }
                close(fd)
                threads.leave()
            }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(fd) else { return }
        let index: Int = lock.withLock {
            let earlier = received.filter { $0.path == request.path }.count
            received.append(request)
            return earlier
        }
        switch handler(request, index) {
        case .respond(let status, let body, let contentType):
            let bodyBytes = Array(body.utf8)
            let head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
                + "Content-Type: \(contentType)\r\n"
                + "Content-Length: \(bodyBytes.count)\r\n"
                + "Connection: close\r\n\r\n"
            sendAll(fd, Array(head.utf8) + bodyBytes)
        case .hang(let seconds):
            _ = release.wait(timeout: .now() + seconds)
        case .close:
            break
        case .redirect(let location):
            let head = "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(location)\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n"
            sendAll(fd, Array(head.utf8))
        case .trickle(let start):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
            sendAll(fd, Array(head.utf8))
            for byte in start.utf8 {
                if release.wait(timeout: .now() + 0.5) == .success { return }
                sendAll(fd, [byte])
            }
            _ = release.wait(timeout: .now() + 60)
        case .respondWithHeaders(let status, let fields, let body):
            let bodyBytes = Array(body.utf8)
            let head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
                + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
                + "Content-Length: \(bodyBytes.count)\r\nConnection: close\r\n\r\n"
            sendAll(fd, Array(head.utf8) + bodyBytes)
        case .raw(let bytes, let reset):
            sendAll(fd, bytes)
            if reset {
                var option = linger(l_onoff: 1, l_linger: 0)  // closing now sends RST
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            }
        case .waitForClientToClose:
            // recv returns 0 when the client closes; the receive timeout (5 s) just loops.
            var byte: UInt8 = 0
            while !isStopped {
                let count = recv(fd, &byte, 1, 0)
                if count == 0 { lock.withLock { closedByClient += 1 }; return }
                if count < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return }
            }
        }
    }

    private func readRequest(_ fd: Int32) -> HTTPTestRequest? {
        var buffer: [UInt8] = []
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            guard let chunk = receive(fd) else { return nil }
            buffer += chunk
            // Bytes that are no HTTP request (a TLS handshake sent to this plain server): answered
            // at once with 400, as real servers do, not after the receive timeout.
            if let first = buffer.first, !(0x41...0x5A).contains(first) {
                sendAll(fd, Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                return nil
            }
            headerEnd = Self.find(separator, in: buffer)
        }
        guard let headerEnd else { return nil }
        let headText = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        var body = Array(buffer[(headerEnd + separator.count)...])
        while body.count < length {
            guard let chunk = receive(fd) else { break }
            body += chunk
        }
        return HTTPTestRequest(
            method: String(requestLine[0]),
            path: String(requestLine[1]),
            headers: headers,
            body: Data(body.prefix(length))
        )
    }

    private func receive(_ fd: Int32) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Array(chunk[..<count])
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                #if canImport(Glibc)
                send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                #else
                send(fd, raw.baseAddress, raw.count, 0)
                #endif
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private static func bindLoopback(reuseAddress: Bool = true) throws -> (Int32, UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestServerError("socket failed: errno \(errno)") }
        var reuse: Int32 = reuseAddress ? 1 : 0
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            throw TestServerError("bind failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw TestServerError("getsockname failed: errno \(errno)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// The test server could not start.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
