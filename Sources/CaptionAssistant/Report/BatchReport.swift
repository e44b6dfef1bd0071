import JSON

/// The batch report's figures: `report.json`'s `totals` and their action counts.
///
/// `{"schemaVersion": 1, "files": [...], "totals": {...}}`: the entries
/// inside `ReportEnvelope`, which declares the keys around them (a shard's
/// report part adds its own) and writes and reads them one entry at a time.
public enum BatchReport {
    /// Figures for the whole batch, every one counted from the entries (`add`).
    public struct Totals: Sendable, Equatable {
        /// Inputs in the batch.
        public var files = 0
        /// Files whose caption and sidecar are in the output folder as their
        /// entry says: written by the run, skipped by `--resume`, or kept.
        public var written = 0
        /// Of `written`, the outputs an earlier run made with the model that this run kept (see `KeptOutput`).
        public var kept = 0
        /// Inputs that could not be read or written (a caption whose sidecar could not be written included).
        public var failed = 0
        /// Inputs a stopped batch (SIGINT, SIGTERM) never started: neither
        /// written nor failed, and their actions are not counted as failed.
        public var notProcessed = 0
        /// Files whose actions were disabled (no model).
        public var modelUnavailable = 0
        /// Actions by state.
        public var actions = ActionCounts()
        /// Cues read in all.
        public var cues = 0
        /// Keyword occurrences emphasised in all.
        public var keywordOccurrences = 0
        /// Keyword occurrences found but left plain by the emphasis density
        /// in all; nil when no entry records any (every occurrence emphasised).
        public var keywordOccurrencesLeft: Int?
        /// Reader warnings in all.
        public var warnings = 0
        /// What the model calls cost in all (real models only; nil when no file records a cost).
        public var cost: ReportCost?

        /// No files yet.
        public init() {}

        /// Counts `file` in: the one place a total is derived from an entry.
        /// The numbers an entry states (cues, occurrences, cost) are added
        /// with checked arithmetic: one too large to add is an error naming
        /// the entry's field, never a trap (nothing changes then). The counts
        /// of entries and actions grow by one per item read, so they cannot.
        public mutating func add(_ file: FileReport) throws(ReportError) {
            var t = self
            t.files += 1
            switch file.outcome {
            case .written: t.written += 1
            case .kept: t.written += 1; t.kept += 1
            case .failed: t.failed += 1
            case .notProcessed:
                t.notProcessed += 1
                self = t
                return
            }
            if case .unavailable? = file.model.availability { t.modelUnavailable += 1 }
            for (i, a) in file.actions.enumerated() {
                // An output kept whole is the earlier run's: what it applied, this run kept.
                t.actions.count(a, keptWhole: file.outcome == .kept)
                if a.id == .keywords, let n = a.occurrences {
                    do { t.keywordOccurrences = try t.keywordOccurrences.adding(n) } catch {
                        throw error.under(.occurrences).at(i).under(.actions)
                    }
                }
                if a.id == .keywords, let n = a.occurrencesLeft {
                    do { t.keywordOccurrencesLeft = try (t.keywordOccurrencesLeft ?? 0).adding(n) } catch {
                        throw error.under(.occurrencesLeft).at(i).under(.actions)
                    }
                }
            }
            do { t.cues = try t.cues.adding(file.cues ?? 0) } catch { throw error.under(.cues) }
            t.warnings += file.warnings.count
            if let c = file.model.cost {
                var sum = t.cost ?? ReportCost()
                do { try sum.add(c) } catch { throw error.under(.cost).under(.model) }
                t.cost = sum
            }
            self = t
        }
    }

    /// Actions by state, with the content from the fallback, and that kept
    /// from an earlier run's model, counted apart from this run's model's.
    public struct ActionCounts: Sendable, Equatable {
        /// Actions applied with the model's content.
        public var applied = 0
        /// Actions that failed.
        public var failed = 0
        /// Actions disabled (no model).
        public var disabled = 0
        /// Actions the run did not ask for (written only when there are any).
        public var notRequested = 0
        /// Actions applied with content from the fallback (the transcript
        /// itself), not counted in `applied` (written only when there are any).
        public var fallback = 0
        /// Actions whose content an earlier run's model gave, kept by this run
        /// (`"source": "earlier"`, or an output kept whole), not counted in
        /// `applied` (written only when there are any).
        public var kept = 0

        /// None yet.
        public init() {}

        /// Counts `action` in, by its state and, when applied, its source
        /// (`keptWhole`: it is in an output this run kept whole).
        mutating func count(_ action: ActionReport, keptWhole: Bool = false) {
            switch action.state {
            case .applied:
                if keptWhole || action.source == .earlier { kept += 1 } else if action.source == .fallback { fallback += 1 } else { applied += 1 }
            case .failed: failed += 1
            case .disabled: disabled += 1
            case .notRequested: notRequested += 1
            }
        }

        /// The counts in words, as the summaries print them: `9 applied, 0 failed, 0 disabled`,
        /// then `3 from the fallback`, `6 kept from an earlier run` and `2 not requested` when there are any.
        package var summary: String {
            var text = "\(applied) applied, \(failed) failed, \(disabled) disabled"
            if fallback > 0 { text += ", \(fallback) from the fallback" }
            if kept > 0 { text += ", \(kept) kept from an earlier run" }
            if notRequested > 0 { text += ", \(notRequested) not requested" }
            return text
        }
    }
}

extension BatchReport.Totals: ReportObject {
    package static let blank = BatchReport.Totals()

    /// `report.json`'s `totals`: the one table of its keys.
    package static let keys: [ReportKey<BatchReport.Totals>] = [
        .value(.files, \.files), .value(.written, \.written),
        // Written only when there are any, so reports of runs that kept nothing are as they were.
        .value(.kept, \.kept, writtenIf: { $0.kept > 0 }),
        .value(.failed, \.failed),
        .value(.notProcessed, \.notProcessed), .value(.modelUnavailable, \.modelUnavailable),
        .value(.actions, \.actions),
        .value(.cues, \.cues), .value(.keywordOccurrences, \.keywordOccurrences),
        .ifPresent(.keywordOccurrencesLeft, \.keywordOccurrencesLeft), .value(.warnings, \.warnings),
        .ifPresent(.model, \.cost),
    ]
}

extension BatchReport.Totals {
    /// Every file has one outcome: the written (kept among them), failed and
    /// not processed add up to the files (checked without overflow).
    package func validated() throws(ReportError) {
        let (sum, o1) = written.addingReportingOverflow(failed)
        let (all, o2) = sum.addingReportingOverflow(notProcessed)
        guard !o1, !o2, all == files else {
            throw ReportError("is not written + failed + notProcessed (\(written) + \(failed) + \(notProcessed))").under(.files)
        }
        guard kept <= written else { throw ReportError("is more than written (\(written))").under(.kept) }
    }
}

extension BatchReport.ActionCounts: ReportObject {
    package static let blank = BatchReport.ActionCounts()

    package static let keys: [ReportKey<BatchReport.ActionCounts>] = [
        .value(.applied, \.applied), .value(.failed, \.failed), .value(.disabled, \.disabled),
        // Written only when there are any, so reports of runs without --actions or --fallback are as they were.
        .value(.notRequested, \.notRequested, writtenIf: { $0.notRequested > 0 }),
        .value(.fallback, \.fallback, writtenIf: { $0.fallback > 0 }),
        .value(.kept, \.kept, writtenIf: { $0.kept > 0 }),
    ]
}
