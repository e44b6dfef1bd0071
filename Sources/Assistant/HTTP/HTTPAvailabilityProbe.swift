import Foundation

/// Asks an OpenAI-compatible server whether it can answer now, and maps what it
/// says to an `Availability`.
///
/// Steps, each one request:
/// 1. `GET /health` (llama.cpp's `llama-server`, vLLM). Refused connection,
///    unknown host or no answer in time → `serverUnreachable`. 503 whose text
///    mentions loading ("Loading model") → `modelNotReady`. 401/403 →
///    `unknown` with the server's message. Any other answer (llama-cpp-python
///    and Ollama have no `/health`: 404) → step 2.
/// 2. `GET /v1/models`. 200 with a list: when a model name is configured and no
///    listed id matches it (Ollama's `:latest` tag may be left out) →
///    `modelMissing`, except on servers that serve one model and ignore the
///    name: `--server-kind llama-cpp` or `llama-cpp-python`, or, under `auto`,
///    one that `HTTPServerKind.detect` finds to be one of them (a list whose
///    `owned_by` is `llamacpp` or `me`, or llama-server's `Server` header). Then, and when no name is configured → `available`.
///    404 with Ollama's "not found, try pulling it first" (or vLLM's "does not
///    exist") → `modelMissing`; 503 loading → `modelNotReady`; 401/403 and
///    anything else → `unknown` with the status and the server's words.
///
/// The probe never retries. With a run's `HTTPServerState` it is asked once
/// per run, and again only after a failure (`currentAvailability`), and it
/// records the server's kind that `/v1/models` shows (`HTTPServerKind.detect`)
/// before the first `POST`; `--wait-for-model` polls a `modelNotReady` server.
public struct HTTPAvailabilityProbe: AvailabilityProvider {
    /// What the probe found, with the specifics a remedy needs.
    public struct Result: Sendable, Equatable {
        /// The availability to report.
        public let availability: Availability
        /// The endpoint as safe to show (no credentials).
        public let endpoint: String
        /// The model name asked for, if one is configured.
        public let modelName: String?
        /// The model ids the server listed (empty when it was not asked or listed none).
        public let servedModels: [String]
        /// One sentence with the specifics: what was asked, what the server said.
        public let detail: String
    }

    /// The server to ask.
    public let configuration: HTTPConfiguration
    /// How long each probe request may take, in seconds.
    public let timeout: Double
    /// What the run learnt about the server, shared with its model: the
    /// probe records the kind `GET /v1/models` shows and whether the server
    /// is available; nil for a probe on its own.
    public let state: HTTPServerState?
    private let transport: HTTPTransport

    /// Creates a probe; `timeout` defaults to the request timeout, at most 30 s.
    public init(configuration: HTTPConfiguration, timeout: Double? = nil, state: HTTPServerState? = nil) {
        self.configuration = configuration
        let chosen = timeout ?? min(configuration.requestTimeout, 30)
        self.timeout = chosen.isFinite && chosen > 0 ? chosen : 30
        self.state = state
        self.transport = HTTPTransport(configuration: configuration, timeout: self.timeout)
    }

    /// The server's availability: asked once per run, and again only after
    /// a request failed in a way that may have changed it (`state`); asked
    /// every time by a probe with no state.
    public func currentAvailability() async -> Availability {
        if let state, state.isKnownAvailable { return .available }
        return await probe().availability
    }

    /// Asks the server now and keeps the specifics (and records them in `state`).
    public func probe() async -> Result {
        let found = await ask()
        state?.noteAvailability(found.availability.isAvailable, served: found.servedModels)
        return found
    }

    private func ask() async -> Result {
        let health: HTTPTransport.Reply
        do {
            health = try await transport.send("GET", "/health")
        } catch {
            return failure(error, route: "/health")
        }
        switch health.status {
        case 503:
            return notReadyOrUnknown(health, route: "/health")
        case 401, 403:
            return refused(health, route: "/health")
        default:
            break // 2xx: ready, check the model; 404 and the rest: no usable /health, ask /v1/models.
        }

        let models: HTTPTransport.Reply
        do {
            models = try await transport.send("GET", "/v1/models")
        } catch {
            return failure(error, route: "/v1/models")
        }
        switch models.status {
        case 200..<300:
            return checkModel(in: models)
        case 503:
            return notReadyOrUnknown(models, route: "/v1/models")
        case 401, 403:
            return refused(models, route: "/v1/models")
        case 404 where mentionsMissingModel(models):
            return result(.unavailable(.modelMissing), detail: "The server says: \(message(models) ?? "model not found").")
        default:
            let said = message(models).map { ": \($0)" } ?? ""
            return result(.unavailable(.unknown("GET /v1/models answered HTTP \(models.status)\(said)")),
                          detail: "The server at \(configuration.displayEndpoint) answered GET /v1/models with HTTP \(models.status)\(said); is that the server's base URL?")
        }
    }

    // MARK: - Steps

    private func checkModel(in reply: HTTPTransport.Reply) -> Result {
        guard let (ids, owners) = HTTPResponseParser.modelIDs(from: reply.body) else {
            let snippet = HTTPResponseParser.snippet(of: reply.body, redacting: configuration.apiKey) ?? "(empty body)"
            return result(.unavailable(.unknown("GET /v1/models did not answer with a model list: \(snippet)")),
                          detail: "The server at \(configuration.displayEndpoint) does not look OpenAI-compatible.")
        }
        // The names shown and kept pass the gate (each one line, bounded, secrets redacted), and so
        // does their list: a server listing 100,000 models gives the first ones and a count.
        let allIDs = ids.map { HTTPResponseParser.clean($0, redacting: configuration.apiKey) }
        let (shownIDs, leftOut) = ServerTextGate.bounded(allIDs)
        let cleanIDs = shownIDs + (leftOut > 0 ? ["… and \(leftOut) more"] : [])
        let detected = HTTPServerKind.detect(owners: owners, server: reply.server)
        if let detected { state?.learn(detected.kind, because: detected.reason) }
        guard let name = configuration.modelName else {
            return result(.available, served: cleanIDs, detail: "The server is ready; no model name is configured, so it uses its own.")
        }
        if ids.contains(where: { Self.names($0, name) }) {
            return result(.available, served: cleanIDs, detail: "The server is ready and serves \(name).")
        }
        let singleModel = configuration.serverKind.ignoresModelName
            || (configuration.serverKind == .auto && !ids.isEmpty && detected?.kind.ignoresModelName == true)
        if singleModel {
            return result(.available, served: cleanIDs,
                          detail: "The server is ready; it serves one model and ignores the name \(name).")
        }
        let list = cleanIDs.isEmpty ? "no models" : cleanIDs.joined(separator: ", ")
        return result(.unavailable(.modelMissing), served: cleanIDs,
                      detail: "The server at \(configuration.displayEndpoint) does not serve \(name); it serves \(list).")
    }

    private func failure(_ error: any Error, route: String) -> Result {
        guard let error = error as? HTTPAssistantError else {
            return result(.unavailable(.unknown("The probe was cancelled")), detail: "GET \(route) was cancelled.")
        }
        switch error.kind {
        case .unreachable, .timedOut, .connectionLost:
            let why = error.serverMessage ?? "no answer"
            return result(.unavailable(.serverUnreachable),
                          detail: "No server answered at \(configuration.displayEndpoint) (\(why)).")
        case .untrustedCertificate: return result(.unavailable(.untrustedCertificate), detail: error.errorDescription ?? "")
        case .noCABundle: return result(.unavailable(.noCABundle), detail: error.errorDescription ?? "")
        case .notTLS: return result(.unavailable(.notTLS), detail: error.errorDescription ?? "")
        case .headerTooLarge: return result(.unavailable(.headerTooLarge), detail: error.errorDescription ?? "")
        case .transport, .status, .invalidResponse, .truncated, .redirected, .answerTooLarge:
            let text = error.errorDescription ?? "GET \(route) failed"
            return result(.unavailable(.unknown(text)), detail: text)
        }
    }

    private func notReadyOrUnknown(_ reply: HTTPTransport.Reply, route: String) -> Result {
        let said = message(reply)
        if said?.lowercased().contains("loading") == true {
            return result(.unavailable(.modelNotReady), detail: "The server says: \(said ?? "Loading model").")
        }
        let suffix = said.map { ": \($0)" } ?? ""
        return result(.unavailable(.unknown("GET \(route) answered HTTP 503\(suffix)")),
                      detail: "The server at \(configuration.displayEndpoint) is unavailable (HTTP 503\(suffix)).")
    }

    private func refused(_ reply: HTTPTransport.Reply, route: String) -> Result {
        let said = message(reply) ?? "access denied"
        return result(.unavailable(.unknown("HTTP \(reply.status): \(said)")),
                      detail: "The server refused GET \(route) (HTTP \(reply.status)): \(said). Check \(HTTPConfiguration.apiKeyVariable).")
    }

    // MARK: - Helpers

    private func message(_ reply: HTTPTransport.Reply) -> String? {
        HTTPResponseParser.serverMessage(from: reply.body, redacting: configuration.apiKey)
    }

    private func mentionsMissingModel(_ reply: HTTPTransport.Reply) -> Bool {
        HTTPAssistantError(kind: .status(reply.status), serverMessage: message(reply), endpoint: "").isModelMissing
    }

    private func result(_ availability: Availability, served: [String] = [], detail: String) -> Result {
        Result(
            availability: availability,
            endpoint: configuration.displayEndpoint,
            modelName: configuration.modelName,
            servedModels: served,
            detail: detail
        )
    }

    /// Whether a listed id names the requested model (`llama3.2` matches `llama3.2:latest`).
    static func names(_ id: String, _ name: String) -> Bool {
        id == name || id == name + ":latest" || id + ":latest" == name
    }
}
