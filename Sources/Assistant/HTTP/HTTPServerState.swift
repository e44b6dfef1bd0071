import Foundation

/// What one run has learnt about its server, shared by the availability
/// probe and the model: its kind and why, the schema form to send, and
/// whether it was last found available.
///
/// - **Kind**: `--server-kind` when given; under `auto`, what `GET /v1/models`
///   says (`HTTPServerKind.detect`: llama-cpp-python lists its model as owned
///   by `me`, llama-server by `llamacpp`, vLLM by `vllm`, Ollama by `library`),
///   learnt by the probe before the first `POST`, so llama-cpp-python is sent
///   the `json_object` form from the start.
/// - **Form**: decided by the kind, or, when the kind could not be told, by
///   the first answer: until then one request at a time goes (the others
///   wait for it), so a rejected `json_schema` form is learnt once per run,
///   never once per request in flight (with `--jobs 3`, 2 of 6 requests had
///   failed that way).
/// - **Availability**: once the server was found available, the probe does
///   not ask again (a hosted API counts the requests: 45 GETs for 31 POSTs in
///   one measured run) until a request fails in a way that may have changed
///   it (no connection, a timeout, 503, 401/403, a missing model).
public final class HTTPServerState: @unchecked Sendable {
    private let lock = NSLock()
    private let configured: HTTPServerKind
    private var kind: (kind: HTTPServerKind, reason: String)?
    private var form: HTTPChatRequest.SchemaForm
    private var formDecided: Bool
    private var piloting = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var available = false
    private var served: [String] = []

    /// The state of a run whose `--server-kind` is `configured`.
    public init(configured: HTTPServerKind) {
        self.configured = configured
        form = HTTPChatRequest.SchemaForm(for: configured)
        formDecided = configured != .auto
        if configured != .auto { kind = (configured, "as configured") }
    }

    /// The server's kind and why it is believed, once known.
    public var serverKind: (kind: HTTPServerKind, reason: String)? { lock.withLock { kind } }

    /// The schema form the next request sends.
    var schemaForm: HTTPChatRequest.SchemaForm { lock.withLock { form } }

    /// Records the kind `GET /v1/models` showed (under `auto` only; a kind
    /// given by `--server-kind` stands), and the form it takes.
    func learn(_ detected: HTTPServerKind, because reason: String) {
        let wake: [CheckedContinuation<Void, Never>] = lock.withLock {
            guard configured == .auto, kind == nil else { return [] }
            kind = (detected, reason)
            guard !formDecided else { return [] }
            form = HTTPChatRequest.SchemaForm(for: detected)
            formDecided = true
            defer { waiters = [] }
            return waiters
        }
        wake.forEach { $0.resume() }
    }

    /// The form for a request, and whether this request is the one that
    /// decides it (then it must call `finish` when it is over). While one
    /// request is deciding the form, the others wait here for its outcome.
    func begin() async -> (form: HTTPChatRequest.SchemaForm, deciding: Bool) {
        while true {
            let turn: (HTTPChatRequest.SchemaForm, Bool)? = lock.withLock {
                if formDecided { return (form, false) }
                if !piloting {
                    piloting = true
                    return (form, true)
                }
                return nil
            }
            if let turn { return (form: turn.0, deciding: turn.1) }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now: Bool = lock.withLock {
                    if formDecided || !piloting { return true }
                    waiters.append(waiter)
                    return false
                }
                if now { waiter.resume() }
            }
        }
    }

    /// Ends a deciding request: `decided` is the form the server took, or nil
    /// when the request failed for another reason (the next one decides).
    func finish(deciding: Bool, decided: HTTPChatRequest.SchemaForm?) {
        let wake: [CheckedContinuation<Void, Never>] = lock.withLock {
            if let decided, !formDecided {
                form = decided
                formDecided = true
                if configured == .auto, kind == nil, decided == .jsonObject {
                    kind = (.llamaCppPython, "the server refused the json_schema form and took json_object")
                }
            }
            guard deciding else { return [] }
            piloting = false
            defer { waiters = [] }
            return waiters
        }
        wake.forEach { $0.resume() }
    }

    /// Whether the server was last found available (the probe then asks nothing).
    var isKnownAvailable: Bool { lock.withLock { available } }

    /// The model ids the last probe's `GET /v1/models` listed (as the probe keeps them).
    public var servedModels: [String] { lock.withLock { served } }

    /// Records what the probe found.
    func noteAvailability(_ isAvailable: Bool, served models: [String] = []) {
        lock.withLock {
            available = isAvailable
            served = models
        }
    }

    /// Forgets that the server was available, after a failure that may have changed it.
    func forgetAvailability() { lock.withLock { available = false } }
}
