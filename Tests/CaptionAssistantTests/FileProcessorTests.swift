import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

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
        #expect(info.reason == Diagnostics(reason).name)
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
