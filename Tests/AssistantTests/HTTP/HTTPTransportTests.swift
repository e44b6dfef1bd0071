import Foundation
import Testing
import TestSupport
@testable import Assistant

/// The transport against servers of different make, answers over the size
/// limit, compressed answers, and connections that end early. Outcomes only:
/// what the call returned or threw, what the server saw.
@Suite(.mayBlock) struct HTTPTransportTests {
    static let answer = #"{"keywords":["launch"],"titles":["One","Two","Three"],"emoji":"🚀"}"#
    static let prompt = PromptBuilder().build(transcript: "The rocket launch was delayed.")

    func model(_ endpoint: String, timeout: Double = 30) throws -> HTTPAssistantModel {
        let configuration = try HTTPConfiguration(endpoint: endpoint, serverKind: .llamaCpp, requestTimeout: timeout)
        return HTTPAssistantModel(configuration: configuration)
    }

    /// Runs `respond` and returns the `HTTPAssistantError` it must throw.
    func failure(_ model: HTTPAssistantModel) async throws -> HTTPAssistantError {
        do {
            let answer = try await model.respond(to: Self.prompt)
            Issue.record("expected an error, got an answer: \(answer)")
            throw TestServerError("no error")
        } catch let error as HTTPAssistantError {
            return error
        }
    }

    // MARK: - Servers of different make

    /// Python's `http.server` (HTTP/1.0, closes after each answer) and a plain
    /// socket server (`scripts/model-stub.py`): the two kinds against which
    /// Foundation's URLSession spun while it waited. Each answers after 0.3 s.
    @Test(arguments: ["http.server", "raw"])
    func aPythonServerIsAnsweredAfterItsWait(kind: String) async throws {
        let stub = try ModelStub(kind: kind, latency: 0.3)
        defer { stub.stop() }
        let answer = try await model(stub.endpoint).respond(to: Self.prompt)
        #expect(answer.text.contains(#""keywords": ["rocket"]"#), "\(answer.text)")
        #expect(answer.promptTokens != nil)
    }

    /// The stub would answer after a minute; the call ends with
    /// `CancellationError` instead, which only cancellation can give.
    @Test(arguments: ["http.server", "raw"])
    func cancellingARequestToAPythonServerEndsIt(kind: String) async throws {
        let stub = try ModelStub(kind: kind, latency: 60)
        defer { stub.stop() }
        let model = try model(stub.endpoint, timeout: 120)
        let call = Task { try await model.respond(to: Self.prompt) }
        try await Task.sleep(for: .milliseconds(300))
        call.cancel()
        let outcome = await call.result
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    /// Cancelled while the server waits for it, the call ends with
    /// `CancellationError` and the client closes its connection: the
    /// exchange itself was stopped, not only the task that awaited it.
    @Test func cancellingARequestClosesItsConnection() async throws {
        let server = try HTTPTestServer { _, _ in .waitForClientToClose }
        defer { server.stop() }
        let model = try model(server.endpoint, timeout: 120)
        let call = Task { try await model.respond(to: Self.prompt) }
        for _ in 0..<6000 where server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.requests.count == 1)
        call.cancel()
        let outcome = await call.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        for _ in 0..<6000 where server.connectionsClosedByClient == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.connectionsClosedByClient == 1)
    }

    @Test func aCompressedAnswerIsNotAskedForAndIsRefusedUndecoded() async throws {
        // Bytes of a gzip stream's header: what they would decode to does not matter, they are not decoded.
        let server = try HTTPTestServer { _, _ in
            .respondWithHeaders(200, ["Content-Encoding": "gzip", "Content-Type": "application/json"], "\u{1F}\u{8B}\u{08}\u{00}compressed")
        }
        defer { server.stop() }
        let error = try await failure(try model(server.endpoint))
        #expect(server.requests.first?.headers["accept-encoding"] == nil)
        #expect(error.kind == .invalidResponse)
        #expect(!error.isTemporary)
        #expect(error.serverMessage?.contains("compressed (Content-Encoding: gzip), which was not asked for; it was not decoded") == true)
    }

    // MARK: - The size limit

    @Test func anAnswerAnnouncedOverTheLimitIsRefusedUnread() async throws {
        let server = try HTTPTestServer { _, _ in .respond(200, String(repeating: "x", count: HTTPTransport.maximumAnswerBytes + 1)) }
        defer { server.stop() }
        let error = try await failure(try model(server.endpoint))
        #expect(error.kind == .answerTooLarge)
        #expect(!error.isTemporary)
        #expect(error.serverMessage == "it announced 4,194,305 bytes")
        #expect(error.errorDescription?.contains("over the 4 MiB limit") == true)
    }

    /// No length announced (the answer ends when the connection closes): the
    /// transfer stops at the limit.
    @Test func anUnannouncedAnswerIsCutAtTheLimitAndRefused() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n".utf8)
        let server = try HTTPTestServer { _, _ in .raw(head + [UInt8](repeating: 0x20, count: HTTPTransport.maximumAnswerBytes + 10)) }
        defer { server.stop() }
        let error = try await failure(try model(server.endpoint))
        #expect(error.kind == .answerTooLarge)
        #expect(error.serverMessage == "more than 4,194,304 bytes came")
    }

    /// Exactly at the limit is read (and then fails as what it is: not JSON).
    @Test func anAnswerOfExactlyTheLimitIsRead() async throws {
        let server = try HTTPTestServer { _, _ in .respond(200, String(repeating: "x", count: HTTPTransport.maximumAnswerBytes)) }
        defer { server.stop() }
        let error = try await failure(try model(server.endpoint))
        #expect(error.kind == .invalidResponse)
    }

    // MARK: - Connections that end early

    @Test func aBodyCutShortSaysHowFarItGot() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".utf8)
        let server = try HTTPTestServer { _, _ in .raw(head + [UInt8](repeating: 0x20, count: 412)) }
        defer { server.stop() }
        let error = try await failure(try model(server.endpoint))
        #expect(error.kind == .connectionLost)
        #expect(error.isTemporary)
        #expect(error.serverMessage == "the server closed the connection after 412 of 1,000 bytes")
        #expect(error.errorDescription?.contains("dropped before the answer came: the server closed the connection after 412 of 1,000 bytes") == true)
    }

    @Test func aChunkedBodyCutShortSaysHowFarItGot() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        let server = try HTTPTestServer { _, _ in .raw(Array((head + "10\r\n{\"choices\": [ ]}\r\n").utf8)) }
        defer { server.stop() }
        let error = try await failure(try model(server.endpoint))
        #expect(error.kind == .connectionLost)
        #expect(error.isTemporary)
        #expect(error.serverMessage == "the server closed the connection after 16 bytes, before the answer's end")
    }

    @Test func aResetConnectionIsNamedAndTemporary() async throws {
        let server = try HTTPTestServer { _, _ in .raw([], reset: true) }
        defer { server.stop() }
        let error = try await failure(try model(server.endpoint))
        #expect(error.kind == .connectionLost)
        #expect(error.isTemporary)
        #expect(error.serverMessage == "the connection was reset before the answer came")
    }

    @Test func aConnectionClosedWithoutAnswerIsNamed() async throws {
        let server = try HTTPTestServer { _, _ in .close }
        defer { server.stop() }
        let error = try await failure(try model(server.endpoint))
        #expect(error.kind == .connectionLost)
        #expect(error.serverMessage == "the server closed the connection without answering")
    }

    /// An `https://` endpoint is spoken to with TLS: a server that answers in
    /// plain HTTP fails the handshake, a permanent failure named as such (`notTLS`).
    @Test func anHTTPSEndpointSpeaksTLS() async throws {
        let server = try HTTPTestServer { _, _ in .completion(Self.answer) }
        defer { server.stop() }
        let error = try await failure(try model("https://127.0.0.1:\(server.port)"))
        #expect(error.kind == .notTLS, "\(error)")
        #expect(!error.isTemporary)
    }

    // MARK: - Retry-After

    @Test(arguments: [
        ("7", Duration.seconds(7)),
        (" 0 ", Duration.zero),
        ("99999999999999999999999", Duration.seconds(1_000_000_000)),
        ("Wed, 21 Oct 2015 07:28:30 GMT", Duration.seconds(30)),
        ("Wed, 21 Oct 2015 07:27:00 GMT", Duration.zero),
    ])
    func retryAfterIsReadAsSecondsOrADate(value: String, pause: Duration) {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(HTTPTransport.retryAfter(value, now: now) == pause)
    }

    @Test(arguments: ["soon", "-5", "1.5", ""])
    func aRetryAfterThatIsNeitherIsIgnored(value: String) {
        #expect(HTTPTransport.retryAfter(value) == nil)
    }
}

/// `scripts/model-stub.py` running as a child process on a free port.
struct ModelStub {
    let process = Process()
    let port: Int
    var endpoint: String { "http://127.0.0.1:\(port)" }

    init(kind: String, latency: Double) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/model-stub.py")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--port", "0", "--latency", "\(latency)", "--kind", kind]
        process.standardOutput = output
        try process.run()
        port = try Self.listeningPort(output, process, name: "model-stub.py")
    }

    /// The port a child server prints on its first line ("listening on PORT", once it accepts
    /// connections); the child is killed when it prints none.
    static func listeningPort(_ output: Pipe, _ process: Process, name: String) throws -> Int {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestServerError("\(name) did not start: \(text)")
        }
        return port
    }

    /// Kills the stub: SIGKILL, since a child started from a test's thread
    /// inherits its blocked signals, SIGTERM among them.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
