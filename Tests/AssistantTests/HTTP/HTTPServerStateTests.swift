import Foundation
import Testing
import TestSupport
@testable import Assistant

/// The server's kind from what it says, not from a failed request; a
/// rejected schema form learnt once per run; availability asked once per run.
@Suite struct HTTPServerStateTests {
    static let answer = HTTPAssistantModelTests.answer

    /// A model and probe sharing one run's state, as the HTTP backend builds them.
    static func pair(_ server: HTTPTestServer, kind: HTTPServerKind = .auto) throws -> (HTTPAssistantModel, HTTPAvailabilityProbe) {
        let configuration = try HTTPConfiguration(endpoint: server.endpoint, modelName: "smollm", serverKind: kind, requestTimeout: 10)
        let state = HTTPServerState(configured: kind)
        return (HTTPAssistantModel(configuration: configuration, state: state), HTTPAvailabilityProbe(configuration: configuration, state: state))
    }

    static func types(_ server: HTTPTestServer) -> [String] {
        server.requests.filter { $0.path == "/v1/chat/completions" }
            .map { (($0.json?["response_format"] as? [String: Any])?["type"] as? String) ?? "?" }
    }

    @Test(arguments: [("me", HTTPServerKind.llamaCppPython), ("llamacpp", .llamaCpp), ("vllm", .vllm), ("library", .ollama),
                      ("openai", .openai), ("someone", nil)] as [(String, HTTPServerKind?)])
    func theKindIsToldByTheModelList(_ owner: String, _ kind: HTTPServerKind?) {
        #expect(HTTPServerKind.detect(owners: [owner])?.kind == kind)
    }

    /// llama-cpp-python lists its model as owned by "me": the first POST already uses json_object, none is refused.
    @Test func autoSendsTheRightFormFromTheFirstRequest() async throws {
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": return HTTPAvailabilityProbeTests.modelList(["/models/smollm.gguf"], ownedBy: "me")
            case "/health": return .respond(404, #"{"detail":"Not Found"}"#)
            default:
                let type = (request.json?["response_format"] as? [String: Any])?["type"] as? String
                return type == "json_schema" ? .respond(500, HTTPAssistantModelTests.llamaCppPythonRejection) : .completion(Self.answer)
            }
        }
        defer { server.stop() }
        let (model, probe) = try Self.pair(server)
        #expect(await probe.currentAvailability() == .available)
        #expect(probe.state?.serverKind?.kind == .llamaCppPython)
        #expect(probe.state?.serverKind?.reason == "GET /v1/models lists a model owned by \"me\"")
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<3 { group.addTask { try await model.respond(to: HTTPAssistantModelTests.prompt("p\(index)")).text } }
            for try await answer in group { #expect(answer == Self.answer) }
        }
        #expect(Self.types(server) == ["json_object", "json_object", "json_object"])
    }

    /// When the list's owners tell nothing, the answer's `Server` header may: llama-server says `llama.cpp`
    /// (through the transport, as a real server sends it); `uvicorn` (llama-cpp-python, vLLM) tells nothing,
    /// and the owners win over the header.
    @Test func theServerHeaderTellsLlamaServerWhenTheOwnersDoNot() async throws {
        #expect(HTTPServerKind.detect(owners: ["someone"], server: "llama.cpp")?.kind == .llamaCpp)
        #expect(HTTPServerKind.detect(owners: ["someone"], server: "uvicorn") == nil)
        #expect(HTTPServerKind.detect(owners: ["me"], server: "llama.cpp")?.kind == .llamaCppPython)
        let list = #"{"object":"list","data":[{"id":"model.gguf","object":"model","owned_by":"someone"}]}"#
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": return .respondWithHeaders(200, ["Server": "llama.cpp", "Content-Type": "application/json"], list)
            case "/health": return .respond(200, #"{"status":"ok"}"#)
            default: return .completion(Self.answer)
            }
        }
        defer { server.stop() }
        let (_, probe) = try Self.pair(server)
        #expect(await probe.currentAvailability() == .available)
        #expect(probe.state?.serverKind?.kind == .llamaCpp)
        #expect(probe.state?.serverKind?.reason == "GET /v1/models was answered by a server that calls itself \"llama.cpp\" (Server header)")
    }

    /// A server that does not say its kind and refuses json_schema: with
    /// requests in flight at once, only one is refused; the others wait for it.
    @Test func aRefusedFormIsLearntOncePerRunNotPerRequestInFlight() async throws {
        let server = try HTTPTestServer { request, _ in
            let type = (request.json?["response_format"] as? [String: Any])?["type"] as? String
            return type == "json_schema" ? .respond(500, HTTPAssistantModelTests.llamaCppPythonRejection) : .completion(Self.answer)
        }
        defer { server.stop() }
        let (model, _) = try Self.pair(server)
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<6 { group.addTask { try await model.respond(to: HTTPAssistantModelTests.prompt("p\(index)")).text } }
            for try await answer in group { #expect(answer == Self.answer) }
        }
        #expect(Self.types(server).filter { $0 == "json_schema" }.count == 1)
        #expect(Self.types(server).filter { $0 == "json_object" }.count == 6)
        #expect(model.state.serverKind?.kind == .llamaCppPython)
    }

    /// Availability is asked once per run, and again after a failure that may have changed it.
    @Test func availabilityIsAskedOncePerRunAndAgainAfterAFailure() async throws {
        let down = LockedFlag()
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/health": return .respond(200, #"{"status":"ok"}"#)
            case "/v1/models": return HTTPAvailabilityProbeTests.modelList(["smollm"], ownedBy: "llamacpp")
            default: return down.value ? .respond(503, #"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"#) : .completion(Self.answer)
            }
        }
        defer { server.stop() }
        let (model, probe) = try Self.pair(server)
        for _ in 0..<5 {
            #expect(await probe.currentAvailability() == .available)
            _ = try await model.respond(to: HTTPAssistantModelTests.prompt("file"))
        }
        #expect(server.requests.filter { $0.method == "GET" }.count == 2)   // one /health, one /v1/models for five files
        down.value = true
        _ = try? await model.respond(to: HTTPAssistantModelTests.prompt("file"))
        down.value = false
        #expect(await probe.currentAvailability() == .available)
        #expect(server.requests.filter { $0.method == "GET" }.count == 4)   // asked again after the 503
    }
}

/// A flag the test server's handler reads from another thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
}
