import Assistant

extension BatchSummary {
    /// A file that was written but whose actions were not all applied: each
    /// action that failed or was disabled, grouped by what befell it.
    ///
    /// The summary's lines and `--json`'s `notApplied` are made from it, so
    /// the terminal and a CI job read the same account of the same files.
    public struct NotApplied: Sendable, Equatable {
        /// The input as the user named it.
        public var input: String
        /// The actions that failed or were disabled, grouped by state and reason, in report order.
        public var groups: [Group]

        /// Actions of one file that came to the same end for the same reason.
        public struct Group: Sendable, Equatable {
            /// The actions, in report order.
            public var actions: [AssistantAction]
            /// `failed` or `disabled`.
            public var state: ActionReport.State
            /// Why (the action's reason, or for a disabled one the reason row).
            public var reason: String
            /// What the person can do, when the report says (an unavailable model's remedy).
            public var remedy: String?
        }

        /// What `file` says of its actions that failed or were disabled; nil when
        /// there are none, or when the file's outcome is not `written` (a file
        /// that failed is listed with the failures, one kept with the kept outputs).
        public init?(_ file: FileReport) {
            guard Self.lists(file) else { return nil }
            var remedy: String?
            if case .unavailable(let info)? = file.model.availability, !info.remedy.isEmpty { remedy = info.remedy }
            var groups: [Group] = []
            for action in file.actions where action.state == .failed || action.state == .disabled {
                let reason = action.reason ?? (action.state == .disabled ? file.reasonRow : file.error ?? file.reasonRow) ?? "the report gives no reason"
                let id = action.id
                if let at = groups.firstIndex(where: { $0.state == action.state && $0.reason == reason }) {
                    groups[at].actions.append(id)
                } else {
                    groups.append(Group(actions: [id], state: action.state, reason: reason,
                                        remedy: action.state == .disabled ? remedy : nil))
                }
            }
            guard !groups.isEmpty else { return nil }
            input = file.input
            self.groups = groups
        }

        /// Whether `file` has an entry (`init` gives one), asked without making it:
        /// written, with an action that failed or was disabled.
        static func lists(_ file: FileReport) -> Bool {
            file.outcome == .written && file.actions.contains { $0.state == .failed || $0.state == .disabled }
        }
    }

    /// How many files with actions not applied the summary lists (`notApplied`); the rest are counted.
    public static let notAppliedListed = 20

    /// Counts `file` among the files with actions not applied, listing it
    /// while fewer than `notAppliedListed` are; returns whether it was listed.
    mutating func noteNotApplied(_ file: FileReport) -> Bool {
        // Once the list is full (every file of a run without a model has an entry), the entry is not made.
        guard NotApplied.lists(file) else { return false }
        notAppliedFiles += 1
        guard notApplied.count < Self.notAppliedListed, let entry = NotApplied(file) else { return false }
        notApplied.append(entry)
        return true
    }
}
