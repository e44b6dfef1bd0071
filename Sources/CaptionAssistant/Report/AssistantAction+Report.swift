import Assistant
import JSON

/// The one action value (`AssistantAction`) as reports and review pages show it.
extension AssistantAction {
    /// The name an action entry's `id` gives it: `keywordEmphasis`, `titles`, `emoji`
    /// (the report's words, older than the answer's field names `--actions` takes).
    public var reportName: String {
        switch self {
        case .keywords: return "keywordEmphasis"
        case .titles: return "titles"
        case .emoji: return "emoji"
        }
    }

    /// The label shown for the action.
    public var label: String {
        switch self {
        case .keywords: return "Emphasize keywords"
        case .titles: return "Suggest titles"
        case .emoji: return "Add emoji"
        }
    }

    /// Whether the action edits the caption file (keyword emphasis and the
    /// emoji do; titles live in the report only).
    public var editsCaptions: Bool { self != .titles }

    /// The action an entry's `id` names, as a report value.
    struct ReportedID: ReportValue {
        let action: AssistantAction

        var reportJSON: JSONValue { .string(action.reportName) }

        init(_ action: AssistantAction) { self.action = action }

        init(reportJSON json: JSONValue) throws(ReportError) {
            guard case .string(let s) = json else { throw ReportError("is not a string") }
            guard let action = AssistantAction.allCases.first(where: { $0.reportName == s }) else {
                throw ReportError("is \(JSONValue.string(s).oneLine(spaced: true)), not one of \(AssistantAction.allCases.map(\.reportName).joined(separator: ", "))")
            }
            self.action = action
        }
    }
}
