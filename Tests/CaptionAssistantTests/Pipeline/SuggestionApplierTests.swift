import Assistant
import Captions
import Foundation
import Testing
import TestSupport
@testable import CaptionAssistant

@Suite struct SuggestionApplierTests {
    @Test func keywordsNotInPlainTextAreDroppedAndReported() async throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\n<b>Orbit</b> and the rocket\n"
        let answer = #"{"keywords": ["orbit", "rocket", "submarine"], "titles": ["Alpha title", "Beta title", "Gamma title"], "emoji": "🚀"}"#
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
        let answer = #"{"keywords": ["orbit"], "titles": ["Alpha title", "Beta title", "Gamma title"], "emoji": "🚀"}"#
        let outcome = await FileProcessor(configuration: fakeConfiguration(model: ScriptedAssistantModel(answers: [answer])))
            .process(Array(srt.utf8), input: "a.srt", hint: .srt) { _ in "a.srt" }
        #expect(outcome.report.actions.map(\.state) == [.failed, .applied, .applied])
        #expect(outcome.report.actions[0].reason?.contains("whole word") == true)
    }
}
