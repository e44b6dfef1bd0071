/// How `AssistantService` talks to a model: caps, time limits and retries.
public struct AssistantOptions: Sendable, Hashable {
    /// The most transcript `Character`s sent (`--max-characters`).
    public var maxCharacters: Int
    /// The most keywords kept.
    public var maxKeywords: Int
    /// How long one model call may take before it counts as a (temporary) failure.
    public var timeout: Duration
    /// How long to wait for a `modelNotReady` model before giving up (`--wait-for-model`); zero checks once.
    public var waitForModel: Duration
    /// How many times the model is called at most, counting the first call.
    public var maxAttempts: Int
    /// The pause before the first retry.
    public var retryDelay: Duration
    /// How much longer each later pause is.
    public var retryBackoff: Double
    /// The longest pause between retries, also the longest `Retry-After` honoured.
    public var maxRetryDelay: Duration
    /// How far each pause may be moved at random, as a fraction of it (0.2:
    /// ±20 %), so that many files failing together do not retry in step.
    public var retryJitter: Double
    /// The most time one file may spend on the model, all attempts, pauses and
    /// the repair request together (`--model-time-limit`); nil: no bound but
    /// the per-call `timeout` times the attempts.
    public var fileTimeLimit: Duration?
    /// Whether a still-invalid field may be asked for once more (one extra request per file at most).
    public var repairs: Bool
    /// How the settings the service's messages name are spelled (the library's own words by default).
    public var settingNames: SettingNames = .plain
    /// The actions asked for (all three by default): a field of the answer
    /// that is not asked for is never the reason for a repair request.
    public var actions: Set<AssistantAction> = Set(AssistantAction.allCases)

    /// The retry policy in words: which failures are tried again, how often,
    /// the pauses, and how `Retry-After` is honoured. The one statement of it:
    /// `--help`, `check` and the README give this text (tests hold them to it).
    ///
    /// A server's `Retry-After` lengthens a pause up to `maxRetryDelay`; a
    /// server that asks for longer is not tried again (it would only be
    /// asked again before it said it is ready), and the reason says so.
    public var retryPolicy: String {
        guard maxAttempts > 1 else { return "no retries" }
        var pauses = (1..<maxAttempts).map { n -> String in
            var d = retryDelay
            for _ in 1..<n { d = min(d * max(retryBackoff, 1), maxRetryDelay) }
            return Self.seconds(d)
        }
        let last = pauses.removeLast()
        let listed = pauses.isEmpty ? last : pauses.joined(separator: ", ") + " and " + last
        let about = retryJitter > 0 ? "about " : ""
        let jitter = retryJitter > 0 ? " (each ±\(Int((retryJitter * 100).rounded())) %)" : ""
        return "a request that fails for a temporary reason (\(HTTPAssistantError.temporaryFailures)) is tried up to "
            + "\(maxAttempts) times in all, with pauses of \(about)\(listed)\(jitter), or as long as the server asks in "
            + "Retry-After up to \(Self.seconds(maxRetryDelay)) (a server that asks for longer is not tried again)"
    }

    static func seconds(_ d: Duration) -> String {
        let c = d.components
        let s = Double(c.seconds) + Double(c.attoseconds) * 1e-18
        return s == s.rounded() ? "\(Int(s)) s" : "\((s * 10).rounded() / 10) s"
    }

    /// Creates options; the defaults send 3,000 characters, allow 60 s per call and make at most 3 attempts.
    public init(
        maxCharacters: Int = PromptBuilder.defaultMaxCharacters,
        maxKeywords: Int = 10,
        timeout: Duration = .seconds(60),
        waitForModel: Duration = .zero,
        maxAttempts: Int = 3,
        retryDelay: Duration = .seconds(2),
        retryBackoff: Double = 2,
        maxRetryDelay: Duration = .seconds(30),
        retryJitter: Double = 0.2,
        fileTimeLimit: Duration? = nil,
        repairs: Bool = true
    ) {
        self.maxCharacters = maxCharacters
        self.maxKeywords = maxKeywords
        self.timeout = timeout
        self.waitForModel = waitForModel
        self.maxAttempts = maxAttempts
        self.retryDelay = retryDelay
        self.retryBackoff = retryBackoff
        self.maxRetryDelay = maxRetryDelay
        self.retryJitter = min(max(retryJitter, 0), 1)
        self.fileTimeLimit = fileTimeLimit
        self.repairs = repairs
    }
}
