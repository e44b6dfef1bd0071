/// Asks a model for suggestions on a transcript and returns validated actions, never a swallowed error.
///
/// The service asks one bit (may I call the model?), builds the capped prompt,
/// calls the model with a time limit, retries temporary failures with backoff
/// a bounded number of times, then decodes and validates the answer.
public struct AssistantService: Sendable {
    /// The backend's name, for the report.
    public let backendName: String
    /// The model called.
    public let model: any AssistantModel
    /// Where availability is read before each request.
    public let availability: any AvailabilityProvider
    /// Caps, time limits and retries.
    public var options: AssistantOptions
    /// The clock for waiting on a model that is getting ready and for pauses between retries.
    public let clock: any WaitClock

    /// Creates a service around `model`.
    public init(
        backendName: String,
        model: any AssistantModel,
        availability: any AvailabilityProvider,
        options: AssistantOptions = AssistantOptions(),
        clock: any WaitClock = SystemWaitClock()
    ) {
        self.backendName = backendName
        self.model = model
        self.availability = availability
        self.options = options
        self.clock = clock
    }

    /// Gets suggestions for `transcript` (cue texts without markup).
    public func suggest(transcript: String) async -> AssistantResult {
        let prompt = PromptBuilder(maxCharacters: options.maxCharacters).build(transcript: transcript)
        let gate = AvailabilityGate(provider: availability, clock: clock)
        let state = await gate.waitUntilAvailable(timeout: options.waitForModel)
        func result(attempts: Int, error: String?, suggestions: Suggestions?) -> AssistantResult {
            AssistantResult(
                backend: backendName, availability: state,
                characters: prompt.characters, sentCharacters: prompt.sentCharacters, truncated: prompt.truncated,
                attempts: attempts, error: error, suggestions: suggestions
            )
        }
        guard state.isAvailable else {
            return result(attempts: 0, error: nil, suggestions: nil)
        }
        if prompt.sentTranscript.allSatisfy({ $0.isWhitespace || $0.isNewline }) {
            let message = "The captions hold no text to send to the model."
            return result(attempts: 0, error: message, suggestions: .allFailed(message))
        }
        let decoder = SuggestionDecoder(maxKeywords: options.maxKeywords)
        var attempts = 0
        var delay = options.retryDelay
        while true {
            attempts += 1
            do {
                let answer = try await ModelCall.respond(model: model, prompt: prompt.text, timeout: options.timeout)
                let suggestions = decoder.decode(answer, transcript: transcript)
                return result(attempts: attempts, error: suggestions.answerError, suggestions: suggestions)
            } catch {
                let message = AssistantError.message(for: error)
                let temporary = (error as? any TemporaryError)?.isTemporary ?? false
                guard temporary, attempts < options.maxAttempts, !Task.isCancelled else {
                    let text = attempts > 1 ? "\(message) (after \(attempts) attempts)" : message
                    return result(attempts: attempts, error: message, suggestions: .allFailed(text))
                }
                do {
                    let spread = options.retryJitter
                    try await clock.sleep(for: spread > 0 ? delay * Double.random(in: (1 - spread)...(1 + spread)) : delay)
                } catch {
                    return result(attempts: attempts, error: message, suggestions: .allFailed(message))
                }
                delay = min(delay * max(options.retryBackoff, 1), options.maxRetryDelay)
            }
        }
    }
}
