import Foundation
import Testing
@testable import Assistant

@Suite struct DiagnosticsTests {
    static let allReasons: [UnavailableReason] = [
        .deviceNotEligible, .appleIntelligenceNotEnabled, .modelNotReady,
        .unsupportedPlatform, .serverUnreachable, .modelMissing, .unknown("Model assets were deleted"),
    ]

    @Test(arguments: allReasons)
    func everyReasonHasARowAndARemedy(reason: UnavailableReason) {
        let diagnostics = Diagnostics(reason)
        #expect(!diagnostics.reasonRow.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(diagnostics.remedy.count > 40, "a remedy is a sentence, not a word")
        #expect(diagnostics.remedy.hasSuffix("."))
        #expect(!diagnostics.name.isEmpty)
    }

    @Test func rowsRemediesAndNamesAreDistinct() {
        let all = Self.allReasons.map { Diagnostics($0) }
        #expect(Set(all.map(\.reasonRow)).count == all.count)
        #expect(Set(all.map(\.remedy)).count == all.count)
        #expect(Set(all.map(\.name)).count == all.count)
    }

    @Test func permanenceFollowsWhatThePersonCanDo() {
        let permanence = Dictionary(uniqueKeysWithValues: Self.allReasons.map { ($0.name, Diagnostics($0).permanence) })
        #expect(permanence == [
            "deviceNotEligible": .permanent,
            "appleIntelligenceNotEnabled": .userFixable,
            "modelNotReady": .temporary,
            "unsupportedPlatform": .permanent,
            "serverUnreachable": .userFixable,
            "modelMissing": .userFixable,
            "unknown": .permanent,
        ])
    }

    @Test func settingsAreOfferedOnlyWhenAppleIntelligenceIsOff() {
        let offering = Self.allReasons.filter { Diagnostics($0).offersSettings }
        #expect(offering == [.appleIntelligenceNotEnabled])
        #expect(Diagnostics(.appleIntelligenceNotEnabled).remedy.contains("Settings → Apple Intelligence & Siri"))
    }

    @Test func unsupportedPlatformPointsToTheWaysForward() {
        let remedy = Diagnostics(.unsupportedPlatform).remedy
        #expect(remedy.contains("Linux"))
        #expect(remedy.contains("`endpoint`"))
        #expect(remedy.contains("`fakeModel`"))
    }

    /// The remedies name settings in the library's terms; a front end's
    /// spellings (here an app's words) are used wherever one is named.
    @Test func remediesSpellSettingsAsTheFrontEndSays() {
        var context = DiagnosticsContext()
        context.settingNames = SettingNames(names: [.endpoint: "Server address", .fakeModel: "Demo model"],
                                            placeholders: [.endpoint: "(in Settings)"])
        let remedy = Diagnostics(.unsupportedPlatform, context: context).remedy
        #expect(remedy.contains("Use Server address (in Settings) to reach a local OpenAI-compatible server (llama.cpp, Ollama, vLLM), or Demo model for the deterministic test model."))
        #expect(!remedy.contains("`"))
        let off = Diagnostics(.modelTurnedOff, context: context)
        #expect(off.reasonRow == "No model was chosen (`backend` none)")
    }

    /// Every reason's words, with every setting spelled by a front end that
    /// names them all, hold no setting in the library's own spelling.
    @Test(arguments: allReasons)
    func everySettingNamedIsSpelledByTheFrontEnd(_ reason: UnavailableReason) {
        var names: [AssistantSetting: String] = [:]
        for setting in AssistantSetting.allCases { names[setting] = "<\(setting.rawValue)>" }
        var context = DiagnosticsContext(endpoint: nil, modelName: nil)
        context.settingNames = SettingNames(names: names)
        let info = Diagnostics(reason, context: context)
        #expect(!info.reasonRow.contains("`") && !info.remedy.contains("`"))
        #expect(!info.reasonRow.contains("--") && !info.remedy.contains("--"))
    }

    @Test func unknownKeepsTheSystemsWordsAndNeverReadsEmpty() {
        let said = Diagnostics(.unknown("Model assets were deleted"))
        #expect(said.reasonRow.contains("Model assets were deleted"))
        #expect(said.remedy.contains("Model assets were deleted"))
        let silent = Diagnostics(.unknown("   "))
        #expect(silent.reasonRow == "The model is unavailable for an unknown reason")
        #expect(silent.permanence == .permanent)
    }

    @Test func serverRemediesNameTheEndpointAndModelWhenKnown() {
        let context = DiagnosticsContext(endpoint: "http://127.0.0.1:8080/v1", modelName: "qwen2.5:3b")
        #expect(Diagnostics(.serverUnreachable, context: context).remedy.contains("http://127.0.0.1:8080/v1"))
        let missing = Diagnostics(.modelMissing, context: context).remedy
        #expect(missing.contains("http://127.0.0.1:8080/v1"))
        #expect(missing.contains("qwen2.5:3b"))
        #expect(Diagnostics(.modelMissing).remedy.contains("the requested model"))
    }

    @Test(arguments: allReasons)
    func namesRoundTrip(reason: UnavailableReason) {
        if case .unknown = reason {
            #expect(UnavailableReason(name: "unknown:Model assets were deleted") == reason)
        } else {
            #expect(UnavailableReason(name: reason.name) == reason)
        }
    }

    @Test func namesAreStableAndStrict() {
        #expect(UnavailableReason.modelNotReady.name == "modelNotReady")
        #expect(UnavailableReason.unknown("x").name == "unknown")
        #expect(UnavailableReason(name: "unknown") == .unknown(""))
        #expect(UnavailableReason(name: "ModelNotReady") == nil)
        #expect(UnavailableReason(name: "available") == nil)
        #expect(UnavailableReason(name: "") == nil)
        #expect(UnavailableReason.acceptedNames.contains("serverUnreachable"))
    }
}

@Suite struct AvailabilityNameTests {
    @Test func availabilityNamesParseForSimulation() {
        #expect(Availability(name: "available") == .available)
        #expect(Availability(name: "modelNotReady") == .unavailable(.modelNotReady))
        #expect(Availability(name: "unknown:Assets deleted") == .unavailable(.unknown("Assets deleted")))
        #expect(Availability(name: "ready") == nil)
        #expect(Availability.available.name == "available")
        #expect(Availability.unavailable(.modelMissing).name == "unavailable")
        #expect(Availability.unavailable(.modelMissing).reason == .modelMissing)
        #expect(Availability.available.reason == nil)
    }

    @Test func aResultExplainsItsUnavailability() {
        let result = AssistantResult(backend: "http", availability: .unavailable(.serverUnreachable), characters: 0, sentCharacters: 0, truncated: false, attempts: 0, error: nil, suggestions: nil)
        let diagnostics = result.diagnostics(context: DiagnosticsContext(endpoint: "http://localhost:11434/v1"))
        #expect(diagnostics?.reasonRow == "The model server cannot be reached")
        #expect(diagnostics?.remedy.contains("http://localhost:11434/v1") == true)
    }
}
