import Foundation
import Testing
import TestSupport
@testable import Assistant

/// TLS and transport failures named and classified (issue 31): an untrusted certificate, no CA
/// certificates to check it with, a plain-HTTP server behind `https://`, headers over the limit;
/// each with its own error kind, availability reason, remedy and permanence, none "unknown".
@Suite(.mayBlock) struct HTTPTLSFailureTests {
    static let answer = #"{"keywords":["launch"],"titles":["A first title here","A second title here","A third one here"],"emoji":"🚀"}"#
    static let prompt = PromptBuilder().build(transcript: "The rocket launch was delayed.")

    func failure(_ configuration: HTTPConfiguration) async throws -> HTTPAssistantError {
        do {
            let answer = try await HTTPAssistantModel(configuration: configuration).respond(to: Self.prompt)
            Issue.record("expected an error, got \(answer)")
            throw TestServerError("no error")
        } catch let error as HTTPAssistantError {
            return error
        }
    }

    /// A self-signed server is `untrustedCertificate` (the remedy names --ca-file); with its
    /// certificate given as the CA file, the same server answers.
    @Test func aSelfSignedServerIsUntrustedAndTheCAFileTrustsIt() async throws {
        let server = try TLSStub(answer: Self.answer)
        defer { server.stop() }
        let error = try await failure(try HTTPConfiguration(endpoint: server.endpoint, serverKind: .llamaCpp, requestTimeout: 10))
        #expect(error.kind == .untrustedCertificate, "\(error)")
        #expect(!error.isTemporary)
        #expect(error.remedy?.rendered(.plain).contains("CA") == true)
        let probe = await HTTPAvailabilityProbe(configuration: try HTTPConfiguration(endpoint: server.endpoint, requestTimeout: 10)).probe()
        #expect(probe.availability == .unavailable(.untrustedCertificate))
        let diagnostics = Diagnostics(.untrustedCertificate)
        #expect(diagnostics.permanence == .userFixable)
        #expect(!diagnostics.remedy.contains("update of the operating system"))

        let trusted = try HTTPConfiguration(endpoint: server.endpoint, serverKind: .llamaCpp, requestTimeout: 10, caFile: server.certificate)
        let answer = try await HTTPAssistantModel(configuration: trusted).respond(to: Self.prompt)
        #expect(answer.text == Self.answer)
    }

    /// A CA file that holds no certificate is `noCABundle` (what a machine without
    /// ca-certificates gives), and one that cannot be read is refused before any request.
    @Test func noUsableCACertificatesIsNoCABundle() async throws {
        let server = try TLSStub(answer: Self.answer)
        defer { server.stop() }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem")
        try Data("not a certificate\n".utf8).write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let error = try await failure(try HTTPConfiguration(endpoint: server.endpoint, serverKind: .llamaCpp, requestTimeout: 10, caFile: empty.path))
        #expect(error.kind == .noCABundle, "\(error)")
        #expect(error.remedy?.rendered(.plain).contains("ca-certificates") == true)
        #expect(Diagnostics(.noCABundle).remedy.contains("apt-get install ca-certificates"))
        #expect(throws: HTTPConfigurationError.unreadableCAFile("/nonexistent/ca.pem")) {
            try HTTPConfiguration(endpoint: server.endpoint, caFile: "/nonexistent/ca.pem")
        }
    }

    /// An `https://` URL served by a plain-HTTP server is `notTLS`, not an unknown TLS failure.
    @Test func aPlainServerBehindHTTPSIsNotTLS() async throws {
        let server = try HTTPTestServer { _, _ in .completion(Self.answer) }
        defer { server.stop() }
        let endpoint = "https://127.0.0.1:\(server.port)"
        let error = try await failure(try HTTPConfiguration(endpoint: endpoint, serverKind: .llamaCpp, requestTimeout: 10))
        #expect(error.kind == .notTLS, "\(error)")
        #expect(error.remedy?.rendered(.plain).contains("http://") == true)
        let probe = await HTTPAvailabilityProbe(configuration: try HTTPConfiguration(endpoint: endpoint, requestTimeout: 10)).probe()
        #expect(probe.availability == .unavailable(.notTLS))
    }

    /// One 200 KB header (libcurl alone said "Out of memory.") and many headers over 64 KiB in
    /// all are both `headerTooLarge`, permanent.
    @Test(arguments: [1, 100])
    func headersOverTheLimitAreHeaderTooLarge(count: Int) async throws {
        let size = count == 1 ? 200_000 : 1_000
        var headers: [String: String] = [:]
        for i in 0..<count { headers["X-Filler-\(i)"] = String(repeating: "a", count: size) }
        let fixed = headers
        let server = try HTTPTestServer { _, _ in .respondWithHeaders(200, fixed, "{}") }
        defer { server.stop() }
        let error = try await failure(try HTTPConfiguration(endpoint: server.endpoint, serverKind: .llamaCpp, requestTimeout: 10))
        #expect(error.kind == .headerTooLarge, "\(error)")
        #expect(!error.isTemporary)
        #expect(Diagnostics(.headerTooLarge).permanence == .permanent)
    }

    @Test func theNewReasonsHaveNamesOfTheirOwn() {
        for reason in [UnavailableReason.untrustedCertificate, .noCABundle, .notTLS, .headerTooLarge] {
            #expect(UnavailableReason(name: reason.name) == reason)
            #expect(Diagnostics(reason).name != "unknown")
        }
    }
}

/// A TLS server with a fresh self-signed certificate for 127.0.0.1 (openssl and Python's ssl),
/// answering every request with one chat completion.
struct TLSStub {
    let process = Process()
    let port: Int
    let folder: URL
    var endpoint: String { "https://127.0.0.1:\(port)" }
    var certificate: String { folder.appendingPathComponent("cert.pem").path }

    init(answer: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder.appendingPathComponent("key.pem").path,
                             "-out", folder.appendingPathComponent("cert.pem").path]
        openssl.standardError = FileHandle.nullDevice
        openssl.standardOutput = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw TestServerError("openssl could not make a certificate") }
        let body = try JSONSerialization.data(withJSONObject: [
            "choices": [["index": 0, "message": ["role": "assistant", "content": answer], "finish_reason": "stop"]]])
        try body.write(to: folder.appendingPathComponent("body.json"))
        let script = """
            import http.server, ssl, sys, os
            folder = sys.argv[1]
            body = open(os.path.join(folder, "body.json"), "rb").read()
            class H(http.server.BaseHTTPRequestHandler):
                def log_message(self, *a): pass
                def answer(self):
                    n = int(self.headers.get("Content-Length", 0) or 0)
                    if n: self.rfile.read(n)
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                do_GET = answer
                do_POST = answer
            server = http.server.HTTPServer(("127.0.0.1", 0), H)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem"))
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print("listening on", server.server_address[1], flush=True)
            while True:
                try: server.handle_request()
                except Exception: pass
            """
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder.path]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        port = try ModelStub.listeningPort(output, process, name: "the TLS stub")
    }

    /// Kills the stub (SIGKILL: a child started from a test's thread inherits its blocked signals).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
