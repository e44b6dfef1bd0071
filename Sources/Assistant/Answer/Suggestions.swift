/// The three validated actions from one model answer, with what validation dropped or noticed.
public struct Suggestions: Sendable, Hashable {
    /// Keywords to emphasise, each present as a whole word in the transcript.
    public var keywords: ActionOutcome<[String]>
    /// Exactly three titles.
    public var titles: ActionOutcome<[String]>
    /// Exactly one emoji grapheme.
    public var emoji: ActionOutcome<String>
    /// Things validation fixed on its own (e.g. extra titles dropped).
    public var warnings: [String]
    /// Keywords that were suggested but rejected, with reasons.
    public var droppedKeywords: [DroppedKeyword]
    /// Set when the whole answer was unusable (empty, no JSON, an error): each action failed with this text.
    public var answerError: String?
    /// The answer fields (`keywords`, `titles`, `emoji`) taken from a repair request, not the first answer.
    public var repaired: Set<String> = []
    /// The titles that passed every check, in the answer's order, also when
    /// there were too few of them (then `titles` failed): a repair may add to them.
    public var usableTitles: [String] = []
    /// What each refused title of the answer the titles were last checked in
    /// was refused for, without the title (`ends mid-clause`, `shares no word
    /// with the captions`): what a repair request tells the model.
    public var refusedTitleKinds: [String] = []

    /// Creates a set of outcomes.
    public init(
        keywords: ActionOutcome<[String]>,
        titles: ActionOutcome<[String]>,
        emoji: ActionOutcome<String>,
        warnings: [String] = [],
        droppedKeywords: [DroppedKeyword] = [],
        answerError: String? = nil
    ) {
        self.keywords = keywords
        self.titles = titles
        self.emoji = emoji
        self.warnings = warnings
        self.droppedKeywords = droppedKeywords
        self.answerError = answerError
    }

    /// All three actions failed for the same reason (a thrown error, an empty or undecodable answer).
    public static func allFailed(_ message: String) -> Suggestions {
        Suggestions(keywords: .failed(message), titles: .failed(message), emoji: .failed(message), answerError: message)
    }

    /// Why `field` failed, or nil when it is usable.
    public func failureMessage(_ field: AssistantAction) -> String? {
        switch field {
        case .keywords: keywords.failureMessage
        case .titles: titles.failureMessage
        case .emoji: emoji.failureMessage
        }
    }

    /// Adds `note` to the reason `field` failed with (nothing when it is usable).
    mutating func note(_ note: String, on field: AssistantAction) {
        switch field {
        case .keywords: if let m = keywords.failureMessage { keywords = .failed(m + " " + note) }
        case .titles: if let m = titles.failureMessage { titles = .failed(m + " " + note) }
        case .emoji: if let m = emoji.failureMessage { emoji = .failed(m + " " + note) }
        }
    }

    /// Takes from `repair` each field that failed here and is valid there, and
    /// records it in `repaired`. Titles are three alternatives, each checked on
    /// its own: when they failed here, the usable titles of both answers
    /// together (first this answer's, repeats left out) make them up if there
    /// are three. A field the repair could not make usable either is failed
    /// with the repair's reason: each field's reason is that of the answer it
    /// was finally taken from or refused in (not the first answer's "holds no
    /// JSON object" beside two fields the repair gave).
    mutating func merge(repair: Suggestions) {
        if keywords.value == nil {
            if let v = repair.keywords.value {
                keywords = .applied(v)
                repaired.insert("keywords")
            } else {
                keywords = repair.keywords
            }
            droppedKeywords = repair.droppedKeywords
        }
        if titles.value == nil {
            var pool = usableTitles
            for title in repair.usableTitles where !pool.contains(where: { $0.lowercased() == title.lowercased() }) {
                pool.append(title)
            }
            if pool.count >= AnswerSchema.titleCount {
                titles = .applied(Array(pool.prefix(AnswerSchema.titleCount)))
                repaired.insert("titles")
            } else {
                titles = repair.titles
            }
            usableTitles = pool
            refusedTitleKinds = repair.refusedTitleKinds
        }
        if emoji.value == nil {
            if let v = repair.emoji.value {
                emoji = .applied(v)
                repaired.insert("emoji")
            } else {
                emoji = repair.emoji
            }
        }
        // A first answer unusable as a whole: the error is now the repair's (none when it was a usable answer).
        if answerError != nil { answerError = repair.answerError }
    }
}
