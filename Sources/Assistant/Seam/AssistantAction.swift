/// One of the three things the assistant can be asked for.
///
/// A run may ask for some of them only (the command line's actions option);
/// the others are neither applied nor recorded as the model's, and a field
/// of the answer that is not asked for never sends a repair request. The raw
/// values are the answer's field names and the names a front end lists.
public enum AssistantAction: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Keywords to emphasise in the captions.
    case keywords
    /// Three title suggestions.
    case titles
    /// One emoji after the cue shown last.
    case emoji

    /// In the answer's order: keywords, titles, emoji.
    public static func < (a: AssistantAction, b: AssistantAction) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }
}
