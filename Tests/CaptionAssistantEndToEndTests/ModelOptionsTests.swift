import Foundation
import Testing
import TestSupport

/// The model options end to end (`--model none`, `--require-model`,
/// `--model-time-limit`, `--endpoint`, `--model-name`, `--wait-for-model`)
/// and the model's cost in the reports, each run through the executable
/// against a server in the test process.
@Suite(.serialized, .mayBlock) struct ModelOptionsTests {
    static let models = #"{"object":"list","data":[{"id":"qwen2.5:0.5b","object":"model","owned_by":"library"},{"id":"llama3.2:latest","object":"model","owned_by":"library"}]}"#
    static let srt = "1\n00:00:01,000 --> 00:00:02,000\nThe rocket launch was delayed.\n\n2\n00:00:03,000 --> 00:00:04,000\nThe rocket crew waited.\n"
    static let answer = #"{"choices":[{"index":0,"message":{"role":"assistant","content":"{\"keywords\":[\"rocket\"],\"titles\":[\"Launch Day Waits\",\"A Delayed Rocket\",\"The Crew Waits\"],\"emoji\":\"🚀\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":300,"completion_tokens":40,"total_tokens":340}}"#

    func scratchWithCaptions() throws -> ScratchFolder {
        let scratch = try ScratchFolder()
        try Data(Self.srt.utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        return scratch
    }

    func sidecar(_ scratch: ScratchFolder, _ name: String = "a.srt") throws -> [String: Any] {
        let data = try Data(contentsOf: scratch.url.appendingPathComponent("out/\(name).assistant.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func modelNoneHasItsOwnReasonAndRemedy() throws {
        let scratch = try scratchWithCaptions()
        let run = try ExecutableRun.run(["--model", "none", "a.srt", "-o", "out"], in: scratch.url)
        #expect(run.status == 0)
        let model = try #require(try sidecar(scratch)["model"] as? [String: Any])
        #expect(model["reason"] as? String == "modelTurnedOff")
        #expect((model["remedy"] as? String)?.contains("--model none") == true)
        #expect((model["remedy"] as? String)?.contains("update of the operating system") == false)
        #expect(model["permanence"] as? String == "userFixable")

        let check = try ExecutableRun.run(["check", "--json", "--model", "none"], in: scratch.url)
        let json = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        #expect(json["reason"] as? String == "modelTurnedOff")
        #expect(json["reasonRow"] as? String == "No model was chosen (--model none)")
    }

    @Test func requireModelExits69WhenNoFileGotAnAnswer() throws {
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": .respond(200, Self.models)
            case "/v1/chat/completions": .respond(500, #"{"error":{"message":"internal error"}}"#)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
        defer { server.stop() }
        let scratch = try scratchWithCaptions()
        let run = try ExecutableRun.run(["a.srt", "-o", "out", "--model", "http", "--endpoint", server.endpoint,
                                         "--server-kind", "llama-cpp-python", "--require-model", "--model-time-limit", "1"], in: scratch.url)
        #expect(run.status == 69, "stderr: \(run.stderrText)")
        #expect(run.stderrText.contains("did not give a usable answer for any file"))
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("out/a.srt").path))
        let cost = try #require((try sidecar(scratch)["model"] as? [String: Any])?["cost"] as? [String: Any])
        #expect(cost["requests"] as? Int == 1)
    }

    @Test func modelTimeLimitBoundsTheRetriesOfAFileAndTheReportSaysSo() throws {
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": .respond(200, Self.models)
            case "/v1/chat/completions": .respond(503, #"{"error":{"message":"busy"}}"#)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
        defer { server.stop() }
        let scratch = try scratchWithCaptions()
        // Without the bound this temporary failure is tried 3 times with pauses of about 2 s and 4 s.
        let run = try ExecutableRun.run(["a.srt", "-o", "out", "--model", "http", "--endpoint", server.endpoint,
                                         "--server-kind", "llama-cpp-python", "--model-time-limit", "1"], in: scratch.url)
        #expect(run.status == 0, "stderr: \(run.stderrText)")
        let actions = try #require(try sidecar(scratch)["actions"] as? [[String: Any]])
        let reason = try #require(actions.first?["reason"] as? String)
        #expect(reason.contains("--model-time-limit"), "\(reason)")
        #expect(reason.contains("after 1 attempt"))
        #expect(server.requests.filter { $0.path == "/v1/chat/completions" }.count == 1)
    }

    @Test func aFullChatCompletionsURLIsAcceptedAndCheckSaysWhatIsUsed() throws {
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": .respond(200, Self.models)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
        defer { server.stop() }
        let scratch = try ScratchFolder()
        let pasted = server.endpoint + "/v1/chat/completions"
        let run = try ExecutableRun.run(["check", "--model", "http", "--endpoint", pasted, "--model-name", "qwen2.5:0.5b",
                                         "--server-kind", "ollama"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.stdoutText.contains("availability: available"), "\(run.stdoutText)")
        #expect(run.stdoutText.contains("endpoint: \(server.endpoint)/v1/chat/completions\n"))
        #expect(run.stdoutText.contains("model: qwen2.5:0.5b"))
        #expect(run.stdoutText.contains("server models: qwen2.5:0.5b, llama3.2:latest"))
        #expect(run.stdoutText.contains("retry policy: a request that fails for a temporary reason (no answer in time,"))
        #expect(run.stdoutText.contains("server kind: ollama (as configured)\n"))
        #expect(server.requests.allSatisfy { !$0.path.contains("completions/v1") })
        // check asks the server once: GET /health and GET /v1/models one time each (each twice before).
        #expect(server.requests.map(\.path) == ["/health", "/v1/models"], "\(server.requests.map(\.path))")
        // Under auto, check says which kind the server's model list shows, and why.
        let auto = try ExecutableRun.run(["check", "--model", "http", "--endpoint", server.endpoint, "--model-name", "qwen2.5:0.5b"], in: scratch.url)
        #expect(auto.stdoutText.contains("server kind: ollama (GET /v1/models lists a model owned by \"library\")\n"), "\(auto.stdoutText)")
    }

    @Test func modelMissingListsTheModelsTheServerOffers() throws {
        let server = try HTTPTestServer { request, _ in
            request.path == "/v1/models" ? .respond(200, Self.models) : .respond(404, #"{"error":"not found"}"#)
        }
        defer { server.stop() }
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["check", "--json", "--model", "http", "--endpoint", server.endpoint,
                                         "--model-name", "mistral", "--server-kind", "ollama"], in: scratch.url)
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(json["reason"] as? String == "modelMissing")
        #expect(json["serverModels"] as? [String] == ["qwen2.5:0.5b", "llama3.2:latest"])
        #expect((json["remedy"] as? String)?.contains("It offers: qwen2.5:0.5b, llama3.2:latest.") == true)
        #expect(json["model"] as? String == "mistral")
    }

    @Test func waitForModelSaysItIsWaitingAndThenDoesNotAdviseIt() throws {
        let loading = #"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"#
        let server = try HTTPTestServer { _, _ in .respond(503, loading) }
        defer { server.stop() }
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["check", "--model", "http", "--endpoint", server.endpoint, "--server-kind", "llama-cpp",
                                         "--wait-for-model", "1"], in: scratch.url)
        #expect(run.stderrText.contains("waiting up to 1 s"), "stderr: \(run.stderrText)")
        #expect(run.stdoutText.contains("modelNotReady"))
        #expect(run.stdoutText.contains("after waiting 1 s"))
        #expect(!run.stdoutText.contains("pass --wait-for-model"))
    }

    /// A server that lists its models and answers every chat request with `answer`.
    static func answeringServer() throws -> HTTPTestServer {
        try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": .respond(200, Self.models)
            case "/v1/chat/completions": .respond(200, Self.answer)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
    }

    @Test func sidecarsAndTheSummaryShowTheModelsCost() throws {
        let server = try Self.answeringServer()
        defer { server.stop() }
        let scratch = try scratchWithCaptions()
        let run = try ExecutableRun.run(["a.srt", "-o", "out", "--model", "http", "--endpoint", server.endpoint,
                                         "--server-kind", "llama-cpp-python", "--json"], in: scratch.url)
        #expect(run.status == 0, "stderr: \(run.stderrText)")
        let cost = try #require((try sidecar(scratch)["model"] as? [String: Any])?["cost"] as? [String: Any])
        #expect(cost["requests"] as? Int == 1)
        #expect(cost["promptTokens"] as? Int == 300)
        #expect(cost["completionTokens"] as? Int == 40)
        #expect(cost["milliseconds"] is Int)
        #expect(run.stderrText.contains("model: 1 request, 300 prompt + 40 completion tokens"))
        let summary = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect((summary["model"] as? [String: Any])?["promptTokens"] as? Int == 300)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.url.appendingPathComponent("out/report.json"))) as? [String: Any])
        #expect(((report["totals"] as? [String: Any])?["model"] as? [String: Any])?["completionTokens"] as? Int == 40)
    }

    @Test func aSidecarWithACostIsReadBackByResume() throws {
        let server = try Self.answeringServer()
        defer { server.stop() }
        let scratch = try scratchWithCaptions()
        let args = ["a.srt", "-o", "out", "--model", "http", "--endpoint", server.endpoint, "--server-kind", "llama-cpp-python", "--resume"]
        let first = try ExecutableRun.run(args, in: scratch.url)
        #expect(first.status == 0, "stderr: \(first.stderrText)")
        let second = try ExecutableRun.run(args, in: scratch.url)
        #expect(second.status == 0)
        #expect(second.stderrText.contains("1 already done"), "stderr: \(second.stderrText)")
        #expect(server.requests.filter { $0.path == "/v1/chat/completions" }.count == 1)
    }

    /// After `--resume`, the summary's model cost is this run's (the one
    /// request made now), and what the earlier run spent on the file it
    /// skipped is given apart (`earlierModel`), not added in.
    @Test func afterResumeTheSummaryCostIsThisRunsWithTheEarlierApart() throws {
        let server = try Self.answeringServer()
        defer { server.stop() }
        let scratch = try scratchWithCaptions()
        try Data(Self.srt.replacingOccurrences(of: "delayed", with: "postponed").utf8).write(to: scratch.url.appendingPathComponent("b.srt"))
        let args = ["a.srt", "b.srt", "-o", "out", "--model", "http", "--endpoint", server.endpoint, "--server-kind", "llama-cpp-python",
                    "--resume", "--json"]
        let first = try ExecutableRun.run(args, in: scratch.url)
        #expect(first.status == 0, "stderr: \(first.stderrText)")
        // b.srt is left to do, as an interrupted run leaves it.
        for name in ["out/b.srt", "out/b.srt.assistant.json"] { try FileManager.default.removeItem(at: scratch.url.appendingPathComponent(name)) }
        let second = try ExecutableRun.run(args, in: scratch.url)
        #expect(second.status == 0, "stderr: \(second.stderrText)")
        #expect(server.requests.filter { $0.path == "/v1/chat/completions" }.count == 3)
        let summary = try #require(try JSONSerialization.jsonObject(with: second.stdout) as? [String: Any])
        #expect((summary["model"] as? [String: Any])?["requests"] as? Int == 1, "\(summary)")
        #expect((summary["model"] as? [String: Any])?["promptTokens"] as? Int == 300)
        #expect((summary["earlierModel"] as? [String: Any])?["requests"] as? Int == 1, "\(summary)")
        #expect(second.stderrText.contains("model: 1 request, 300 prompt + 40 completion tokens"), "\(second.stderrText)")
        #expect(second.stderrText.contains("earlier runs' model: 1 request, 300 prompt + 40 completion tokens"))
        // The first run skipped nothing: no earlier cost.
        let firstSummary = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
        #expect((firstSummary["model"] as? [String: Any])?["requests"] as? Int == 2)
        #expect(firstSummary["earlierModel"] == nil)
        // report.json's totals still count every entry's cost.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.url.appendingPathComponent("out/report.json"))) as? [String: Any])
        #expect(((report["totals"] as? [String: Any])?["model"] as? [String: Any])?["requests"] as? Int == 2)
    }

    /// The summary and `--json` say how many files the transcript cap cut and
    /// how much of their text was sent (until now said only in each sidecar).
    @Test func theSummarySaysWhichTranscriptsWereCutAndHowMuchWasSent() throws {
        let server = try Self.answeringServer()
        defer { server.stop() }
        let scratch = try scratchWithCaptions()
        var long = ""
        for i in 1...40 { long += "\(i)\n00:00:\(String(format: "%02d", i)),000 --> 00:00:\(String(format: "%02d", i)),500\nThe rocket crew waited for the launch window number \(i).\n\n" }
        try Data(long.utf8).write(to: scratch.url.appendingPathComponent("long.srt"))
        let run = try ExecutableRun.run(["a.srt", "long.srt", "-o", "out", "--model", "http", "--endpoint", server.endpoint,
                                         "--server-kind", "llama-cpp-python", "--max-characters", "500", "--json"], in: scratch.url)
        #expect(run.status == 0, "stderr: \(run.stderrText)")
        let transcript = try #require(try sidecar(scratch, "long.srt")["transcript"] as? [String: Any])
        #expect(transcript["truncated"] as? Bool == true)
        let sent = try #require(transcript["sentCharacters"] as? Int), all = try #require(transcript["characters"] as? Int)
        #expect(sent <= 500 && all > 2000)
        #expect((try sidecar(scratch)["transcript"] as? [String: Any])?["truncated"] as? Bool == false)
        let summary = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let cut = try #require(summary["transcriptsCut"] as? [String: Any], "\(summary)")
        #expect(cut["files"] as? Int == 1)
        #expect(cut["sentCharacters"] as? Int == sent)
        #expect(cut["characters"] as? Int == all)
        #expect(run.stderrText.contains("1 transcript cut at --max-characters: \(sent) of \(all) characters sent"), "\(run.stderrText)")
    }
}
