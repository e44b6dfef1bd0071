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

    /// Builds the diagnostics for `reason`, naming the endpoint and model from
    /// `context` where it helps, and the settings the remedy names as
    /// `context.settingNames` spells them.
    public init(_ reason: UnavailableReason, context: DiagnosticsContext = DiagnosticsContext()) {
        self.reason = reason
        let words = Self.words(for: reason, context: context)
        name = words.name
        reasonRow = words.reasonRow.rendered(context.settingNames)
        remedy = words.remedy.rendered(context.settingNames)
        permanence = words.permanence
        offersSettings = words.offersSettings
    }

    /// What `init` says of `reason`, with the settings not yet spelled.
    static func words(for reason: UnavailableReason, context: DiagnosticsContext)
        -> (name: String, reasonRow: Advice, remedy: Advice, permanence: Permanence, offersSettings: Bool) {
        let endpoint: Advice = context.endpoint.flatMap(Self.nonEmpty).map { (address: String) -> Advice in "at \(address)" } ?? "at the \(.endpoint) address"
        let model: String = context.modelName.flatMap(Self.nonEmpty).map { "“\($0)”" } ?? "the requested model"
        switch reason {
        case .deviceNotEligible:
            return ("deviceNotEligible", "This device cannot run Apple Intelligence",
                    "Apple's on-device model does not run on this device (its hardware or region rules it out), and that will not change. Captions are still written unchanged; to get suggestions, use \(.endpoint) with a local OpenAI-compatible server.",
                    .permanent, false)
        case .appleIntelligenceNotEnabled:
            return ("appleIntelligenceNotEnabled", "Apple Intelligence is turned off",
                    "Turn on Apple Intelligence in \(Self.settingsPath), let the model finish downloading, then run again.",
                    .userFixable, true)
        case .modelNotReady:
            let remedy: Advice
            if let waited = context.waitedSeconds {
                remedy = "The model was still getting ready after waiting \(HTTPConfiguration.seconds(waited)) (\(.waitForModel)). Run again later, or wait longer with a larger \(.waitForModel); if it stays this way for days, check that the device's language and region support Apple Intelligence."
            } else {
                remedy = "The model is downloading or preparing in the background. Run again later, or pass \(.waitForModel, .placeholder) to wait for it; if it stays this way for days, check that the device's language and region support Apple Intelligence."
            }
            return ("modelNotReady", "The on-device model is still getting ready", remedy, .temporary, false)
        case .unsupportedPlatform:
            return ("unsupportedPlatform", "This system has no on-device model",
                    "This build or operating system (Linux, or an Apple system older than iOS 26 / macOS 26) has no Apple Foundation Models, so no on-device model can run here. Use \(.endpoint, .placeholder) to reach a local OpenAI-compatible server (llama.cpp, Ollama, vLLM), or \(.fakeModel) for the deterministic test model.",
                    .permanent, false)
        case .serverUnreachable:
            return ("serverUnreachable", "The model server cannot be reached",
                    "Nothing answered \(endpoint). Start the server (for example llama-server or Ollama) or correct the address, then run again.",
                    .userFixable, false)
        case .modelMissing:
            let offered = context.servedModels.isEmpty ? "" : " It offers: \(context.servedModels.prefix(20).joined(separator: ", "))\(context.servedModels.count > 20 ? ", …" : "")."
            return ("modelMissing", "The server does not offer the requested model",
                    "The server \(endpoint) runs but does not serve \(model). Load or pull that model on the server, or pass \(.modelName) with a name the server lists.\(offered)",
                    .userFixable, false)
        case .modelTurnedOff:
            return ("modelTurnedOff", "No model was chosen (\(.backend, .literal("none")))",
                    "This run was asked to use no model, so captions are written unchanged and the actions are disabled. To get suggestions, leave out \(.backend, .literal("none")): use \(.backend, .literal("auto")), \(.backend, .literal("http")) with \(.endpoint, .placeholder), or \(.fakeModel).",
                    .userFixable, false)
        case .untrustedCertificate:
            return ("untrustedCertificate", "The model server's certificate is not trusted",
                    "The server \(endpoint) presented a certificate signed by no CA this machine trusts (self-signed, or a private CA). Give that CA with \(.caFile, .placeholder) (a PEM file), or add it to the system's CAs (update-ca-certificates), then run again; check that \(.endpoint) is the server you mean.",
                    .userFixable, false)
        case .noCABundle:
            return ("noCABundle", "No CA certificates are installed to check the server",
                    "An https:// server \(endpoint) cannot be checked: no CA certificates could be loaded. Install them (Debian, Ubuntu: apt-get install ca-certificates) or give the server's CA with \(.caFile, .placeholder), then run again.",
                    .userFixable, false)
        case .notTLS:
            return ("notTLS", "The server speaks plain HTTP at an https:// address",
                    "The server \(endpoint) answered in plain HTTP, not TLS. Write \(.endpoint) with http:// (on a trusted network: the key and transcripts then travel in clear), or turn on TLS on the server.",
                    .userFixable, false)
        case .headerTooLarge:
            return ("headerTooLarge", "The server's response headers are over the limit",
                    "The server \(endpoint) sent more than \(HTTPTransport.maximumHeaderBytes / 1024) KiB of response headers, which no model server does; the answer was not read. Check that \(.endpoint) points to an OpenAI-compatible model server and not a proxy or web page.",
                    .permanent, false)
        case .unknown(let message):
            let said = Self.nonEmpty(message)
            let row: String = said.map { "The model is unavailable: \($0)" } ?? "The model is unavailable for an unknown reason"
            let reported: String = said.map { "The system reported “\($0)”. " } ?? ""
            return ("unknown", "\(row)",
                    "\(reported)CaptionAssistant does not recognise this reason and treats it as permanent; captions are still written unchanged. Check for an update of the operating system or of CaptionAssistant.",
                    .permanent, false)
        }
    }

    /// Every reason without a payload, in a fixed order; `unknown` is parsed separately.
    static let namedReasons: [UnavailableReason] = [
        .deviceNotEligible, .appleIntelligenceNotEnabled, .modelNotReady,
        .unsupportedPlatform, .serverUnreachable, .modelMissing, .modelTurnedOff,
        .untrustedCertificate, .noCABundle, .notTLS, .headerTooLarge,
    ]

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
