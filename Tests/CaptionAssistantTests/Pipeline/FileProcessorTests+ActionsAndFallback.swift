import Assistant
import Captions
import Foundation
import Testing
import TestSupport
@testable import CaptionAssistant

/// `--actions` (what is asked for) and `--fallback local` (content from the
/// transcript when no model answers), as the pipeline applies and reports them.
@Suite struct ActionsAndFallbackTests {
    static let srt = """
        1
        00:00:01,000 --> 00:00:03,000
        The humpback whales return every spring.

        2
        00:00:03,500 --> 00:00:06,000
        Whales feed on krill near the surface, and krill swarm in spring.

        3
        00:00:06,500 --> 00:00:09,000
        Scientists follow the whales by boat to record whales singing.

        """
    static let answer = #"{"keywords": ["krill"], "titles": ["First title", "Second title", "Third title"], "emoji": "🚀"}"#

    func run(_ configuration: PipelineConfiguration, _ text: String = srt) async -> FileProcessor.Outcome {
        await FileProcessor(configuration: configuration).process(Array(text.utf8), input: "w.srt", hint: .srt) { _ in "w.srt" }
    }

    func configuration(_ availability: Availability = .available, model: any AssistantModel = FakeAssistantModel(),
                       actions: [AssistantAction] = AssistantAction.allCases, fallback: FallbackKind? = nil) -> PipelineConfiguration {
        var c = fakeConfiguration(availability, model: model)
        c.settings.actions = actions
        c.settings.fallback = fallback
        return c
    }

    // MARK: --actions

    @Test func anActionNotAskedForIsNeitherAppliedNorRecordedAsTheModels() async throws {
        let outcome = await run(configuration(model: ScriptedAssistantModel(answers: [Self.answer]), actions: [.titles]))
        let actions = outcome.report.actions
        #expect(actions.map(\.state) == [.notRequested, .applied, .notRequested])
        #expect(actions[0].reason == "not requested: this run asks only for titles (`actions` titles)")
        #expect(actions[0].keywords == nil && actions[2].emoji == nil)
        #expect(actions[1].titles == ["First title", "Second title", "Third title"])
        // The captions are the input's: no bold, no emoji.
        #expect(outcome.bytes == Array(Self.srt.utf8))
        #expect(outcome.report.reasonRow == nil)
        let totals = try BatchReport.Totals([outcome.report])
        #expect(totals.actions.notRequested == 2 && totals.actions.applied == 1)
        #expect(totals.actions.summary == "1 applied, 0 failed, 0 disabled, 2 not requested")
    }

    @Test func withNoModelTheActionsAskedForAreDisabledAndTheOthersNotRequested() async {
        let outcome = await run(configuration(.unavailable(.modelTurnedOff), actions: [.keywords, .emoji]))
        #expect(outcome.report.actions.map(\.state) == [.disabled, .notRequested, .disabled])
        #expect(outcome.report.actions[1].reason == "not requested: this run asks only for keywords and emoji (`actions` keywords,emoji)")
        #expect(outcome.report.reasonRow == Diagnostics(.modelTurnedOff).reasonRow)
    }

    /// A file that could not be read (or was refused, or never started) fails
    /// only the actions asked for; the others are not requested there too.
    @Test func aFileNotProcessedFailsOnlyTheActionsAskedFor() async {
        let c = configuration(actions: [.emoji])
        let unreadable = await run(c, "not a caption file")
        #expect(unreadable.report.actions.map(\.state) == [.notRequested, .notRequested, .failed])
        #expect(unreadable.report.actions[2].reason == "the caption file could not be read")
        let processor = FileProcessor(configuration: c)
        #expect(processor.refusal(input: "x", error: "no").actions.map(\.state) == [.notRequested, .notRequested, .failed])
        #expect(processor.notProcessed(input: "x").actions.map(\.state) == [.notRequested, .notRequested, .failed])
    }

    @Test func theReasonSpellsTheSettingAsTheFrontEndDoes() {
        var names = SettingNames()
        names.names[.actions] = "--actions"
        #expect(FileProcessor.notRequestedReason([.keywords, .titles], names)
                == "not requested: this run asks only for keywords and titles (--actions keywords,titles)")
    }

    // MARK: --fallback local

    @Test func withNoModelTheFallbackGivesEveryActionAndTheModelsStateStaysAsItWas() async throws {
        let plain = await run(configuration(.unavailable(.modelTurnedOff)))
        let outcome = await run(configuration(.unavailable(.modelTurnedOff), fallback: .local))
        let report = outcome.report
        #expect(report.actions.map(\.state) == [.applied, .applied, .applied])
        #expect(report.actions.allSatisfy { $0.source == .fallback && $0.reason == nil })
        #expect(report.actions[0].keywords?.first == "whales")
        #expect(report.actions[1].titles?.count == 3)
        #expect(report.actions[2].emoji == "🐋" && report.actions[2].cue == 3)
        // The model's state, its reason row and the transcript are recorded exactly as without the fallback.
        #expect(report.model == plain.report.model)
        #expect(report.reasonRow == plain.report.reasonRow && report.error == nil && report.transcript == nil)
        let caption = String(decoding: try #require(outcome.caption), as: UTF8.self)
        #expect(caption.contains("The humpback <b>whales</b> return") && caption.hasSuffix("record <b>whales</b> singing. 🐋\n"))
        let totals = try BatchReport.Totals([report])
        #expect(totals.actions.fallback == 3 && totals.actions.applied == 0 && totals.modelUnavailable == 1)
        guard case .array(let written)? = report.json["actions"] else { Issue.record("no actions"); return }
        #expect(written.allSatisfy { $0["source"] == .string("fallback") })
    }

    @Test func aFailedModelKeepsItsErrorAndTheFallbackSaysWhyItWasUsed() async throws {
        let failing = FailingAssistantModel(error: AssistantError.failed("HTTP 500: boom"))
        let outcome = await run(configuration(model: failing, fallback: .local))
        let report = outcome.report
        #expect(report.error == "HTTP 500: boom")
        #expect(report.reasonRow == FileProcessor.modelFailedRow)
        #expect(report.actions.map(\.state) == [.applied, .applied, .applied])
        #expect(report.actions.allSatisfy { $0.source == .fallback && $0.reason == "HTTP 500: boom" })
    }

    @Test func onlyTheFieldTheModelGotWrongComesFromTheFallback() async throws {
        let badEmoji = #"{"keywords": ["krill"], "titles": ["First title", "Second title", "Third title"], "emoji": "not an emoji"}"#
        let model = ScriptedAssistantModel(answers: [badEmoji])
        let outcome = await run(configuration(model: model, fallback: .local))
        let actions = outcome.report.actions
        #expect(actions[0].source == .model && actions[0].keywords == ["krill"])
        #expect(actions[1].source == .model)
        #expect(actions[2].source == .fallback && actions[2].state == .applied && actions[2].emoji == "🐋")
        #expect(actions[2].reason?.isEmpty == false)
        #expect(outcome.report.error == nil)
        // Keywords the model gave that the captions do not hold: the fallback's instead, the model's dropped kept.
        let absent = #"{"keywords": ["submarine"], "titles": ["First title", "Second title", "Third title"], "emoji": "🚀"}"#
        let second = await run(configuration(model: ScriptedAssistantModel(answers: [absent]), fallback: .local))
        #expect(second.report.actions[0].source == .fallback && second.report.actions[0].state == .applied)
        #expect(second.report.actions[0].reason?.isEmpty == false)
        #expect(second.report.actions[0].dropped?.map(\.keyword) == ["submarine"])
    }

    @Test func anActionNotAskedForGetsNoFallbackEither() async {
        let outcome = await run(configuration(.unavailable(.modelTurnedOff), actions: [.titles], fallback: .local))
        #expect(outcome.report.actions.map(\.state) == [.notRequested, .applied, .notRequested])
        #expect(outcome.bytes == Array(Self.srt.utf8))
    }

    @Test func whatTheFallbackCannotGiveFailsWithItsReason() async {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nHello everyone.\n"
        let outcome = await run(configuration(.unavailable(.modelTurnedOff), fallback: .local), text)
        #expect(outcome.report.actions.map(\.state) == [.failed, .failed, .failed])
        #expect(outcome.report.actions.allSatisfy { $0.source == .fallback && $0.reason?.hasPrefix("the fallback: ") == true })
        #expect(outcome.bytes == Array(text.utf8))
    }

    /// The fallback's emoji is held to the same rule as the model's: a file
    /// kept in Windows-1252 cannot hold it, and says so.
    @Test func theFallbacksEmojiMustFitTheEncodingToo() async throws {
        let latin1 = Array(Self.srt.replacingOccurrences(of: "humpback", with: "humpbäck").data(using: .windowsCP1252) ?? Data())
        let outcome = await FileProcessor(configuration: configuration(.unavailable(.modelTurnedOff), fallback: .local))
            .process(latin1, input: "w.srt", hint: .srt) { _ in "w.srt" }
        let emoji = outcome.report.actions[2]
        #expect(emoji.state == .failed && emoji.source == .fallback)
        #expect(emoji.reason?.contains("Windows-1252") == true)
        #expect(outcome.report.actions[0].state == .applied)
    }

    /// Every transcript of the model bench (seven languages) gets content:
    /// keywords the captions hold, three titles within the bounds, and an emoji
    /// wherever CLDR annotates one of its words.
    @Test func everyBenchTranscriptGetsContent() async throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/model-bench/transcripts")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".srt") }.sorted()
        #expect(names.count >= 20)
        var emoji = 0, titles = 0
        for name in names {
            let bytes = try Array(Data(contentsOf: folder.appendingPathComponent(name)))
            let outcome = await FileProcessor(configuration: configuration(.unavailable(.modelTurnedOff), fallback: .local))
                .process(bytes, input: name, hint: .srt) { _ in name }
            let actions = outcome.report.actions
            #expect(actions[0].state == .applied, "\(name): \(actions[0].reason ?? "")")
            if let t = actions[1].titles {
                titles += 1
                #expect(t.count == 3 && Set(t).count == 3 && t.allSatisfy { LocalFallback.titleLength.contains($0.count) }, "\(name): \(t)")
            }
            if actions[2].state == .applied { emoji += 1 }
        }
        // Short ones (a greeting, a song) may give too little for titles or an emoji; most do not.
        #expect(titles >= names.count - 3, "titles for \(titles) of \(names.count)")
        #expect(emoji >= names.count / 2, "an emoji for \(emoji) of \(names.count)")
    }
}
