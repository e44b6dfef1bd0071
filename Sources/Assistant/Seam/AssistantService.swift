/// Asks a model for suggestions on a transcript and returns validated actions, never a swallowed error.
///
/// The service asks one bit (may I call the model?), builds the capped prompt,
/// calls the model with a time limit, retries temporary failures with backoff
/// a bounded number of times (`AssistantOptions.retryPolicy`), then decodes and
/// validates the answer. When a field of a decoded answer is still invalid, it
/// asks once more (one repair request per file at most, within the file's time
/// bound) and takes only the fields that were invalid from that answer. The
/// result records the requests, tokens (when the model reports them) and seconds.
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
    /// How this run's repair requests went, shared by the copies of this
    /// service: a field whose repairs do not help is not repaired again.
    public let repairHistory: RepairHistory

    /// Creates a service around `model`.
    public init(
        backendName: String,
        model: any AssistantModel,
        availability: any AvailabilityProvider,
        options: AssistantOptions = AssistantOptions(),
        clock: any WaitClock = SystemWaitClock(),
        repairHistory: RepairHistory = RepairHistory()
    ) {
        self.backendName = backendName
        self.model = model
        self.availability = availability
        self.options = options
        self.clock = clock
        self.repairHistory = repairHistory
    }

    /// Gets suggestions for `transcript` (cue texts without markup).
    public func suggest(transcript: String) async -> AssistantResult {
        await suggest(transcript: { transcript })
    }

    /// Gets suggestions for the transcript `makeTranscript` makes, which is
    /// called only once the model is known to be available: a run with no
    /// model (`--model none`, an unavailable one) never builds the text.
    public func suggest(transcript makeTranscript: () -> String) async -> AssistantResult {
        await suggest(transcriptPart: { _ in TranscriptPart(whole: makeTranscript()) })
    }

    /// Gets suggestions for the transcript that `makePart` gives the start
    /// of (`TranscriptPart`) for the cap it is given (`options.maxCharacters`),
    /// called only once the model is known to be available; the whole
    /// transcript is made only when a keyword the model names is not in that start.
    public func suggest(transcriptPart makePart: (_ maxCharacters: Int) -> TranscriptPart) async -> AssistantResult {
        let gate = AvailabilityGate(provider: availability, clock: clock)
        let state = await gate.waitUntilAvailable(timeout: options.waitForModel)
        if Task.isCancelled { return Self.interrupted(backendName, state) }
        guard state.isAvailable else {
            return AssistantResult(backend: backendName, availability: state, characters: 0, sentCharacters: 0,
                                   truncated: false, attempts: 0, error: nil, suggestions: nil)
        }
        let transcript = makePart(options.maxCharacters)
        let prompt = PromptBuilder(maxCharacters: options.maxCharacters).build(transcript)
        func result(attempts: Int, error: String?, suggestions: Suggestions?) -> AssistantResult {
            AssistantResult(
                backend: backendName, availability: state,
                characters: prompt.characters, sentCharacters: prompt.sentCharacters, truncated: prompt.truncated,
                attempts: attempts, error: error, suggestions: suggestions
            )
        }
        if prompt.transcript.allSatisfy({ $0.isWhitespace || $0.isNewline }) {
            let message = "The captions hold no text to send to the model."
            return result(attempts: 0, error: message, suggestions: .allFailed(message))
        }
        // The fake's fixed titles (a test double of the plumbing) are about no transcript: they skip `TitleGround`.
        let decoder = SuggestionDecoder(maxKeywords: options.maxKeywords, groundsTitles: backendName != FakeAssistantModel.backendName)
        let started = ContinuousClock.now
        var cost = ModelCost()
        func finish(_ attempts: Int, _ error: String?, _ suggestions: Suggestions) -> AssistantResult {
            var r = result(attempts: attempts, error: error, suggestions: suggestions)
            cost.seconds = Self.seconds(ContinuousClock.now - started)
            r.cost = cost
            return r
        }
        /// Time left of the file's bound, nil when there is none.
        func left() -> Duration? {
            options.fileTimeLimit.map { $0 - (ContinuousClock.now - started) }
        }
        var attempts = 0
        var delay = options.retryDelay
        while true {
            attempts += 1
            cost.requests += 1
            do {
                let limit = left().map { min($0, options.timeout) } ?? options.timeout
                let answer = try await ModelCall.answer(model: model, prompt: prompt, timeout: max(limit, .milliseconds(1)))
                cost.add(answer)
                cost.requests -= 1  // counted by the answer itself
                var suggestions = decoder.decode(answer.text, transcript: transcript.start, sent: prompt.text, whole: transcript.whole)
                // Fields whose repairs in this run have not helped are not asked for again; their reason says so.
                var stopped = suggestions.answerError == nil
                    ? options.actions.filter { suggestions.failureMessage($0) != nil && !repairHistory.mayRepair($0) } : []
                if options.repairs {
                    for field in stopped { suggestions.note(repairHistory.stoppedNote(field), on: field) }
                    // Titles too far from usable are not repaired (`titlesTooFarToRepair`).
                    if options.actions.contains(.titles), !stopped.contains(.titles), Self.titlesTooFarToRepair(suggestions) {
                        stopped.append(.titles)
                        suggestions.note(Self.tooFarNote(suggestions), on: .titles)
                    }
                }
                if options.repairs, let repair = Self.repairPrompt(prompt, suggestions, asking: options.actions.subtracting(stopped)) {
                    if let bound = left(), bound <= .zero {
                        // No time left for the repair: the first answer stands.
                    } else {
                        cost.requests += 1
                        let limit = left().map { min($0, options.timeout) } ?? options.timeout
                        if let second = try? await ModelCall.answer(model: model, prompt: repair, timeout: max(limit, .milliseconds(1))) {
                            cost.add(second)
                            cost.requests -= 1
                            let asked = suggestions.answerError == nil ? repair.schema.fields : []
                            suggestions.merge(repair: decoder.decode(second.text, transcript: transcript.start, sent: repair.text, whole: transcript.whole))
                            for field in asked { repairHistory.record(field, madeUsable: suggestions.failureMessage(field) == nil) }
                        }
                        // A repair ended by a stop leaves the file unfinished (finishing it with the first answer would differ from a run not stopped).
                        if Task.isCancelled { return Self.interrupted(backendName, state) }
                    }
                }
                return finish(attempts, suggestions.answerError, suggestions)
            } catch {
                if error is CancellationError || Task.isCancelled { return Self.interrupted(backendName, state) }
                let message = AssistantError.message(for: error)
                let temporary = (error as? any TemporaryError)?.isTemporary ?? false
                let spread = options.retryJitter
                var pause = spread > 0 ? delay * Double.random(in: (1 - spread)...(1 + spread)) : delay
                // A server's Retry-After lengthens the pause up to the longest one; asking for more ends the retries.
                let asked = (error as? any TemporaryError)?.retryAfter
                let waitTooLong = asked.map { $0 > options.maxRetryDelay } ?? false
                if let asked, !waitTooLong { pause = max(pause, asked) }
                let outOfTime = left().map { $0 <= pause } ?? false
                guard temporary, !waitTooLong, attempts < options.maxAttempts, !outOfTime, !Task.isCancelled else {
                    var text = message
                    if attempts > 1 { text += " (after \(attempts) attempts)" }
                    if temporary, waitTooLong, let asked, attempts < options.maxAttempts, !Task.isCancelled {
                        text += " (no further attempt after \(attempts): the server asked to wait \(AssistantOptions.seconds(asked)) (Retry-After), more than the \(AssistantOptions.seconds(options.maxRetryDelay)) a retry waits at most)"
                    }
                    if temporary, outOfTime, let bound = options.fileTimeLimit, attempts < options.maxAttempts, !Task.isCancelled {
                        text += " (no further attempt: the file's model time limit of \(AssistantOptions.seconds(bound)) (\(options.settingNames.spell(.modelTimeLimit))) was reached after \(attempts) attempt\(attempts == 1 ? "" : "s"))"
                    }
                    return finish(attempts, message, .allFailed(text))
                }
                do {
                    try await clock.sleep(for: pause)
                } catch {
                    if Task.isCancelled { return Self.interrupted(backendName, state) }
                    return finish(attempts, message, .allFailed(message))
                }
                delay = min(delay * max(options.retryBackoff, 1), options.maxRetryDelay)
            }
        }
    }

    /// The result of a call the task's cancellation ended (a batch stopped by
    /// Ctrl-C): no suggestions and no cost, `interrupted` set.
    static func interrupted(_ backend: String, _ state: Availability) -> AssistantResult {
        var result = AssistantResult(backend: backend, availability: state, characters: 0, sentCharacters: 0, truncated: false,
                                     attempts: 0, error: "the run was stopped before the model answered", suggestions: nil)
        result.interrupted = true
        return result
    }

    /// The prompt of the one repair request: the same prompt (so the same
    /// transcript and candidates), with which fields were unusable and why
    /// after its request; nil when every field asked for (`actions`) is valid.
    ///
    /// It asks for the unusable fields only (the schema narrowed to them):
    /// the usable ones stand (`Suggestions.merge(repair:)` keeps them), and a
    /// model that writes them again spends completion tokens on nothing (25 of
    /// the ~65 a small model's answer takes, in 24 of 26 files of one measured
    /// run). An answer that was unusable as a whole is asked for whole again.
    static func repairPrompt(_ prompt: AssistantPrompt, _ suggestions: Suggestions,
                             asking actions: Set<AssistantAction> = Set(AssistantAction.allCases)) -> AssistantPrompt? {
        if let whole = suggestions.answerError {
            return prompt.adding("Your previous answer could not be used: \(whole) Answer again with the JSON object only.")
        }
        var problems: [String] = []
        var fields: [(AssistantAction, String)] = []
        if actions.contains(.keywords), let m = suggestions.keywords.failureMessage {
            problems.append("\"keywords\": \(m)")
            fields.append((.keywords, "\"keywords\" (copied exactly from the transcript)"))
        }
        if actions.contains(.titles), let m = suggestions.titles.failureMessage {
            problems.append("\"titles\": \(titlesProblem(suggestions, message: m))")
            fields.append((.titles, "\"titles\" (\(titlesAsked(prompt.schema)))"))
        }
        if actions.contains(.emoji), let m = suggestions.emoji.failureMessage {
            problems.append("\"emoji\": \(m)")
            fields.append((.emoji, "\"emoji\" (one single emoji)"))
        }
        guard !problems.isEmpty else { return nil }
        let asked = fields.count == 1 ? fields[0].1 : fields.dropLast().map(\.1).joined(separator: ", ") + " and " + (fields.last?.1 ?? "")
        return prompt.adding("""
            Your previous answer could not be used: \(problems.joined(separator: " ")) \
            Answer again with a JSON object holding only \(asked).
            """, asking: Set(fields.map(\.0)))
    }

    /// Whether the answer's titles were refused with fewer than all but one of
    /// the three usable (`AnswerSchema.titleCount` − 1): such titles are not
    /// repaired. A repair costs the whole prompt again, and one that must
    /// bring all three or two new usable titles seldom does: in one measured
    /// SmolLM2-135M run (26 files), repairs made titles usable for 2 of 11
    /// files that had none or one usable, against 3 of 6 that needed one
    /// more; repairing every file took it to 1.65 requests and
    /// 760 + 156 tokens per file, past issue 30's bounds (1.56, 697 + 113),
    /// for three more files' titles. An answer with no titles list at all (a
    /// server that ignored the schema) is still repaired.
    static func titlesTooFarToRepair(_ suggestions: Suggestions) -> Bool {
        guard suggestions.titles.value == nil, !suggestions.refusedTitleKinds.isEmpty else { return false }
        return suggestions.usableTitles.count < AnswerSchema.titleCount - 1
    }

    /// Why refused titles too far from usable were not repaired, for the action's reason.
    static func tooFarNote(_ suggestions: Suggestions) -> String {
        let usable = suggestions.usableTitles.count
        return "Not repaired: \(usable) usable title\(usable == 1 ? "" : "s") came back, and titles are repaired only when one more is needed."
    }

    /// What was wrong with the titles, as a repair request says it: how many
    /// were usable, and what the others were refused for, by kind and without
    /// the titles themselves (`Suggestions.refusedTitleKinds`); `message`
    /// when no title was refused (no list, too few titles given).
    ///
    /// The report keeps the full reason, titles quoted. Sent the refused
    /// titles, SmolLM2-135M wrote at least one of them again in 14 and 16 of 17
    /// repairs (two seeds, replaying one measured run's first answers) and
    /// once wrote the reason itself as a title.
    static func titlesProblem(_ suggestions: Suggestions, message: String) -> String {
        let kinds = suggestions.refusedTitleKinds
        guard !kinds.isEmpty else { return message }
        var counted: [(kind: String, count: Int)] = []
        for kind in kinds {
            if let i = counted.firstIndex(where: { $0.kind == kind }) { counted[i].count += 1 } else { counted.append((kind, 1)) }
        }
        let usable = suggestions.usableTitles.count
        let refused = counted.map { "\($0.kind) (\($0.count))" }.joined(separator: ", ")
        return "\(usable) of your titles \(usable == 1 ? "was" : "were") usable and \(AnswerSchema.titleCount) are needed; \(kinds.count) \(kinds.count == 1 ? "was" : "were") refused: \(refused)."
    }

    /// The titles a repair request asks for: new ones, each naming the topic
    /// with an important word of the transcript, three of which it names (the
    /// most frequent single-word keyword candidates, `AnswerSchema.keywords`):
    /// "shares no word with the captions" is the refusal a small model earns
    /// most (30 of 67 refusals in one measured run).
    static func titlesAsked(_ schema: AnswerSchema) -> String {
        let words = schema.keywords.filter { !$0.contains(" ") }.prefix(3).map { "“\($0)”" }
        var asked = "\(AnswerSchema.titleCandidates) new titles, each a headline of 2 to \(TitleCheck.maximumWords) words that names the topic with an important word of the transcript"
        switch words.count {
        case 0: break
        case 1: asked += " such as " + words[0]
        default: asked += " such as " + words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
        }
        return asked
    }

    static func seconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}
