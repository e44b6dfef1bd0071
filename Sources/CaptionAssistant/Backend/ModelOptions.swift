/// Which model backend the user asked for with `--model`.
public enum BackendChoice: String, Sendable, CaseIterable {
    /// Foundation Models where present, else HTTP if an endpoint is set, else none.
    case auto
    /// Apple's on-device model (unsupported on Linux).
    case foundation
    /// An OpenAI-compatible HTTP server.
    case http
    /// No model: every action disabled.
    case none
}

/// The options shared by `process` and `check`: which model, and how to reach it.
public struct ModelOptions: Sendable, Equatable {
    /// `-test-fake-assistant`: use the deterministic fake model.
    public var fake = false
    /// `-test-fake-assistant-fails` or `-test-fake-assistant-error MESSAGE` (hidden): a test model that always throws.
    public var failingFake = false
    /// The message `-test-fake-assistant-error` gives the failing test model.
    public var fakeError: String?
    /// `-test-fake-assistant-delay MS` (hidden): the fake waits this long before each answer, like a slow model.
    public var fakeDelayMilliseconds = 0
    /// `--model`.
    public var backend: BackendChoice = .auto
    /// `--endpoint URL`.
    public var endpoint: String?
    /// `--model-name NAME`.
    public var modelName: String?
    /// `--ca-file FILE`: the CA certificates trusted for an `https://` endpoint.
    public var caFile: String?
    /// `--server-kind KIND`.
    public var serverKind: String?
    /// `--request-timeout SECONDS`.
    public var requestTimeout: Double?
    /// `--model-time-limit SECONDS`: the most model time per file, retries, pauses and repair included.
    public var modelTimeLimit: Double?
    /// `--simulate-availability REASON`, as typed (checked when the backend is built).
    public var simulatedAvailability: String?
    /// `--wait-for-model SECONDS`.
    public var waitForModel: Double?
    /// `--require-model`.
    public var requireModel = false

    /// Creates the defaults.
    public init() {}
}
