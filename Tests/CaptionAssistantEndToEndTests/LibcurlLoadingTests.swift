import Foundation
import Testing
import TestSupport

/// libcurl is opened when HTTP is first used (Sources/CLibCurl/shim.h), not
/// linked: a run without an HTTP model never loads it (nor the libraries it
/// brings), and one with an HTTP model loads it. The loader says which
/// libraries it loads when `LD_DEBUG=libs` is set (on standard error).
@Suite(.mayBlock) struct LibcurlLoadingTests {
    @Test func aRunWithoutAnHTTPModelDoesNotLoadLibcurl() throws {
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nThe rocket launch\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        for model in [["--model", "none"], ["-test-fake-assistant"]] {
            let run = try ExecutableRun.run(["a.srt", "-o", "out-\(model.count)", "--quiet"] + model, in: scratch.url,
                                            environment: ["LD_DEBUG": "libs"])
            #expect(run.status == 0, "\(run.stderrText.suffix(500))")
            // The loader did speak (else the check below proves nothing).
            #expect(run.stderrText.contains("libc.so.6"))
            #expect(!run.stderrText.contains("libcurl"), "\(model)")
        }
    }

    @Test func aRunWithAnHTTPModelLoadsLibcurl() throws {
        let scratch = try ScratchFolder()
        let endpoint = "http://127.0.0.1:\(try HTTPTestServer.refusedPort())"
        let run = try ExecutableRun.run(["check", "--json", "--model", "http", "--endpoint", endpoint, "--request-timeout", "5"],
                                        in: scratch.url, environment: ["LD_DEBUG": "libs"])
        #expect(run.status == 69)
        #expect(run.stderrText.contains("libcurl.so.4"))
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.stdoutText)")
        #expect(json["reason"] as? String == "serverUnreachable")
    }
}
