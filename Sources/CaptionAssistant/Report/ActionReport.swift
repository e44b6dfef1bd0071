import Assistant
import JSON

/// One of the three actions as the report lists it.
public struct ActionReport: Sendable, Equatable {
    /// What happened to the action.
    public enum State: String, Sendable, CaseIterable, ReportName {
        /// The model's suggestion was validated and used.
        case applied
        /// The action could not be done; `reason` says why.
        case failed
        /// No model was available, so the action was not tried.
        case disabled
        /// The run did not ask for the action (its `reason` says which it asked for).
        case notRequested
    }

    /// Where an applied action's content came from.
    public enum Source: String, Sendable, CaseIterable, ReportName {
        /// The model's answer (not written: an action says its source only when it is not the model).
        case model
        /// The transcript itself, taken when no model answered (the fallback the run asked for).
        case fallback
        /// An earlier run's result from a real model, kept in this output:
        /// this run's model gave nothing usable for the action, or the run did
        /// not ask for it (`reason` says which), and only a real model's result
        /// replaces a real model's (see `EarlierOutput`).
        case earlier
    }

    /// Which action (`id` in the report: `AssistantAction.reportName`).
    public var id: AssistantAction
    /// What happened.
    public var state: State
    /// Where the content came from: the model, the fallback, or an earlier
    /// run's model (`"source": "fallback"` or `"earlier"`, written only then).
    public var source = Source.model
    /// Why it failed, or was not requested; for content from the fallback or
    /// an earlier run, why this run's model's was not used (when the model
    /// answered, but not usably, or the run did not ask for the action).
    public var reason: String?
    /// The keywords emphasised (keyword emphasis, applied).
    public var keywords: [String]?
    /// How many places they were emphasised in (keyword emphasis, applied).
    public var occurrences: Int?
    /// How many places they were found in but left plain by the emphasis
    /// density asked for (`EmphasisDensity`); nil when every occurrence is emphasised.
    public var occurrencesLeft: Int?
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
    public init(id: AssistantAction, state: State, reason: String? = nil) {
        self.id = id; self.state = state; self.reason = reason
    }

    /// A disabled action.
    public static func disabled(_ id: AssistantAction) -> ActionReport { ActionReport(id: id, state: .disabled) }

    /// An action the run did not ask for; `reason` says so (and which were asked for).
    public static func notRequested(_ id: AssistantAction, reason: String) -> ActionReport {
        ActionReport(id: id, state: .notRequested, reason: reason)
    }

    /// The entry as JSON: `id`, `label`, `state`, `source` when not the model, then `reason`, then the action's own fields.
    public var json: JSONValue { reportJSON }
}

extension ActionReport: ReportObject {
    package static let blank = ActionReport(id: .keywords, state: .failed)

    /// An action's entry: the one table of its keys.
    package static let keys: [ReportKey<ActionReport>] = [
        .value(.id, get: { AssistantAction.ReportedID($0.id) }, set: { $0.id = $1.action }),
        .derived(.label) { .string($0.id.label) },
        .value(.state, get: \.state, set: { $0.state = $1 }),
        .value(.source, get: \.source, set: { $0.source = $1 }, writtenIf: { $0.source != .model }),
        .ifPresent(.reason, get: \.reason, set: { $0.reason = $1 }),
        .ifPresent(.keywords, get: \.keywords, set: { $0.keywords = $1 }),
        .ifPresent(.occurrences, get: \.occurrences, set: { $0.occurrences = $1 }),
        .ifPresent(.occurrencesLeft, get: \.occurrencesLeft, set: { $0.occurrencesLeft = $1 }),
        .ifPresent(.dropped, get: \.dropped, set: { $0.dropped = $1 }),
        .ifPresent(.titles, get: \.titles, set: { $0.titles = $1 }),
        .ifPresent(.emoji, get: \.emoji, set: { $0.emoji = $1 }),
        .ifPresent(.cue, get: \.cue, set: { $0.cue = $1 }, check: { $0 >= 1 ? nil : "is not a cue position (they start at 1)" }),
        .value(.repaired, get: \.repaired, set: { $0.repaired = $1 }, writtenIf: { $0.repaired }),
    ]

    /// Read leniently, an action is kept only when its id and state can be read (without them it says nothing).
    package static func lenient(_ json: JSONValue, problems: inout [ReportError]) -> ActionReport? {
        guard let id = json[ReportKeyName.id.rawValue], (try? AssistantAction.ReportedID(reportJSON: id)) != nil,
              let state = json[ReportKeyName.state.rawValue], (try? State(reportJSON: state)) != nil else {
            problems.append(ReportError("has no id or state that can be read, so it is left out"))
            return nil
        }
        return leniently(json, problems: &problems)
    }
}
