import Foundation

/// What to tell a person about one reason the model is unavailable.
///
/// This is the only place with an exhaustive switch over `UnavailableReason`.
/// Everything else asks one bit (`Availability.isAvailable`) and, when it needs
/// words, builds a `Diagnostics` value and reads them from here.
public struct Diagnostics: Sendable, Hashable {
    /// The reason these diagnostics describe.
    public let reason: UnavailableReason
    /// A stable machine name for the reason (`"deviceNotEligible"`, …, `"unknown"`), for reports.
    public let name: String
    /// A short line saying what is wrong; never empty.
    public let reasonRow: String
    /// One or two sentences saying what the person can do about it.
    public let remedy: String
    /// Whether the problem is permanent, fixable by the person, or temporary.
    public let permanence: Permanence
    /// Whether to point the person to Settings → Apple Intelligence & Siri.
    ///
    /// True only for `appleIntelligenceNotEnabled`: it is the one reason a
    /// setting on this device fixes.
    public let offersSettings: Bool

    /// Where Apple Intelligence is switched on.
    public static let settingsPath = "Settings → Apple Intelligence & Siri"

    /// Builds the diagnostics for `reason`, naming the endpoint and model from `context` where it helps.
    public init(_ reason: UnavailableReason, context: DiagnosticsContext = DiagnosticsContext()) {
        self.reason = reason
        let endpoint = context.endpoint.flatMap(Self.nonEmpty).map { "at \($0)" } ?? "at the --endpoint address"
        let model = context.modelName.flatMap(Self.nonEmpty).map { "“\($0)”" } ?? "the requested model"
        switch reason {
        case .deviceNotEligible:
            name = "deviceNotEligible"
            reasonRow = "This device cannot run Apple Intelligence"
            remedy = "Apple's on-device model does not run on this device (its hardware or region rules it out), and that will not change. Captions are still written unchanged; to get suggestions, use --endpoint with a local OpenAI-compatible server."
            permanence = .permanent
            offersSettings = false
        case .appleIntelligenceNotEnabled:
            name = "appleIntelligenceNotEnabled"
            reasonRow = "Apple Intelligence is turned off"
            remedy = "Turn on Apple Intelligence in \(Self.settingsPath), let the model finish downloading, then run again."
            permanence = .userFixable
            offersSettings = true
        case .modelNotReady:
            name = "modelNotReady"
            reasonRow = "The on-device model is still getting ready"
            if let waited = context.waitedSeconds {
                remedy = "The model was still getting ready after waiting \(HTTPConfiguration.seconds(waited)) (--wait-for-model). Run again later, or wait longer with a larger --wait-for-model; if it stays this way for days, check that the device's language and region support Apple Intelligence."
            } else {
                remedy = "The model is downloading or preparing in the background. Run again later, or pass --wait-for-model SECONDS to wait for it; if it stays this way for days, check that the device's language and region support Apple Intelligence."
            }
            permanence = .temporary
            offersSettings = false
        case .unsupportedPlatform:
            name = "unsupportedPlatform"
            reasonRow = "This system has no on-device model"
            remedy = "This build or operating system (Linux, or an Apple system older than iOS 26 / macOS 26) has no Apple Foundation Models, so no on-device model can run here. Use --endpoint URL to reach a local OpenAI-compatible server (llama.cpp, Ollama, vLLM), or -test-fake-assistant for the deterministic test model."
            permanence = .permanent
            offersSettings = false
        case .serverUnreachable:
            name = "serverUnreachable"
            reasonRow = "The model server cannot be reached"
            remedy = "Nothing answered \(endpoint). Start the server (for example llama-server or Ollama) or correct the address, then run again."
            permanence = .userFixable
            offersSettings = false
        case .modelMissing:
            name = "modelMissing"
            reasonRow = "The server does not offer the requested model"
            let offered = context.servedModels.isEmpty ? "" : " It offers: \(context.servedModels.prefix(20).joined(separator: ", "))\(context.servedModels.count > 20 ? ", …" : "")."
            remedy = "The server \(endpoint) runs but does not serve \(model). Load or pull that model on the server, or pass --model-name with a name the server lists.\(offered)"
            permanence = .userFixable
            offersSettings = false
        case .modelTurnedOff:
            name = "modelTurnedOff"
            reasonRow = "No model was chosen (--model none)"
            remedy = "This run was asked to use no model, so captions are written unchanged and the actions are disabled. To get suggestions, leave out --model none: use --model auto, --model http with --endpoint URL, or -test-fake-assistant."
            permanence = .userFixable
            offersSettings = false
        case .unknown(let message):
            name = "unknown"
            let said = Self.nonEmpty(message)
            reasonRow = said.map { "The model is unavailable: \($0)" } ?? "The model is unavailable for an unknown reason"
            remedy = (said.map { "The system reported “\($0)”. " } ?? "")
                + "CaptionAssistant does not recognise this reason and treats it as permanent; captions are still written unchanged. Check for an update of the operating system or of CaptionAssistant."
            permanence = .permanent
            offersSettings = false
        }
    }

    /// Every reason without a payload, in a fixed order; `unknown` is parsed separately.
    static let namedReasons: [UnavailableReason] = [
        .deviceNotEligible, .appleIntelligenceNotEnabled, .modelNotReady,
        .unsupportedPlatform, .serverUnreachable, .modelMissing, .modelTurnedOff,
    ]

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
