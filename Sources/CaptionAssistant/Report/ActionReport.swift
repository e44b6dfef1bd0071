import Assistant

/// One of the three actions as the report lists it.
public struct ActionReport: Sendable, Equatable {
    /// Which action, in report order.
    public enum ID: String, Sendable, CaseIterable, ReportName {
        /// Emphasise the keywords in the captions.
        case keywordEmphasis
        /// Suggest three titles (in the report only).
        case titles
        /// Append one emoji to the cue shown last.
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
    public enum State: String, Sendable, CaseIterable, ReportName {
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
    /// The keywords emphasised (keyword emphasis, applied).
    public var keywords: [String]?
    /// How many places they were emphasised in (keyword emphasis, applied).
    public var occurrences: Int?
    /// The keywords the model suggested that were not used, and why.
    public var dropped: [DroppedKeyword]?
    /// The three titles (titles, applied).
    public var titles: [String]?
    /// The emoji added (emoji, applied).
    public var emoji: String?
    /// Where the emoji went: the position of the cue in the file, from 1, in
    /// file order (not the SRT's own cue number): the cue shown last in time.
    public var cue: Int?
    /// Whether the answer that gave this action came from the repair request.
    public var repaired = false

    /// Creates an action entry.
    public init(id: ID, state: State, reason: String? = nil) {
        self.id = id; self.state = state; self.reason = reason
    }

    /// A disabled action.
    public static func disabled(_ id: ID) -> ActionReport { ActionReport(id: id, state: .disabled) }

    /// The entry as JSON: `id`, `label`, `state`, then `reason` when failed, then the action's own fields.
    public var json: JSONValue { reportJSON }
}

extension ActionReport: ReportObject {
    package static let blank = ActionReport(id: .keywordEmphasis, state: .failed)

    /// An action's entry: the one table of its keys.
    package static let keys: [ReportKey<ActionReport>] = [
        .value(.id, \.id),
        .derived(.label) { .string($0.id.label) },
        .value(.state, \.state),
        .ifPresent(.reason, \.reason),
        .ifPresent(.keywords, \.keywords),
        .ifPresent(.occurrences, \.occurrences),
        .ifPresent(.dropped, \.dropped),
        .ifPresent(.titles, \.titles),
        .ifPresent(.emoji, \.emoji),
        .ifPresent(.cue, \.cue, check: { $0 >= 1 ? nil : "is not a cue position (they start at 1)" }),
        .value(.repaired, \.repaired, writtenIf: { $0.repaired }),
    ]

    /// Read leniently, an action is kept only when its id and state can be read (without them it says nothing).
    package static func lenient(_ json: JSONValue, problems: inout [ReportError]) -> ActionReport? {
        guard let id = json[ReportKeyName.id.rawValue], (try? ID(reportJSON: id)) != nil,
              let state = json[ReportKeyName.state.rawValue], (try? State(reportJSON: state)) != nil else {
            problems.append(ReportError("has no id or state that can be read, so it is left out"))
            return nil
        }
        return leniently(json, problems: &problems)
    }
}
