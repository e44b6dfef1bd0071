/// What diagnostics may mention about the backend in use, when it is known.
///
/// The HTTP backend fills both fields so that "server unreachable" and
/// "model missing" can name the address and the model the person asked for.
public struct DiagnosticsContext: Sendable, Hashable {
    /// The server address (for example `http://127.0.0.1:8080/v1`), if any.
    public var endpoint: String?
    /// The model name requested from the server, if any.
    public var modelName: String?
    /// The proxy requests go through, as `HTTPProxy.summary` says it; nil when none.
    public var proxy: String?
    /// How long `--wait-for-model` waited for a model that stayed not ready, if it did.
    public var waitedSeconds: Double?
    /// The models the server offers (`GET /v1/models`), when known.
    public var servedModels: [String] = []
    /// How the settings the remedies name are spelled: the command line's
    /// options, an app's own words; the library's (`SettingNames.plain`) by default.
    public var settingNames: SettingNames = .plain

    /// Creates a context; both parts are optional.
    public init(endpoint: String? = nil, modelName: String? = nil) {
        self.endpoint = endpoint
        self.modelName = modelName
    }
}
