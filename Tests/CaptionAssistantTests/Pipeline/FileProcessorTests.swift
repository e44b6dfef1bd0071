import Assistant
import Captions
import Foundation
import Testing
import TestSupport
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
        // The reason names the way out, in the library's words (the command line spells it `--encoding utf-8`).
        #expect(outcome.report.actions[2].reason?.contains("`outputEncoding` utf-8 writes it in UTF-8") == true)
        #expect(outcome.report.losses.isEmpty && outcome.report.json["losses"] == nil)
        let caption = try #require(outcome.caption)
        #expect(Array(caption) == Array("1\n00:00:01,000 --> 00:00:02,000\nLe caf".utf8) + [0xE9] + Array(" du <b>matin</b>, le <b>matin</b>.\n".utf8))
    }

    @Test func encodingUTF8WritesTheEmojiAndListsTheChange() async throws {
        let bytes = Array("1\n00:00:01,000 --> 00:00:02,000\nLe caf".utf8) + [0xE9] + Array(" du matin, le matin.\n".utf8)
        var configuration = fakeConfiguration()
        configuration.writeOptions.encoding = .utf8
        configuration.settings.writeOptions.encoding = .utf8
        let outcome = await FileProcessor(configuration: configuration).process(bytes, input: "x", hint: .srt) { _ in "x" }
        #expect(outcome.report.actions.map(\.state) == [.applied, .applied, .applied])
        #expect(outcome.caption == Data("1\n00:00:01,000 --> 00:00:02,000\nLe café du <b>matin</b>, le <b>matin</b>. 🎬\n".utf8))
        #expect(outcome.report.losses == ["the text encoding was changed: written in UTF-8, the input was in Windows-1252"])
        // The sidecar lists it without --to, and reads back (for --resume) with it and the option.
        let json = outcome.report.json
        #expect(json["losses"] == .strings(outcome.report.losses))
        let again = try FileReport(reportJSON: json)
        #expect(again.losses == outcome.report.losses)
        #expect(again.fingerprint.settings.writeOptions == WriteOptions(encoding: .utf8))
    }

    @Test func languageIsDeclaredWhereTheInputHasNone() async throws {
        var configuration = fakeConfiguration()
        configuration.writeOptions.language = "en-GB"
        configuration.settings.writeOptions.language = "en-GB"
        let vtt = "WEBVTT\n\n00:01.000 --> 00:03.000\nThe rocket is on the pad, the rocket.\n"
        let outcome = await FileProcessor(configuration: configuration).process(Array(vtt.utf8), input: "x", hint: .vtt) { _ in "x" }
        #expect(outcome.caption == Data("WEBVTT\nLanguage: en-GB\n\n00:01.000 --> 00:03.000\nThe <b>rocket</b> is on the pad, the <b>rocket</b>. 🎬\n".utf8))
        // The model being unavailable changes no cue, but the language is still declared.
        let off = await FileProcessor(configuration: {
            var c = fakeConfiguration(.unavailable(.modelTurnedOff)); c.writeOptions.language = "en-GB"; return c
        }()).process(Array(vtt.utf8), input: "x", hint: .vtt) { _ in "x" }
        #expect(off.caption == Data("WEBVTT\nLanguage: en-GB\n\n00:01.000 --> 00:03.000\nThe rocket is on the pad, the rocket.\n".utf8))
        let settings = try FileReport(reportJSON: outcome.report.json).fingerprint.settings
        #expect(settings.writeOptions.language == "en-GB")
    }

    @Test func unreadableInputHasAnEntryWithTheError() async {
        let outcome = await process("", fakeConfiguration())
        #expect(outcome.caption == nil)
        #expect(outcome.report.output == nil)
        #expect(outcome.report.error?.isEmpty == false)
        #expect(outcome.report.actions.count == 3)
    }

    /// A keyword all of whose occurrences the cap left plain is still one
    /// the captions hold: it is listed, not dropped as not found.
    @Test func theReportCountsWhatWasLeftAndListsKeywordsFoundButLeftPlain() async throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\nrocket launch, rocket launch\n\n2\n00:00:03,000 --> 00:00:04,000\nrocket launch\n"
        let answer = #"{"keywords": ["rocket", "launch"], "titles": ["First title", "Second title", "Third title"], "emoji": "🚀"}"#
        var configuration = fakeConfiguration(model: ScriptedAssistantModel(answers: [answer]))
        configuration.settings.emphasis = EmphasisDensity(perCue: 1)
        let outcome = await FileProcessor(configuration: configuration).process(Array(srt.utf8), input: "a.srt", hint: .srt) { _ in "a.srt" }
        let action = outcome.report.actions[0]
        #expect(action.keywords == ["rocket", "launch"])
        #expect(action.occurrences == 2 && action.occurrencesLeft == 4)
        #expect(action.dropped == [])
        #expect(String(decoding: try #require(outcome.caption), as: UTF8.self)
                == "1\n00:00:01,000 --> 00:00:02,000\n<b>rocket</b> launch, rocket launch\n\n2\n00:00:03,000 --> 00:00:04,000\n<b>rocket</b> launch 🚀\n")
        let totals = try BatchReport.Totals([outcome.report])
        #expect(totals.keywordOccurrences == 2 && totals.keywordOccurrencesLeft == 4)
        // Every occurrence emphasised: no count of those left, in the action or the totals.
        let all = await FileProcessor(configuration: fakeConfiguration(model: ScriptedAssistantModel(answers: [answer])))
            .process(Array(srt.utf8), input: "a.srt", hint: .srt) { _ in "a.srt" }
        #expect(all.report.actions[0].occurrencesLeft == nil)
        #expect(try BatchReport.Totals([all.report]).keywordOccurrencesLeft == nil)
    }
}
