import Foundation
import Testing
import TestSupport

/// What a run says where the user looks: which files were written without
/// all their actions and why (the summary and `--json`), each file's titles
/// and emoji (`-v`), and `--from`.
@Suite(.mayBlock) struct ResultsShownTests {
    /// An SRT file in Windows-1252 (`Café`): its emoji action fails, the other two apply.
    static let windows1252 = Data("1\r\n00:00:01,000 --> 00:00:02,000\r\nCaf".utf8) + Data([0xE9])
        + Data(" rocket launch rocket\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nThe rocket launch is near\r\n".utf8)
    /// A WebVTT cue list without its WEBVTT line.
    static let headless = Data("00:00:01.000 --> 00:00:02.000\nHello rocket launch\n\n00:00:03.000 --> 00:00:04.000\nrocket again\n".utf8)
    static let emojiReason = "emoji failed: the file is written in Windows-1252, which cannot hold 🎬, so the captions were left without it; --encoding utf-8 writes it in UTF-8, which can (the report lists the change)"

    @Test func theSummaryNamesEachFileWithAnActionNotAppliedAndWhy() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try Self.windows1252.write(to: input.appendingPathComponent("cafe.srt"))
        try Data("1\n00:00:01,000 --> 00:00:02,000\nRocket launch today\n".utf8).write(to: input.appendingPathComponent("ok.srt"))
        let run = try ExecutableRun.run(["in", "-o", "out", "-test-fake-assistant"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.stderrText.contains("""
            caption-assistant: 1 file written without all its actions:
              in/cafe.srt: \(Self.emojiReason)
              to see every file: caption-assistant review out
            caption-assistant: 2 files: 2 written, 0 failed; actions: 5 applied, 1 failed, 0 disabled
            """), "\(run.stderrText)")
        #expect(!run.stderrText.contains("ok.srt"))
        // --json carries the same failure, not only its count.
        let json = try ExecutableRun.run(["in", "-o", "out2", "-test-fake-assistant", "--json"], in: scratch.url)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["notAppliedFiles"] as? Int == 1)
        let files = try #require(object["notApplied"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect(files.first?["input"] as? String == "in/cafe.srt")
        let actions = try #require(files.first?["actions"] as? [[String: Any]])
        #expect(actions.count == 1)
        #expect(actions.first?["id"] as? String == "emoji")
        #expect(actions.first?["state"] as? String == "failed")
        #expect((actions.first?["reason"] as? String)?.hasPrefix("the file is written in Windows-1252") == true)
        #expect(object["wallMilliseconds"] == nil, "the fake model records no cost, so no time is given")
    }

    @Test func withNoModelEachFileSaysWhyAndTheRemedyIsGivenOnceAndTheListIsCut() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for i in 1...23 {
            try Data("1\n00:00:01,000 --> 00:00:02,000\nLine \(i)\n".utf8).write(to: input.appendingPathComponent(String(format: "ep%02d.srt", i)))
        }
        let run = try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--jobs", "4"], in: scratch.url)
        #expect(run.status == 0)
        let lines = run.stderrText.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "caption-assistant: 23 files written without all their actions:"), "\(run.stderrText)")
        let listed = Array(lines[(heading + 1)...].prefix(22))
        // The first 20 in plan order, whatever order they finished in; the remedy beside the first only.
        #expect(listed.prefix(20).map { String($0.prefix(11)) } == (1...20).map { String(format: "  in/ep%02d.s", $0) })
        #expect(listed[0].contains("keywords, titles and emoji disabled: ") && listed[0].contains("(remedy: "))
        #expect(listed[1...19].allSatisfy { $0.contains(" disabled: ") && !$0.contains("remedy") })
        #expect(listed[20] == "  and 3 more: out/report.json")
        #expect(listed[21] == "  to see every file: caption-assistant review out")
        // --quiet says none of it.
        let quiet = try ExecutableRun.run(["in", "-o", "out", "--model", "none", "--quiet"], in: scratch.url)
        #expect(quiet.stderrText.isEmpty, "\(quiet.stderrText)")
    }

    @Test func verboseSaysEachFilesTitlesAndEmoji() throws {
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nRocket launch today\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        let run = try ExecutableRun.run(["a.srt", "-o", "out", "-test-fake-assistant", "-v"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.stderrText.hasPrefix("caption-assistant: a.srt: 🎬 \"Highlights from the captions\" | \"What this video covers\" | \"The story in brief\"\n"),
                "\(run.stderrText)")
        let plain = try ExecutableRun.run(["a.srt", "-o", "out2", "-test-fake-assistant"], in: scratch.url)
        #expect(!plain.stderrText.contains("Highlights"))
    }

    @Test func fromReadsAFileAsTheFormatNamedAndTheErrorSaysSo() throws {
        let scratch = try ScratchFolder()
        try Self.headless.write(to: scratch.url.appendingPathComponent("talk.vtt"))
        let refused = try ExecutableRun.run(["talk.vtt", "-o", "out", "-test-fake-assistant"], in: scratch.url)
        #expect(refused.status == 1)
        #expect(refused.stderrText.contains("a WebVTT file must begin with the line 'WEBVTT'; add it, or read this file as another format (--from srt reads it as SRT, whatever its extension)"),
                "\(refused.stderrText)")
        let read = try ExecutableRun.run(["talk.vtt", "-o", "out", "-test-fake-assistant", "--from", "SRT"], in: scratch.url)
        #expect(read.status == 0, "\(read.stderrText)")
        let caption = try String(contentsOf: scratch.url.appendingPathComponent("out/talk.vtt"), encoding: .utf8)
        #expect(caption.contains("Hello <b>rocket</b> launch"), "\(caption)")
        let sidecar = try String(contentsOf: scratch.url.appendingPathComponent("out/talk.vtt.assistant.json"), encoding: .utf8)
        #expect(sidecar.contains("\"format\": \"srt\""))
        #expect(sidecar.contains("\"from\": \"srt\""), "--resume must not take an output read as another format for this one")
        // The review reads the output as the format it was written in, not as its name says.
        let review = try ExecutableRun.run(["review", "out"], in: scratch.url)
        #expect(review.status == 0)
        let page = try String(contentsOf: scratch.url.appendingPathComponent("out/review/files/00001.html"), encoding: .utf8)
        #expect(!page.contains("could not be read"), "\(page)")
        #expect(page.contains("rocket"))
        let bad = try ExecutableRun.run(["talk.vtt", "-o", "out", "--from", "docx"], in: scratch.url)
        #expect(bad.status == 64)
    }
}
