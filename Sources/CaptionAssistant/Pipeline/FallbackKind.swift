/// Where a run takes content from when no model answers for a file (none
/// available, or its answer failed or was unusable for an action).
///
/// Off unless asked for: without it, such actions are disabled or failed,
/// and the report is as it always was. With it, the content is still only
/// ever what the captions hold (keywords and titles taken from the
/// transcript) or one emoji from the CLDR table, and each action it gave says
/// `"source": "fallback"`, apart from the model's in every count.
public enum FallbackKind: String, Sendable, Hashable, CaseIterable {
    /// Content taken from the transcript on this machine (`LocalFallback`):
    /// its most frequent content words, an emoji whose CLDR annotation is one
    /// of its words, and three titles cut from its sentences.
    case local
}
