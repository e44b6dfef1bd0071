/// The batch report, `report.json`: every file's entry in input order, and totals.
public struct BatchReport: Sendable {
    /// One entry per input, in the order the inputs were listed and found.
    public var files: [FileReport]

    /// Creates a report.
    public init(files: [FileReport]) { self.files = files }

    /// Figures for the whole batch.
    public struct Totals: Sendable, Equatable {
        /// Inputs in the batch.
        public var files = 0
        /// Caption files written.
        public var written = 0
        /// Inputs that could not be read or written.
        public var failed = 0
        /// Files whose actions were disabled (no model).
        public var unavailable = 0
        /// Actions by state.
        public var applied = 0, actionsFailed = 0, disabled = 0
        /// Cues read in all.
        public var cues = 0
        /// Keyword occurrences emphasised in all.
        public var keywordOccurrences = 0
        /// Reader warnings in all.
        public var warnings = 0
    }

    /// The totals.
    public var totals: Totals {
        var t = Totals()
        for f in files {
            t.files += 1
            if f.written { t.written += 1 }
            if !f.written { t.failed += 1 }
            if case .unavailable? = f.model.availability { t.unavailable += 1 }
            for a in f.actions {
                switch a.state {
                case .applied: t.applied += 1
                case .failed: t.actionsFailed += 1
                case .disabled: t.disabled += 1
                }
                if a.id == .keywordEmphasis, case .int(let n)? = a.details.first(where: { $0.0 == "occurrences" })?.1 {
                    t.keywordOccurrences += n
                }
            }
            t.cues += f.cues ?? 0
            t.warnings += f.warnings.count
        }
        return t
    }

    /// `{"schemaVersion": 1, "files": [...], "totals": {...}}`.
    public var json: JSONValue {
        let t = totals
        return .object([
            ("schemaVersion", .int(1)),
            ("files", .array(files.map(\.json))),
            ("totals", .object([
                ("files", .int(t.files)), ("written", .int(t.written)), ("failed", .int(t.failed)),
                ("modelUnavailable", .int(t.unavailable)),
                ("actions", .object([("applied", .int(t.applied)), ("failed", .int(t.actionsFailed)),
                                     ("disabled", .int(t.disabled))])),
                ("cues", .int(t.cues)), ("keywordOccurrences", .int(t.keywordOccurrences)),
                ("warnings", .int(t.warnings)),
            ])),
        ])
    }
}
