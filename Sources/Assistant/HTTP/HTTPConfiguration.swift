import Foundation

/// Where and how the HTTP backend reaches an OpenAI-compatible model server.
///
/// Built from command-line flags, which override the environment variables
/// `CAPTION_ASSISTANT_ENDPOINT`, `CAPTION_ASSISTANT_MODEL` and
/// `CAPTION_ASSISTANT_API_KEY`. The API key is sent as `Authorization: Bearer …`
/// and nowhere else: `description`, `debugDescription`, reflection (`dump`) and
/// every error leave it out.
public struct HTTPConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Environment variable naming the server's base URL.
    public static let endpointVariable = "CAPTION_ASSISTANT_ENDPOINT"
    /// Environment variable naming the model to ask for.
    public static let modelVariable = "CAPTION_ASSISTANT_MODEL"
    /// Environment variable holding the API key (a bearer token).
    public static let apiKeyVariable = "CAPTION_ASSISTANT_API_KEY"
    /// The request timeout used when none is given, in seconds.
    public static let defaultRequestTimeout: Double = 120

    /// The server's base URL (`http` or `https`, with a host), without a trailing `/v1`.
    public let endpoint: URL
    /// The model to ask for; `nil` leaves the `model` field out (single-model servers).
    public let modelName: String?
    /// Which server this is, for the form of the answer's JSON schema.
    public let serverKind: HTTPServerKind
    /// How long one request may take, in seconds, before it fails as a (temporary) timeout.
    public let requestTimeout: Double
    /// The API key; only `HTTPAssistantModel` and `HTTPAvailabilityProbe` read it.
    let apiKey: APIKey?
    /// The proxy requests go through, or nil for none (`HTTPProxy` has the rules).
    public let proxy: HTTPProxy?
    /// The CA certificates (a PEM file) trusted for an `https://` endpoint instead of the system's, or nil.
    public let caFile: String?

    /// Checks and builds a configuration.
    ///
    /// - Parameters:
    ///   - endpoint: the server's base URL, e.g. `http://127.0.0.1:8080`. A trailing
    ///     `/v1` (the OpenAI SDKs' habit) is accepted and removed, since requests
    ///     add `/v1/…` themselves.
    ///   - modelName: the model to ask for; empty means none.
    ///   - apiKey: sent as a bearer token; empty means none.
    ///   - serverKind: how to send the answer's schema.
    ///   - requestTimeout: seconds, more than 0 and at most one day.
    ///   - caFile: a readable PEM file of CA certificates to trust instead of the system's.
    ///   - environment: where the proxy variables are read (`HTTPProxy`); none by default, so
    ///     requests then go straight to the endpoint.
    /// - Throws: `HTTPConfigurationError` naming what is wrong.
    public init(
        endpoint: String,
        modelName: String? = nil,
        apiKey: String? = nil,
        serverKind: HTTPServerKind = .auto,
        requestTimeout: Double = HTTPConfiguration.defaultRequestTimeout,
        caFile: String? = nil,
        environment: [String: String] = [:]
    ) throws {
        self.endpoint = try Self.validatedEndpoint(endpoint)
        self.caFile = Self.nonEmpty(caFile)
        if let file = self.caFile, !FileManager.default.isReadableFile(atPath: file) {
            throw HTTPConfigurationError.unreadableCAFile(file)
        }
        self.proxy = try HTTPProxy.choose(for: self.endpoint, environment: environment)
        self.modelName = Self.nonEmpty(modelName)
        self.apiKey = Self.nonEmpty(apiKey).map(APIKey.init)
        self.serverKind = serverKind
        guard requestTimeout.isFinite, requestTimeout > 0, requestTimeout <= 86_400 else {
            throw HTTPConfigurationError.invalidTimeout(requestTimeout)
        }
        self.requestTimeout = requestTimeout
    }

    /// Combines flags with the environment: each flag given wins over its variable.
    /// The proxy is chosen from the same environment (`HTTPProxy`).
    ///
    /// Returns `nil` when neither `--endpoint` nor `CAPTION_ASSISTANT_ENDPOINT` is set
    /// (so `--model auto` knows there is no HTTP backend to pick). Empty values count
    /// as unset.
    /// - Throws: `HTTPConfigurationError` for a bad endpoint, timeout or server kind.
    public static func resolve(
        endpoint: String? = nil,
        modelName: String? = nil,
        apiKey: String? = nil,
        serverKind: HTTPServerKind? = nil,
        requestTimeout: Double? = nil,
        caFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> HTTPConfiguration? {
        guard let endpoint = nonEmpty(endpoint) ?? nonEmpty(environment[endpointVariable]) else {
            return nil
        }
        return try HTTPConfiguration(
            endpoint: endpoint,
            modelName: nonEmpty(modelName) ?? nonEmpty(environment[modelVariable]),
            apiKey: nonEmpty(apiKey) ?? nonEmpty(environment[apiKeyVariable]),
            serverKind: serverKind ?? .auto,
            requestTimeout: requestTimeout ?? defaultRequestTimeout,
            caFile: caFile,
            environment: environment
        )
    }

    /// The configuration from the environment alone, or `nil` when no endpoint is set.
    /// - Throws: `HTTPConfigurationError` when `CAPTION_ASSISTANT_ENDPOINT` is not a usable URL.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> HTTPConfiguration? {
        try resolve(environment: environment)
    }

    /// Whether an endpoint is set by flag or environment (what `--model auto` asks).
    public static func endpointIsSet(
        flag: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        nonEmpty(flag) != nil || nonEmpty(environment[endpointVariable]) != nil
    }

    /// Whether an API key will be sent (the key itself is never exposed).
    var hasAPIKey: Bool { apiKey != nil }

    /// The endpoint as safe to show: scheme, host, port and path, without any
    /// `user:password@` part, query or fragment.
    public var displayEndpoint: String { Self.display(endpoint) }

    /// The URL of a route under the endpoint, e.g. `/v1/models`.
    func url(for route: String) -> URL {
        endpoint.appendingPathComponent(String(route.drop(while: { $0 == "/" })))
    }

    /// A one-line summary without the API key.
    public var description: String {
        var parts = ["endpoint \(displayEndpoint)"]
        parts.append("model \(modelName ?? "(server's default)")")
        parts.append("server kind \(serverKind)")
        parts.append("timeout \(Self.seconds(requestTimeout))")
        parts.append(hasAPIKey ? "API key set" : "no API key")
        if let proxy { parts.append("proxy \(proxy.display) (from \(proxy.variable))") }
        return "HTTP backend: " + parts.joined(separator: ", ")
    }

    /// Same as `description`: the key stays out of debug output too.
    public var debugDescription: String { description }

    /// Reflection (`dump`, `print` of containers) shows only safe fields.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "endpoint": displayEndpoint,
            "modelName": modelName as Any,
            "serverKind": serverKind,
            "requestTimeout": requestTimeout,
            "hasAPIKey": hasAPIKey,
            "proxy": proxy?.display as Any,
        ], displayStyle: .struct)
    }

    // MARK: - Helpers

    /// An API key that prints as `<redacted>` whatever way it is printed.
    struct APIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The secret itself; read only to build the `Authorization` header and to redact echoes.
        let secret: String
        init(_ secret: String) { self.secret = secret }
        var description: String { "<redacted>" }
        var debugDescription: String { "<redacted>" }
        var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }

    static func nonEmpty(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        return trimmed
    }

    static func validatedEndpoint(_ text: String) throws -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard var components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw HTTPConfigurationError.invalidEndpoint(redactedForError(trimmed))
        }
        guard scheme == "http" || scheme == "https" else {
            throw HTTPConfigurationError.unsupportedScheme(redactedForError(trimmed))
        }
        guard let host = components.host, !host.isEmpty else {
            throw HTTPConfigurationError.missingHost(redactedForError(trimmed))
        }
        guard components.query == nil, components.fragment == nil else {
            throw HTTPConfigurationError.invalidEndpoint(redactedForError(trimmed))
        }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        // A URL pasted whole (…/v1/chat/completions, …/v1/models) names the same server:
        // the routes are added again per request. What is kept is shown as the endpoint used.
        for route in ["/chat/completions", "/models"] where path.hasSuffix(route) {
            path.removeLast(route.count)
            break
        }
        if path.hasSuffix("/v1") { path.removeLast(3) }
        components.path = path
        guard let url = components.url else {
            throw HTTPConfigurationError.invalidEndpoint(redactedForError(trimmed))
        }
        return url
    }

    static func display(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "(endpoint)"
        }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "(endpoint)"
    }

    /// An endpoint read back from elsewhere (a report, which may have been
    /// edited by hand) as safe to show: as `displayEndpoint` shows one, and
    /// text that is not a URL with any `user:password@` part removed.
    public static func displayEndpoint(_ text: String) -> String {
        if let url = URL(string: text), url.scheme != nil { return display(url) }
        return redactedForError(text)
    }

    /// Removes a `user:password@` part from text that failed to parse as an endpoint.
    static func redactedForError(_ text: String) -> String {
        guard let at = text.firstIndex(of: "@") else { return text }
        if let schemeEnd = text.range(of: "://"), schemeEnd.upperBound <= at {
            return String(text[..<schemeEnd.upperBound]) + "…@" + String(text[text.index(after: at)...])
        }
        return "…@" + String(text[text.index(after: at)...])
    }

    /// Seconds as written in messages: "3 s", "0.5 s".
    public static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Why a configuration of the HTTP backend was refused.
public enum HTTPConfigurationError: LocalizedError, Sendable, Equatable {
    /// The endpoint is not a URL.
    case invalidEndpoint(String)
    /// The endpoint uses a scheme other than `http` or `https`.
    case unsupportedScheme(String)
    /// The endpoint has no host.
    case missingHost(String)
    /// The timeout is not a positive number of seconds up to one day.
    case invalidTimeout(Double)
    /// `--server-kind` got a value it does not know.
    case unknownServerKind(String)
    /// The `--ca-file` given cannot be read.
    case unreadableCAFile(String)
    /// A proxy variable holds no URL of a scheme the client can use (`value` without any password).
    case invalidProxy(variable: String, value: String)

    /// What is wrong, with the value given.
    public var errorDescription: String? {
        switch self {
        case .invalidEndpoint(let text):
            "The endpoint “\(text)” is not a URL the HTTP backend can use."
        case .unsupportedScheme(let text):
            "The endpoint “\(text)” must start with http:// or https://."
        case .missingHost(let text):
            "The endpoint “\(text)” names no host."
        case .invalidTimeout(let value):
            "The request timeout \(value) is not a number of seconds between 0 and 86400."
        case .unknownServerKind(let text):
            "Unknown server kind “\(text)”."
        case .unreadableCAFile(let path):
            "The CA file “\(path)” cannot be read."
        case .invalidProxy(let variable, let value):
            "The proxy \(variable)=“\(value)” is not a URL of a proxy (http://, https://, socks4://, socks4a://, socks5:// or socks5h://, with a host)."
        }
    }

    /// How to fix it, in the library's words (`remedy` spelled by `SettingNames.plain`).
    public var recoverySuggestion: String? { remedy.rendered(.plain) }

    /// How to fix it, naming the settings to change.
    public var remedy: Advice {
        switch self {
        case .invalidEndpoint, .unsupportedScheme, .missingHost:
            "Give \(.endpoint) (or \(HTTPConfiguration.endpointVariable)) as the server's base URL, e.g. http://127.0.0.1:8080."
        case .invalidTimeout:
            "Give \(.requestTimeout) as seconds, e.g. \(.requestTimeout, .literal("120"))."
        case .unknownServerKind:
            "Use one of: \(HTTPServerKind.allCases.map(\.rawValue).joined(separator: ", "))."
        case .unreadableCAFile:
            "Give \(.caFile) as a readable PEM file of CA certificates."
        case .invalidProxy(let variable, _):
            "Set \(variable) to the proxy's URL, e.g. http://proxy.example:3128, or unset it; add the endpoint's host to no_proxy to reach it directly."
        }
    }
}
