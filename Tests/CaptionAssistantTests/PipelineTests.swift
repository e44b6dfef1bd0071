import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

let sampleSRT = """
1
00:00:01,000 --> 00:00:03,000
The rocket is on the pad.

2
00:00:03,500 --> 00:00:06,000
<i>Launch</i> control: the rocket
is ready for launch.

"""

func fakeConfiguration(_ availability: Availability = .available, model: any AssistantModel = FakeAssistantModel(),
                       maxCharacters: Int = 3000, convertTo: CaptionFormat? = nil) -> PipelineConfiguration {
    let service = AssistantService(backendName: "fake", model: model, availability: FixedAvailability(availability),
                                   options: AssistantOptions(maxCharacters: maxCharacters, maxAttempts: 1))
    return PipelineConfiguration(backend: "fake", source: service, convertTo: convertTo)
}

@Suite struct TranscriptTests {
    @Test func oneCuePerLineWithoutMarkup() throws {
        let document = try CaptionDocument.read(Data(sampleSRT.utf8), hint: .srt)
        #expect(Transcript.text(of: document) == "The rocket is on the pad.\nLaunch control: the rocket is ready for launch.")
    }
}

@Suite struct FileProcessorTests {
    func process(_ text: String, _ configuration: PipelineConfiguration) async -> FileProcessor.Outcome {
        await FileProcessor(configuration: configuration).process(Array(text.utf8), input: "in/a.srt", hint: .srt) { _ in "a.srt" }
    }

    @Test func fakeModelEmphasisesAndAppendsTheEmoji() async throws {
        let outcome = await process(sampleSRT, fakeConfiguration())
        let caption = try #require(outcome.caption)
        #expect(String(decoding: caption, as: UTF8.self) == """
        1
        00:00:01,000 --> 00:00:03,000
        The <b>rocket</b> is on the pad.

        2
        00:00:03,500 --> 00:00:06,000
        <i><b>Launch</b></i> control: the <b>rocket</b>
        is ready for <b>launch</b>. 🎬

        """)
        #expect(outcome.report.actions.map(\.state) == [.applied, .applied, .applied])
        #expect(outcome.report.reasonRow == nil && outcome.report.error == nil)
        #expect(outcome.report.cues == 2)
    }

    @Test(arguments: [UnavailableReason.deviceNotEligible, .modelNotReady, .unsupportedPlatform, .unknown("new")])
    func unavailableLeavesTheBytesAndDisablesEverything(reason: UnavailableReason) async throws {
        let crlf = "\u{FEFF}" + sampleSRT.replacingOccurrences(of: "\n", with: "\r\n")
        let outcome = await process(crlf, fakeConfiguration(.unavailable(reason)))
        #expect(outcome.caption == Data(crlf.utf8))
        #expect(outcome.report.actions.map(\.state) == [.disabled, .disabled, .disabled])
        #expect(outcome.report.reasonRow == Diagnostics(reason).reasonRow)
        guard case .unavailable(let info)? = outcome.report.model.availability else { Issue.record("not unavailable"); return }
        #expect(info.reason == reason)
    }

    @Test func aFailingModelKeepsTheRealErrorAndTheCaptions() async throws {
        let model = FailingAssistantModel(error: AssistantError.failed("socket closed by peer"))
        let outcome = await process(sampleSRT, fakeConfiguration(model: model))
        #expect(outcome.caption == Data(sampleSRT.utf8))
        #expect(outcome.report.actions.map(\.state) == [.failed, .failed, .failed])
        #expect(outcome.report.error == "socket closed by peer")
        #expect(outcome.report.reasonRow == FileProcessor.modelFailedRow)
    }

    @Test func theCapIsReported() async throws {
        let outcome = await process(sampleSRT, fakeConfiguration(maxCharacters: 10))
        #expect(outcome.report.transcript == TranscriptStats(characters: 73, sentCharacters: 10, truncated: true))
    }

    @Test func windows1252CannotHoldTheEmoji() async throws {
        var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\nLe caf".utf8) + [0xE9] + Array(" du matin, le matin.\n".utf8)
        bytes += []
        let outcome = await FileProcessor(configuration: fakeConfiguration()).process(bytes, input: "x", hint: .srt) { _ in "x" }
        #expect(outcome.report.actions.map(\.state) == [.applied, .applied, .failed])
        #expect(outcome.report.actions[2].reason?.contains("Windows-1252") == true)
        let caption = try #require(outcome.caption)
        #expect(Array(caption) == Array("1\n00:00:01,000 --> 00:00:02,000\nLe caf".utf8) + [0xE9] + Array(" du <b>matin</b>, le <b>matin</b>.\n".utf8))
    }

    @Test func unreadableInputHasAnEntryWithTheError() async {
        let outcome = await process("", fakeConfiguration())
        #expect(outcome.caption == nil)
        #expect(outcome.report.output == nil)
        #expect(outcome.report.error?.isEmpty == false)
        #expect(outcome.report.actions.count == 3)
    }
}

@Suite struct BatchRunnerTests {
    @Test func aBadFileDoesNotStopTheRestAndOrderIsStable() async throws {
        let dir = try TemporaryFolder()
        for i in 0..<12 { try dir.write("in/s\(i % 3)/ep\(i).srt", sampleSRT) }
        try dir.write("in/s1/broken.srt", "")
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        var reports: [String] = []
        for jobs in [1, 4] {
            try? FileManager.default.removeItem(atPath: dir.path + "/out")
            let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"), jobs: jobs)
            let result = await runner.run(plan)
            #expect(result.report.files.count == 13)
            #expect(result.report.totals.written == 12)
            #expect(result.report.totals.failed == 1)
            reports.append(try String(contentsOfFile: dir.path + "/out/report.json", encoding: .utf8))
            #expect(FileManager.default.fileExists(atPath: dir.path + "/out/s1/broken.srt.assistant.json"))
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/out/s1/broken.srt"))
            #expect(FileManager.default.fileExists(atPath: dir.path + "/out/s2/ep11.srt"))
        }
        #expect(reports[0] == reports[1])
        // Inputs are untouched.
        #expect(try String(contentsOfFile: dir.path + "/in/s0/ep0.srt", encoding: .utf8) == sampleSRT)
    }
}

@Suite struct SuggestionApplierTests {
    @Test func keywordsNotInPlainTextAreDroppedAndReported() async throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\n<b>Orbit</b> and the rocket\n"
        let answer = #"{"keywords": ["orbit", "rocket", "submarine"], "titles": ["A", "B", "C"], "emoji": "🚀"}"#
        let outcome = await FileProcessor(configuration: fakeConfiguration(model: ScriptedAssistantModel(answers: [answer])))
            .process(Array(srt.utf8), input: "a.srt", hint: .srt) { _ in "a.srt" }
        let caption = try #require(outcome.caption)
        #expect(String(decoding: caption, as: UTF8.self) == "1\n00:00:01,000 --> 00:00:02,000\n<b>Orbit</b> and the <b>rocket</b> 🚀\n")
        let action = outcome.report.actions[0]
        #expect(action.state == .applied)
        let json = action.json
        #expect(json["keywords"] == .strings(["rocket"]))
        #expect(json["occurrences"] == .int(1))
        guard case .array(let dropped)? = json["dropped"] else { Issue.record("no dropped list"); return }
        let names = dropped.compactMap { entry -> String? in if case .string(let s)? = entry["keyword"] { return s }; return nil }
        #expect(Set(names) == ["orbit", "submarine"])
        #expect(dropped.allSatisfy { if case .string(let r)? = $0["reason"] { return !r.isEmpty }; return false })
    }

    @Test func noKeywordInPlainTextFailsTheActionButNotTheOthers() async throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\n<b>Orbit</b> now\n"
        let answer = #"{"keywords": ["orbit"], "titles": ["A", "B", "C"], "emoji": "🚀"}"#
        let outcome = await FileProcessor(configuration: fakeConfiguration(model: ScriptedAssistantModel(answers: [answer])))
            .process(Array(srt.utf8), input: "a.srt", hint: .srt) { _ in "a.srt" }
        #expect(outcome.report.actions.map(\.state) == [.failed, .applied, .applied])
        #expect(outcome.report.actions[0].reason?.contains("whole word") == true)
    }
}
