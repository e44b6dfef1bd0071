import Assistant

/// Which backend a set of model options chooses, decided without touching
/// the network or the model, so it can be tested on its own.
public struct BackendSelection: Sendable, Equatable {
    /// The kinds of backend.
    public enum Kind: String, Sendable {
        /// The deterministic fake (`-test-fake-assistant`).
        case fake
        /// Apple's on-device model.
        case foundation
        /// An OpenAI-compatible HTTP server.
        case http
        /// No model.
        case none
    }

    /// The backend chosen.
    public var kind: Kind

    /// Whether files cost a real model's time and requests (HTTP, Foundation
    /// Models; not the instant fake): their cost is recorded, and shards are
    /// cut by files rather than bytes.
    public var callsRealModel: Bool { kind == .http || kind == .foundation }
    /// The name the report gives it (`foundation` even where it is unsupported).
    public var reportName: String
    /// Why no model can answer, when that is known without asking (no backend,
    /// or Foundation Models on a platform without them).
    public var fixedReason: UnavailableReason?

    /// Whether this build has Apple's Foundation Models framework.
    public static var foundationModelsInBuild: Bool {
        #if canImport(FoundationModels)
        return true
        #else
        return false
        #endif
    }

    /// Chooses: `-test-fake-assistant` → fake; `--model none` → none;
    /// `--model foundation` → Foundation Models (unavailable with
    /// `unsupportedPlatform` where the build has none); `--model http` → HTTP;
    /// `auto` → Foundation Models where present, else HTTP when an endpoint is
    /// set (flag or environment), else none with `unsupportedPlatform`.
    public static func choose(_ options: ModelOptions, endpointConfigured: Bool,
                              foundationModels: Bool = foundationModelsInBuild) -> BackendSelection {
        if options.fake { return BackendSelection(kind: .fake, reportName: "fake", fixedReason: nil) }
        switch options.backend {
        case .none:
            return BackendSelection(kind: .none, reportName: "none",
                                    fixedReason: .modelTurnedOff)
        case .foundation:
            return foundationModels
                ? BackendSelection(kind: .foundation, reportName: "foundation", fixedReason: nil)
                : BackendSelection(kind: .none, reportName: "foundation", fixedReason: .unsupportedPlatform)
        case .http:
            return BackendSelection(kind: .http, reportName: "http", fixedReason: nil)
        case .auto:
            if foundationModels { return BackendSelection(kind: .foundation, reportName: "foundation", fixedReason: nil) }
            if endpointConfigured { return BackendSelection(kind: .http, reportName: "http", fixedReason: nil) }
            return BackendSelection(kind: .none, reportName: "none", fixedReason: .unsupportedPlatform)
        }
    }
}
