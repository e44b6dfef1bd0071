import Assistant

/// The outcome of one suggestion action: applied with its value, failed with
/// a reason, or disabled because no model could be asked.
public enum ActionOutcome<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The model's suggestion passed validation.
    case applied(Value)
    /// The action could not be done; the reason says why, in words a person can read.
    case failed(String)
    /// No model was available, so the action was not tried.
    case disabled
}

/// How much of the transcript the model was sent.
public struct TranscriptStats: Sendable, Equatable {
    /// The transcript's length in Swift `Character`s.
    public var characters: Int
    /// How many of them were sent (after the cap); 0 when nothing was sent.
    public var sentCharacters: Int
    /// Whether the cap cut the transcript.
    public var truncated: Bool

    /// Creates the figures.
    public init(characters: Int, sentCharacters: Int, truncated: Bool) {
        self.characters = characters; self.sentCharacters = sentCharacters; self.truncated = truncated
    }
}

/// Everything the assistant said (or could not say) about one transcript.
public struct Suggestions: Sendable, Equatable {
    /// The availability read just before this file.
    public var availability: Availability
    /// How much of the transcript was sent.
    public var transcript: TranscriptStats
    /// Keywords to emphasise (validated: present in the transcript).
    public var keywords: ActionOutcome<[String]>
    /// Exactly three titles.
    public var titles: ActionOutcome<[String]>
    /// One emoji.
    public var emoji: ActionOutcome<String>
    /// Repairs the decoder made (for example, extra titles dropped).
    public var warnings: [String]
    /// The model's real error text when the call itself failed.
    public var error: String?

    /// Creates an outcome.
    public init(availability: Availability, transcript: TranscriptStats, keywords: ActionOutcome<[String]>,
                titles: ActionOutcome<[String]>, emoji: ActionOutcome<String>, warnings: [String] = [], error: String? = nil) {
        self.availability = availability; self.transcript = transcript; self.keywords = keywords
        self.titles = titles; self.emoji = emoji; self.warnings = warnings; self.error = error
    }

    /// The outcome when no model could be asked: all three actions disabled.
    public static func unavailable(_ reason: UnavailableReason, characters: Int) -> Suggestions {
        Suggestions(availability: .unavailable(reason),
                    transcript: TranscriptStats(characters: characters, sentCharacters: 0, truncated: false),
                    keywords: .disabled, titles: .disabled, emoji: .disabled)
    }
}

/// What the pipeline asks of the assistant, once per file.
///
/// The real implementation wraps `AssistantService` (availability, prompt,
/// model, decoding and validation); tests give their own.
public protocol SuggestionSource: Sendable {
    /// Reads the availability now (for `--require-model` and `check`).
    func currentAvailability() async -> Availability
    /// Re-reads availability and, when the model is available, asks it about `transcript`.
    func suggestions(for transcript: String) async -> Suggestions
}
