import Foundation
import Testing
import TestSupport
@testable import Assistant

/// Requests go only where the person pointed (issue 31): which proxy, if any, a request goes
/// through, and what a proxy stub on loopback receives.
@Suite(.mayBlock) struct HTTPProxyTests {
    static let answer = #"{"keywords":["launch"],"titles":["A first title here","A second title here","A third one here"],"emoji":"🚀"}"#
    static let prompt = PromptBuilder().build(transcript: "The rocket launch was delayed.")
    static let key = "sk-test-0123456789abcdefghijklmnop"

    func choose(_ endpoint: String, _ environment: [String: String]) throws -> HTTPProxy? {
        try HTTPProxy.choose(for: try #require(URL(string: endpoint)), environment: environment)
    }

    // MARK: - The rules

    /// A loopback or link-local endpoint never goes through a proxy, whichever variable names one.
    @Test(arguments: ["http://127.0.0.1:8080", "http://localhost:8080", "https://[::1]:8443", "http://127.9.9.9",
                      "http://169.254.1.2:80", "http://[fe80::1]:80", "http://127.1:8080", "http://2130706433:8080",
                      "http://api.localhost", "http://[::ffff:127.0.0.1]:80"])
    func aLocalEndpointNeverGoesThroughAProxy(endpoint: String) throws {
        let all = ["http_proxy": "http://p:3128", "https_proxy": "http://p:3128", "all_proxy": "socks5://p:1080",
                   "ALL_PROXY": "http://p:3128", "HTTPS_PROXY": "http://p:3128"]
        #expect(try choose(endpoint, all) == nil)
    }

    @Test func theStandardVariablesAreReadForOtherEndpoints() throws {
        #expect(try choose("https://api.example.com", ["https_proxy": "http://p:3128"])?.variable == "https_proxy")
        #expect(try choose("https://api.example.com", ["HTTPS_PROXY": "p:3128"])?.url == "http://p:3128")
        #expect(try choose("https://api.example.com", ["http_proxy": "http://p:3128"]) == nil)
        #expect(try choose("http://api.example.com", ["http_proxy": "http://p:3128"])?.seesRequests == true)
        #expect(try choose("https://api.example.com", ["https_proxy": "http://p:3128"])?.seesRequests == false)
        // HTTP_PROXY in upper case is left alone (a CGI request can set it), as curl does.
        #expect(try choose("http://api.example.com", ["HTTP_PROXY": "http://p:3128"]) == nil)
        #expect(try choose("http://api.example.com", ["ALL_PROXY": "socks5h://p:1080"])?.variable == "ALL_PROXY")
        #expect(try choose("https://api.example.com", ["https_proxy": "", "all_proxy": "http://q:1"])?.variable == "all_proxy")
    }

    @Test(arguments: [("*", true), ("example.com", true), (".example.com", true), ("api.example.com", true),
                      ("other.com,example.com", true), ("xample.com", false), ("com.example", false),
                      ("api.example.co", false), ("", false)])
    func noProxyNamesHostsAndDomains(list: String, direct: Bool) throws {
        let proxy = try choose("https://api.example.com", ["https_proxy": "http://p:3128", "no_proxy": list])
        #expect((proxy == nil) == direct)
    }

    @Test(arguments: [("10.0.0.0/8", true), ("10.1.2.3", true), ("10.1.2.0/24", true), ("10.1.3.0/24", false),
                      ("11.0.0.0/8", false), ("fd00::/8", false)])
    func noProxyNamesAddressesAndNetworks(list: String, direct: Bool) throws {
        let proxy = try choose("http://10.1.2.3:8080", ["http_proxy": "http://p:3128", "NO_PROXY": list])
        #expect((proxy == nil) == direct)
    }

    @Test func aProxyPasswordIsNeverShownAndABadProxyIsRefusedByName() throws {
        let proxy = try #require(try choose("https://api.example.com", ["https_proxy": "http://me:secret@p:3128"]))
        #expect(proxy.display == "http://p:3128")
        #expect(!proxy.summary.contains("secret"))
        #expect(throws: HTTPConfigurationError.invalidProxy(variable: "https_proxy", value: "ftp://p:21")) {
            try choose("https://api.example.com", ["https_proxy": "ftp://me:secret@p:21"])
        }
        let configuration = try HTTPConfiguration(endpoint: "https://api.example.com", environment: ["https_proxy": "http://me:secret@p:3128"])
        #expect(!String(describing: configuration).contains("secret"))
        #expect(!String(reflecting: configuration).contains("secret"))
    }

    // MARK: - What a proxy receives

    /// The reproducer: with every proxy variable pointing at a stub, a request to a loopback
    /// endpoint goes to the model server, and the stub receives nothing (no key, no transcript).
    @Test func aLoopbackEndpointIsAskedDirectlyWithProxiesSet() async throws {
        let proxy = try HTTPTestServer { _, _ in .respond(502, "{}") }
        defer { proxy.stop() }
        let server = try HTTPTestServer { _, _ in .completion(Self.answer) }
        defer { server.stop() }
        let stub = "http://127.0.0.1:\(proxy.port)"
        let environment = ["http_proxy": stub, "https_proxy": stub, "all_proxy": stub, "ALL_PROXY": stub, "HTTP_PROXY": stub]
        let configuration = try HTTPConfiguration(endpoint: server.endpoint, apiKey: Self.key, serverKind: .llamaCpp,
                                                  requestTimeout: 10, environment: environment)
        #expect(configuration.proxy == nil)
        let answer = try await HTTPAssistantModel(configuration: configuration).respond(to: Self.prompt)
        #expect(answer.text == Self.answer)
        #expect(proxy.requests.isEmpty)
        #expect(server.requests.count == 1)
    }

    /// An http:// endpoint elsewhere goes through http_proxy (the person's choice, said by `summary`).
    @Test func anHTTPEndpointElsewhereGoesThroughHTTPProxy() async throws {
        let proxy = try HTTPTestServer { _, _ in .completion(Self.answer) }
        defer { proxy.stop() }
        let configuration = try HTTPConfiguration(endpoint: "http://model.invalid:8080", serverKind: .llamaCpp, requestTimeout: 10,
                                                  environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)"])
        #expect(configuration.proxy?.summary.contains("sees the key and the transcripts in clear") == true)
        let answer = try await HTTPAssistantModel(configuration: configuration).respond(to: Self.prompt)
        #expect(answer.text == Self.answer)
        #expect(proxy.requests.first?.path == "http://model.invalid:8080/v1/chat/completions")
    }

    /// An https:// endpoint through an HTTP proxy goes by CONNECT: the proxy gets the host and
    /// port, never the key or a transcript (here it refuses the tunnel, and the failure names it).
    @Test func anHTTPProxyNeverReceivesTheKeyForAnHTTPSEndpoint() async throws {
        let proxy = try HTTPTestServer { _, _ in .respond(403, "{}") }
        defer { proxy.stop() }
        let configuration = try HTTPConfiguration(endpoint: "https://model.invalid", apiKey: Self.key, serverKind: .llamaCpp,
                                                  requestTimeout: 10, environment: ["https_proxy": "127.0.0.1:\(proxy.port)"])
        do {
            _ = try await HTTPAssistantModel(configuration: configuration).respond(to: Self.prompt)
            Issue.record("expected the refused tunnel to fail the request")
        } catch let error as HTTPAssistantError {
            #expect(error.localizedDescription.contains("127.0.0.1:\(proxy.port)"), "\(error.localizedDescription)")
        }
        let seen = proxy.requests
        #expect(seen.count == 1)
        #expect(seen.first?.method == "CONNECT")
        #expect(seen.first?.path == "model.invalid:443")
        #expect(seen.allSatisfy { $0.headers["authorization"] == nil && $0.body.isEmpty })
    }

    /// no_proxy sends the request straight to the endpoint; the stub proxy gets nothing.
    @Test func noProxyGoesStraightThere() async throws {
        let proxy = try HTTPTestServer { _, _ in .completion(Self.answer) }
        defer { proxy.stop() }
        let configuration = try HTTPConfiguration(endpoint: "http://model.invalid:8080", serverKind: .llamaCpp, requestTimeout: 10,
                                                  environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": ".invalid"])
        #expect(configuration.proxy == nil)
        await #expect(throws: HTTPAssistantError.self) { try await HTTPAssistantModel(configuration: configuration).respond(to: Self.prompt) }
        #expect(proxy.requests.isEmpty)
    }
}
