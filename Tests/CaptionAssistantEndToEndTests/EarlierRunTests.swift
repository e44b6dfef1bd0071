import Foundation
import Testing
import TestSupport

/// What a user who runs the same command again sees: outputs an earlier run
/// made with the model are kept when this run's model gives nothing, and the
/// summary (text and `--json`) names them; every count follows each file's one outcome.
@Suite(.mayBlock) struct EarlierRunTests {
    static func samples(_ scratch: ScratchFolder) throws {
        let samples = ExecutableRun.packageRoot.appendingPathComponent("Samples")
        try FileManager.default.copyItem(at: samples, to: scratch.url.appendingPathComponent("in"))
    }

    static func json(_ run: ExecutableRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText)")
    }

    /// The arguments of a run whose real model (an HTTP server) answers.
    static func http(_ server: HTTPTestServer) -> [String] {
        ["--model", "http", "--endpoint", server.endpoint, "--server-kind", "llama-cpp-python"]
    }

    @Test func theSameCommandWithoutTheModelKeepsWhatTheModelGave() throws {
        let server = try ModelOptionsTests.answeringServer()
        defer { server.stop() }
        let scratch = try ScratchFolder()
        try Self.samples(scratch)
        let first = try ExecutableRun.run(["in", "-o", "out", "--quiet"] + Self.http(server), in: scratch.url)
        #expect(first.status == 0, "\(first.stderrText)")
        let out = scratch.url.appendingPathComponent("out")
        let before = try filesUnder(out).filter { $0 != "report.json" }.map { try Data(contentsOf: out.appendingPathComponent($0)) }
        let again = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url)
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(try filesUnder(out).filter { $0 != "report.json" }.map { try Data(contentsOf: out.appendingPathComponent($0)) } == before)
        #expect(again.stderrText.contains("3 files: 0 written, 3 kept as an earlier run made them with the model, 0 failed"), "\(again.stderrText)")
        #expect(again.stderrText.contains("warning: 3 files kept the outputs an earlier run made with the model"), "\(again.stderrText)")
        #expect(again.stderrText.contains("modelTurnedOff") && again.stderrText.contains("--replace-model-results"))
        #expect(again.stderrText.contains("in/rocket-launch.srt"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let totals = report["totals"] as? [String: Any]
        #expect(totals?["kept"] as? Int == 3 && totals?["written"] as? Int == 3)
        let files = report["files"] as? [[String: Any]] ?? []
        let kept = files.first?["kept"] as? [String: Any]
        #expect((kept?["model"] as? [String: Any])?["reason"] as? String == "modelTurnedOff")

        // The review says the page shows the earlier output, whose sidecar is report.json's entry without `kept`.
        #expect(try ExecutableRun.run(["review", "out", "--quiet"], in: scratch.url).status == 0)
        let page = try String(contentsOf: out.appendingPathComponent("review/files/00001.html"), encoding: .utf8)
        #expect(page.contains("Kept from an earlier run") && page.contains("unavailable: modelTurnedOff"))
        #expect(page.contains("(the same entry as report.json)"))

        let json = try Self.json(try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--json"], in: scratch.url))
        #expect(json["written"] as? Int == 0)
        let notes = json["kept"] as? [[String: Any]] ?? []
        #expect(notes.count == 3 && notes.allSatisfy { $0["because"] as? String == "modelTurnedOff" })
        #expect(notes.first?["input"] as? String == "in/risotto-night.vtt")

        let replaced = try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--replace-model-results", "--quiet"], in: scratch.url)
        #expect(replaced.status == 0)
        #expect(try Data(contentsOf: out.appendingPathComponent("rocket-launch.srt"))
                == Data(contentsOf: scratch.url.appendingPathComponent("in/rocket-launch.srt")))
    }

    /// Earlier results are kept per action: a re-run with fewer `--actions`, or whose real model
    /// answers only in part (titles fine, keywords and emoji unusable), keeps the earlier emphasis
    /// and emoji in the caption file, takes the new titles, and says so per action.
    @Test func aRerunWithFewerActionsOrAPartialAnswerKeepsTheEarlierEmphasisAndEmoji() throws {
        let full = try ModelOptionsTests.answeringServer()
        defer { full.stop() }
        let partialAnswer = #"{"choices":[{"index":0,"message":{"role":"assistant","content":"{\"keywords\":[\"submarine\"],\"titles\":[\"Waiting For Launch\",\"Crew On Hold\",\"Rocket Countdown Paused\"],\"emoji\":\"no\"}"},"finish_reason":"stop"}]}"#
        let partial = try HTTPTestServer { request, _ in
            switch request.path {
            case "/v1/models": .respond(200, ModelOptionsTests.models)
            case "/v1/chat/completions": .respond(200, partialAnswer)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
        defer { partial.stop() }
        let scratch = try ScratchFolder()
        try Data(ModelOptionsTests.srt.utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        let first = try ExecutableRun.run(["a.srt", "-o", "out", "--quiet"] + Self.http(full), in: scratch.url)
        #expect(first.status == 0, "\(first.stderrText)")
        let out = scratch.url.appendingPathComponent("out")
        let caption = try Data(contentsOf: out.appendingPathComponent("a.srt"))
        #expect(String(decoding: caption, as: UTF8.self).contains("<b>rocket</b>") && String(decoding: caption, as: UTF8.self).contains("🚀"))

        func actions() throws -> [[String: Any]] {
            let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("a.srt.assistant.json"))) as? [String: Any]
            return try #require(sidecar?["actions"] as? [[String: Any]])
        }
        let fewer = try ExecutableRun.run(["a.srt", "-o", "out", "--actions", "titles"] + Self.http(full), in: scratch.url)
        #expect(fewer.status == 0, "\(fewer.stderrText)")
        #expect(try Data(contentsOf: out.appendingPathComponent("a.srt")) == caption, "the earlier emphasis and emoji are kept")
        var entries = try actions()
        #expect(entries.map { $0["source"] as? String } == ["earlier", nil, "earlier"])
        #expect(entries.map { $0["state"] as? String } == ["applied", "applied", "applied"])
        #expect((entries[0]["reason"] as? String)?.contains("--actions titles") == true)
        #expect(fewer.stderrText.contains("1 file written by this run kept results an earlier run's model gave (keywords in 1, emoji in 1)"), "\(fewer.stderrText)")
        #expect(fewer.stderrText.contains("2 kept from an earlier run"), "\(fewer.stderrText)")

        let part = try ExecutableRun.run(["a.srt", "-o", "out", "--json"] + Self.http(partial), in: scratch.url)
        #expect(part.status == 0, "\(part.stderrText)")
        let summary = try Self.json(part)
        #expect((summary["keptResults"] as? [[String: Any]])?.first?["actions"] as? [String] == ["keywords", "emoji"], "\(part.stdoutText)")
        #expect((summary["actions"] as? [String: Any])?["kept"] as? Int == 2)
        #expect(try Data(contentsOf: out.appendingPathComponent("a.srt")) == caption, "the earlier emphasis and emoji are kept")
        entries = try actions()
        #expect(entries.map { $0["source"] as? String } == ["earlier", nil, "earlier"])
        #expect(entries[1]["titles"] as? [String] == ["Waiting For Launch", "Crew On Hold", "Rocket Countdown Paused"])
        #expect(entries[0]["keywords"] as? [String] == ["rocket"] && entries[2]["emoji"] as? String == "🚀")
        #expect(part.stderrText.contains("kept results an earlier run's model gave (keywords in 1, emoji in 1)"), "\(part.stderrText)")
    }

    /// The fake model is a test double: its outputs are not kept. The README's order (the fake
    /// job into `out`, then the first command into `out`) writes every caption as it came.
    @Test func theFakesOutputsAreNotKeptOverTheFirstCommand() throws {
        let scratch = try ScratchFolder()
        try Self.samples(scratch)
        let fake = try ExecutableRun.run(["in", "-o", "out", "-test-fake-assistant", "--quiet"], in: scratch.url)
        #expect(fake.status == 0)
        let plain = try ExecutableRun.run(["in", "-o", "out"], in: scratch.url)
        #expect(plain.status == 0, "\(plain.stderrText)")
        #expect(!plain.stderrText.contains("kept"), "\(plain.stderrText)")
        for name in ["rocket-launch.srt", "risotto-night.vtt", "tide-pools.ttml"] {
            #expect(try Data(contentsOf: scratch.url.appendingPathComponent("out/" + name)) == Data(contentsOf: scratch.url.appendingPathComponent("in/" + name)),
                    "\(name) is written as it came")
        }
    }

    @Test func aCaptionWhoseSidecarCannotBeWrittenIsNotCountedAsWritten() throws {
        let scratch = try ScratchFolder()
        try Self.samples(scratch)
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("out/rocket-launch.srt.assistant.json"),
                                                withIntermediateDirectories: true)
        let run = try ExecutableRun.run(["in/rocket-launch.srt", "-o", "out"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderrText.contains("1 file not written:"), "\(run.stderrText)")
        #expect(run.stderrText.contains("1 file: 0 written, 1 failed"), "\(run.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.url.appendingPathComponent("out/report.json"))) as? [String: Any])
        let totals = report["totals"] as? [String: Any]
        #expect(totals?["failed"] as? Int == 1 && totals?["written"] as? Int == 0)
        let json = try Self.json(try ExecutableRun.run(["in/rocket-launch.srt", "-o", "out", "--json", "--quiet"], in: scratch.url))
        #expect(json["written"] as? Int == 0 && json["failed"] as? Int == 1 && json["exitStatus"] as? Int == 1)
    }

    /// The counts the review's index shows: `Actions applied` and so on.
    static func indexFigure(_ folder: URL, _ label: String) throws -> String? {
        let html = try String(contentsOf: folder.appendingPathComponent("review/index.html"), encoding: .utf8)
        guard let range = html.range(of: "<dt>\(label)</dt><dd>") else { return nil }
        return String(html[range.upperBound...].prefix { $0.isNumber })
    }

    /// A review is never left showing an older run as the current one: `process` and `merge`
    /// make it again from the new report.json, and say so; when it cannot be made again, its
    /// index pages and titles.csv are removed and a warning says why.
    @Test func theReviewIsMadeAgainByTheRunThatChangesTheReport() throws {
        let scratch = try ScratchFolder()
        try Self.samples(scratch)
        let out = scratch.url.appendingPathComponent("out")
        _ = try ExecutableRun.run(["in", "-o", "out", "-test-fake-assistant", "--quiet"], in: scratch.url)
        #expect(try ExecutableRun.run(["review", "out", "--quiet"], in: scratch.url).status == 0)
        #expect(try Self.indexFigure(out, "Actions applied") == "9")
        let titles = out.appendingPathComponent("review/titles.csv")
        #expect(FileManager.default.fileExists(atPath: titles.path))
        let again = try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--replace-model-results"], in: scratch.url)
        #expect(again.status == 0)
        #expect(again.stderrText.contains("; review updated: out/review/index.html"), "\(again.stderrText)")
        #expect(try Self.indexFigure(out, "Actions applied") == "0")
        #expect(try Self.indexFigure(out, "Actions disabled") == "9")
        let json = try Self.json(try ExecutableRun.run(["in", "-o", "out", "-test-fake-assistant", "--json"], in: scratch.url))
        #expect(json["index"] as? String == "out/review/index.html")
        #expect(try Self.indexFigure(out, "Actions applied") == "9")

        // Shards write no report.json; merge does, and makes the review again.
        for index in 0..<2 {
            _ = try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--replace-model-results", "--quiet", "--shard", "\(index)/2"],
                                      in: scratch.url)
        }
        let merge = try ExecutableRun.run(["merge", "out"], in: scratch.url)
        #expect(merge.status == 0 && merge.stderrText.contains("review updated"), "\(merge.stderrText)")
        #expect(try Self.indexFigure(out, "Actions applied") == "0")

        // A review that cannot be made again (its pages' folder is now a link) is not left as current.
        let pages = out.appendingPathComponent("review/files")
        try FileManager.default.removeItem(at: pages)
        try FileManager.default.createSymbolicLink(at: pages, withDestinationURL: scratch.url)
        let broken = try ExecutableRun.run(["in", "-o", "out", "-test-fake-assistant", "--quiet"], in: scratch.url)
        #expect(broken.status == 0)
        #expect(broken.stderrText.contains("showed an earlier run and could not be made again"), "\(broken.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("review/index.html").path))
        // Nor is its titles.csv, which lists the earlier run's titles.
        #expect(!FileManager.default.fileExists(atPath: titles.path))
        #expect(broken.stderrText.contains("its index pages and titles.csv were removed"), "\(broken.stderrText)")
    }
}
