import Foundation
import Testing
import TestSupport

/// `caption-assistant check --model http --endpoint …` against a server in the
/// test process: the reason and remedy a person sees for each server state.
@Suite(.mayBlock) struct HTTPCheckTests {
    static let loading = #"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"#
    static let models = #"{"object":"list","data":[{"id":"qwen2.5:0.5b","object":"model","owned_by":"library"}]}"#

    func check(_ endpoint: String, model: String? = nil, kind: String = "auto") throws -> (ExecutableRun, [String: Any]) {
        let scratch = try ScratchFolder()
        var args = ["check", "--json", "--model", "http", "--endpoint", endpoint, "--server-kind", kind, "--request-timeout", "5"]
        if let model { args += ["--model-name", model] }
        let run = try ExecutableRun.run(args, in: scratch.url)
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.stdoutText)")
        return (run, json)
    }

    @Test func noServerIsServerUnreachable() throws {
        let endpoint = "http://127.0.0.1:\(try HTTPTestServer.refusedPort())"
        let (run, json) = try check(endpoint)
        #expect(run.status == 69, "check fails when the model cannot answer")
        #expect(json["backend"] as? String == "http")
        #expect(json["reason"] as? String == "serverUnreachable")
        #expect(json["reasonRow"] as? String == "The model server cannot be reached")
        #expect((json["remedy"] as? String)?.contains(endpoint) == true)
        #expect(json["permanence"] as? String == "userFixable")
    }

    /// `process` says which server and model it asks before it starts (the endpoint may come from
    /// CAPTION_ASSISTANT_ENDPOINT, unseen on the command line); `--quiet` and `--json` leave it out.
    @Test func processSaysWhichServerAndModelItAsks() throws {
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket launch\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        let endpoint = "http://127.0.0.1:\(try HTTPTestServer.refusedPort())"
        let run = try ExecutableRun.run(["a.srt", "-o", "out", "--request-timeout", "5", "--model-name", "tiny"], in: scratch.url,
                                        environment: ["CAPTION_ASSISTANT_ENDPOINT": endpoint])
        #expect(run.status == 0)
        #expect(run.stderrText.hasPrefix("caption-assistant: model: tiny at \(endpoint)/v1/chat/completions\n"), "\(run.stderrText)")
        let quiet = try ExecutableRun.run(["a.srt", "-o", "quiet", "--quiet", "--endpoint", endpoint, "--request-timeout", "5"], in: scratch.url)
        #expect(!quiet.stderrText.contains("model:"), "\(quiet.stderrText)")
    }

    @Test func aLoadingServerIsModelNotReady() throws {
        let server = try HTTPTestServer { request, _ in
            request.path == "/health" ? .respond(503, Self.loading) : .respond(503, Self.loading)
        }
        defer { server.stop() }
        let (run, json) = try check(server.endpoint, kind: "llama-cpp")
        #expect(run.status == 69, "check fails when the model cannot answer")
        #expect(json["reason"] as? String == "modelNotReady")
        #expect((json["remedy"] as? String)?.contains("--wait-for-model") == true)
        #expect(json["permanence"] as? String == "temporary")
    }

    @Test func aModelTheServerDoesNotServeIsModelMissing() throws {
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": .respond(200, Self.models)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
        defer { server.stop() }
        let (run, json) = try check(server.endpoint, model: "llama3.2", kind: "ollama")
        #expect(run.status == 69, "check fails when the model cannot answer")
        #expect(json["reason"] as? String == "modelMissing")
        #expect((json["remedy"] as? String)?.contains("llama3.2") == true)
        #expect(json["offersSettings"] as? Bool == false)
    }

    @Test func aReadyServerIsAvailable() throws {
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/health": .respond(200, #"{"status":"ok"}"#)
            case "/v1/models": .respond(200, Self.models)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
        defer { server.stop() }
        let (run, json) = try check(server.endpoint, model: "qwen2.5:0.5b", kind: "ollama")
        #expect(run.status == 0)
        #expect(json["availability"] as? String == "available")
        #expect(json["reason"] == nil || json["reason"] is NSNull)
    }

    @Test func requireModelMakesAnUnreachableServerExit69() throws {
        let scratch = try ScratchFolder()
        let endpoint = "http://127.0.0.1:\(try HTTPTestServer.refusedPort())"
        let run = try ExecutableRun.run(["check", "--model", "http", "--endpoint", endpoint, "--require-model"], in: scratch.url)
        #expect(run.status == 69)
        #expect(run.stdoutText.contains("The model server cannot be reached"))
    }

    /// `check` and `process` say when a proxy is used (issue 31), and a loopback endpoint is asked
    /// directly with every proxy variable set: the stub proxy then receives nothing.
    @Test func checkAndProcessSayWhenAProxyIsUsed() throws {
        let proxy = try HTTPTestServer { request, _ in
            request.path.hasSuffix("/v1/models") ? .respond(200, Self.models) : .respond(404, #"{"error":"not found"}"#)
        }
        defer { proxy.stop() }
        let scratch = try ScratchFolder()
        let stub = "http://127.0.0.1:\(proxy.port)"
        let run = try ExecutableRun.run(["check", "--model", "http", "--endpoint", "http://model.invalid:8080", "--server-kind", "ollama",
                                         "--model-name", "qwen2.5:0.5b", "--request-timeout", "5"], in: scratch.url,
                                        environment: ["http_proxy": stub])
        #expect(run.status == 0, "\(run.stdoutText)")
        #expect(run.stdoutText.contains("proxy: \(stub) (from http_proxy; the endpoint is http://, so the proxy sees the key and the transcripts in clear)\n"),
                "\(run.stdoutText)")
        #expect(proxy.requests.contains { $0.path == "http://model.invalid:8080/v1/models" }, "\(proxy.requests.map(\.path))")

        let server = try HTTPTestServer { request, _ in
            request.path == "/v1/models" ? .respond(200, Self.models) : .respond(404, #"{"error":"not found"}"#)
        }
        defer { server.stop() }
        let before = proxy.requests.count
        let local = try ExecutableRun.run(["check", "--json", "--model", "http", "--endpoint", server.endpoint, "--server-kind", "ollama",
                                           "--model-name", "qwen2.5:0.5b"], in: scratch.url,
                                          environment: ["http_proxy": stub, "all_proxy": stub, "ALL_PROXY": stub, "https_proxy": stub])
        #expect(local.status == 0, "\(local.stdoutText)")
        #expect(!local.stdoutText.contains("proxy"))
        #expect(proxy.requests.count == before)
        #expect(server.requests.count >= 1)
    }
}
