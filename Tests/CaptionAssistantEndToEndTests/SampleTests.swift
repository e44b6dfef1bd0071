import Foundation
import Testing
import TestSupport

/// The README's samples: with the fake model every file gets all three
/// actions, and removing exactly our edits gives back the input; with each
/// forced reason every caption comes out byte-identical and every report
/// says why the actions are disabled.
@Suite(.mayBlock) struct SampleTests {
    static let samples = ExecutableRun.packageRoot.appendingPathComponent("Samples")
    static let reasons = ["deviceNotEligible", "appleIntelligenceNotEnabled", "modelNotReady", "unsupportedPlatform",
                          "serverUnreachable", "modelMissing", "unknown"]

    static var sampleFiles: [String] { filesUnder(samples) }

    func sidecar(_ folder: URL, _ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name + ".assistant.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The output with our edits taken out: bold tags or bold spans we added, and the appended emoji.
    func undoEdits(_ text: String, emoji: String, isTTML: Bool) -> (text: String, removed: Int) {
        var out = text
        var removed = 0
        if isTTML {
            let open = "<span tts:fontWeight=\"bold\">"
            while let start = out.range(of: open), let end = out.range(of: "</span>", range: start.upperBound..<out.endIndex) {
                let inner = out[start.upperBound..<end.lowerBound]
                out.replaceSubrange(start.lowerBound..<end.upperBound, with: String(inner))
                removed += 1
            }
        } else {
            removed = out.components(separatedBy: "<b>").count - 1
            out = out.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "")
        }
        if let r = out.range(of: " " + emoji, options: .backwards) { out.removeSubrange(r) }
        return (out, removed)
    }

    @Test func theSamplesAreShortRealCaptionFiles() {
        let files = Self.sampleFiles
        #expect(Set(files.map { ($0 as NSString).pathExtension }) == ["srt", "vtt", "ttml"])
    }

    @Test func fakeModelAppliesAllThreeActionsAndOurEditsAreTheOnlyChange() throws {
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["-test-fake-assistant", Self.samples.path, "-o", "out"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderrText)")
        let out = scratch.url.appendingPathComponent("out")
        for name in Self.sampleFiles {
            let report = try sidecar(out, name)
            let actions = try #require(report["actions"] as? [[String: Any]])
            #expect(actions.map { $0["id"] as? String } == ["keywordEmphasis", "titles", "emoji"])
            #expect(actions.allSatisfy { $0["state"] as? String == "applied" }, "\(name): \(actions)")
            #expect((actions[1]["titles"] as? [String])?.count == 3)
            let emoji = try #require(actions[2]["emoji"] as? String)
            let occurrences = try #require(actions[0]["occurrences"] as? Int)
            #expect(occurrences > 0)

            let input = try String(contentsOf: Self.samples.appendingPathComponent(name), encoding: .utf8)
            let output = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            #expect(output != input)
            let undone = undoEdits(output, emoji: emoji, isTTML: name.hasSuffix(".ttml"))
            #expect(undone.text == input, "\(name): removing our edits does not give back the input")
            #expect(undone.removed == occurrences)
        }
    }

    @Test(arguments: reasons)
    func forcedReasonLeavesCaptionsByteIdenticalAndSaysWhy(reason: String) throws {
        let scratch = try ScratchFolder()
        let run = try ExecutableRun.run(["-test-fake-assistant", "--simulate-availability", reason, Self.samples.path, "-o", "out"],
                                        in: scratch.url)
        #expect(run.status == 0, "\(run.stderrText)")
        let out = scratch.url.appendingPathComponent("out")
        var rows: Set<String> = []
        for name in Self.sampleFiles {
            let input = try Data(contentsOf: Self.samples.appendingPathComponent(name))
            #expect(try Data(contentsOf: out.appendingPathComponent(name)) == input, "\(name) changed under \(reason)")
            let report = try sidecar(out, name)
            let actions = try #require(report["actions"] as? [[String: Any]])
            #expect(actions.count == 3)
            #expect(actions.allSatisfy { $0["state"] as? String == "disabled" })
            let model = try #require(report["model"] as? [String: Any])
            #expect(model["availability"] as? String == "unavailable")
            #expect(model["reason"] as? String == reason)
            #expect((model["remedy"] as? String)?.isEmpty == false)
            #expect(["permanent", "userFixable", "temporary"].contains(model["permanence"] as? String ?? ""))
            #expect(model["offersSettings"] as? Bool == (reason == "appleIntelligenceNotEnabled"))
            let row = try #require(report["reasonRow"] as? String)
            #expect(!row.trimmingCharacters(in: .whitespaces).isEmpty)
            rows.insert(row)
        }
        #expect(rows.count == 1)
    }
}
