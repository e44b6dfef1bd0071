import Assistant
/// One of the three actions as the report lists it.
public struct ActionReport: Sendable, Equatable {
    /// Which action, in report order.
    public enum ID: String, Sendable, CaseIterable {
        /// Emphasise the keywords in the captions.
        case keywordEmphasis
        /// Suggest three titles (in the report only).
        case titles
        /// Append one emoji to the last cue.
        case emoji

        /// The label shown for the action.
        public var label: String {
            switch self {
            case .keywordEmphasis: return "Emphasize keywords"
            case .titles: return "Suggest titles"
            case .emoji: return "Add emoji"
            }
        }
    }

    /// What happened to the action.
    public enum State: String, Sendable {
        /// The model's suggestion was validated and used.
        case applied
        /// The action could not be done; `reason` says why.
        case failed
        /// No model was available, so the action was not tried.
        case disabled
    }

    /// Which action.
    public var id: ID
    /// What happened.
    public var state: State
    /// Why it failed (only for `failed`).
    public var reason: String?
    /// The action's own fields (`keywords`, `titles`, `emoji`, …), in order.
    public var details: [(String, JSONValue)]

    /// Creates an action entry.
    public init(id: ID, state: State, reason: String? = nil, details: [(String, JSONValue)] = []) {
        self.id = id; self.state = state; self.reason = reason; self.details = details
    }

    /// A disabled action.
    public static func disabled(_ id: ID) -> ActionReport { ActionReport(id: id, state: .disabled) }

    /// The entry as JSON: `id`, `label`, `state`, then `reason` when failed, then the details.
    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = [("id", .string(id.rawValue)), ("label", .string(id.label)),
                                            ("state", .string(state.rawValue))]
        if let reason { pairs.append(("reason", .string(reason))) }
        pairs += details
        return .object(pairs)
    }

    public static func == (lhs: ActionReport, rhs: ActionReport) -> Bool { lhs.json == rhs.json }
}
