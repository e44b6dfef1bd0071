import Assistant
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
        /// Inputs a stopped batch (SIGINT, SIGTERM) never started: neither
        /// written nor failed, and their actions are not counted as failed.
        public var notProcessed = 0
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
        /// What the model calls cost in all (real models only; zero requests otherwise).
        public var cost = ModelCost()
        /// Files where the model was available and gave a usable answer (no model error).
        public var answered = 0

        /// Counts `file` in.
        public mutating func add(_ file: FileReport) {
            files += 1
            if file.written {
                written += 1
            } else if file.error == FileProcessor.notProcessedError {
                notProcessed += 1
                return
            } else {
                failed += 1
            }
            if case .unavailable? = file.model.availability { unavailable += 1 }
            for a in file.actions {
                switch a.state {
                case .applied: applied += 1
                case .failed: actionsFailed += 1
                case .disabled: disabled += 1
                }
                if a.id == .keywordEmphasis, case .int(let n)? = a.details.first(where: { $0.0 == "occurrences" })?.1 {
                    keywordOccurrences += n
                }
            }
            cues += file.cues ?? 0
            warnings += file.warnings.count
            if let c = file.model.cost { cost.add(c) }
            if case .available? = file.model.availability, file.error == nil, file.written { answered += 1 }
        }
    }

    /// The totals.
    public var totals: Totals {
        var t = Totals()
        for f in files { t.add(f) }
        return t
    }

    /// `{"schemaVersion": 1, "files": [...], "totals": {...}}`.
    var json: JSONValue {
        .object([("schemaVersion", .int(1)), ("files", .array(files.map(\.json))), ("totals", totals.json)])
    }

    /// `json.renderedBytes()`, written one file entry at a time, so a large
    /// batch never holds the JSON tree of every file at once.
    func renderedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(files.count * 1024 + 512)
        out += Self.opening
        for (i, file) in files.enumerated() {
            out += Self.separator(first: i == 0)
            file.json.write(to: &out, indent: 4)
        }
        out += Self.closing(totals, empty: files.isEmpty)
        return out
    }

    // The pieces of `report.json` around the entries, shared with the batch
    // runner, which writes the file from entries spooled to disk.

    /// Everything before the first entry.
    static let opening = Array("{\n  \"schemaVersion\": 1,\n  \"files\": [".utf8)

    /// What comes before an entry.
    static func separator(first: Bool) -> [UInt8] { Array((first ? "\n    " : ",\n    ").utf8) }

    /// Everything after the last entry.
    static func closing(_ totals: Totals, empty: Bool) -> [UInt8] {
        var out = Array(((empty ? "]" : "\n  ]") + ",\n  \"totals\": ").utf8)
        totals.json.write(to: &out, indent: 2)
        out += Array("\n}\n".utf8)
        return out
    }

    /// A file's entry as `report.json` holds it: `json` (its sidecar's tree) written four spaces in.
    static func entry(_ json: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        json.write(to: &out, indent: 4)
        return out
    }
}

extension BatchReport.Totals {
    /// `report.json`'s `totals`.
    var json: JSONValue {
        .object([
            ("files", .int(files)), ("written", .int(written)), ("failed", .int(failed)),
            ("notProcessed", .int(notProcessed)), ("modelUnavailable", .int(unavailable)),
            ("actions", .object([("applied", .int(applied)), ("failed", .int(actionsFailed)),
                                 ("disabled", .int(disabled))])),
            ("cues", .int(cues)), ("keywordOccurrences", .int(keywordOccurrences)),
            ("warnings", .int(warnings)),
        ] + (cost.requests > 0 ? [("model", cost.json)] : []))
    }
}
