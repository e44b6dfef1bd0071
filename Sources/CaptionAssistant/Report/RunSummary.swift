import Assistant
import JSON

/// The machine-readable summary that `process`, `merge` and `review` print
/// with `--json`, declared once (`keys`): each command fills in what it has,
/// and a key without a value is left out.
package struct RunSummary: Sendable, Equatable {
    /// A shard's run: which shard, and its files in the plan.
    package var shard: ShardFigures?
    /// `merge`: the shard count.
    package var shards: Int?
    /// `merge`: the shards that have no report part.
    package var missing: [Int]?
    /// `merge`: the shards that were stopped before the end.
    package var stopped: [Int]?
    /// Files in the run (`review`: the files reviewed).
    package var files: Int?
    /// Caption files written by this run.
    package var written: Int?
    /// Files that failed.
    package var failed: Int?
    /// Files whose model was unavailable.
    package var modelUnavailable: Int?
    /// Actions by state.
    package var actions: BatchReport.ActionCounts?
    /// Reader warnings.
    package var warnings: Int?
    /// The files whose transcript was cut at the cap, and how much of their text was sent (when there are any).
    package var transcriptsCut: BatchSummary.CutTranscripts?
    /// Each distinct reason the model was unavailable, with its reason row, by name.
    package var unavailableReasons: [ReasonRow]?
    /// Each distinct error a model gave, with how many files had it, the most frequent first.
    package var modelErrors: [ModelError]?
    /// The files written with an action failed or disabled (the first
    /// `BatchSummary.notAppliedListed`), each action with why, and how many such files there were.
    package var notApplied: [NotAppliedFile]?
    /// How many files were written with an action failed or disabled (when there are any).
    package var notAppliedFiles: Int?
    /// What this run's model calls cost (after `--resume`, not those of the files skipped).
    package var model: ReportCost?
    /// The batch's wall time in milliseconds, beside the model's cost (whose time is summed over requests in flight together).
    package var wallMilliseconds: Int?
    /// What the model calls of the files `--resume` skipped cost the earlier runs.
    package var earlierModel: ReportCost?
    /// Files `--resume` skipped.
    package var skipped: Int?
    /// Outputs an earlier run made with the model that this run kept (not counted as written by this run), and why.
    package var kept: [OutputNote]?
    /// Outputs an earlier run made with the model that this run replaced by ones made without, and why.
    package var replaced: [OutputNote]?
    /// Outputs this run wrote that kept some results an earlier run's model gave: `{"input", "actions"}`.
    package var keptResults: [BatchSummary.KeptResults]?
    /// Files a stopped run did not process.
    package var notProcessed: Int?
    /// `review`: the index pages written.
    package var indexPages: Int?
    /// `review`: where the index is.
    package var index: String?
    /// The report written (`.some(nil)`: none was, which is said as `null`).
    package var report: String??
    /// The exit status.
    package var exitStatus: Int?

    /// A shard's run: `{"index", "count", "files", "first", "planFiles"}`.
    package struct ShardFigures: Sendable, Equatable {
        /// Which shard, from 0, of how many.
        package var index = 0, count = 0
        /// Its files, and the plan index of its first.
        package var files = 0, first = 0
        /// Files in the whole plan.
        package var planFiles = 0
    }

    /// A reason the model was unavailable: `{"reason", "reasonRow"}`.
    package struct ReasonRow: Sendable, Equatable {
        /// The reason's name.
        package var reason = ""
        /// Its reason row.
        package var reasonRow = ""
    }

    /// An error a model gave: `{"error", "files"}`.
    package struct ModelError: Sendable, Equatable {
        /// The error text.
        package var error = ""
        /// How many files had it.
        package var files = 0
    }

    /// A file written with an action failed or disabled: `{"input", "actions"}`.
    package struct NotAppliedFile: Sendable, Equatable {
        /// The input as named.
        package var input = ""
        /// Each action that failed or was disabled.
        package var actions: [NotAppliedAction] = []

        /// The file as the summary lists it, one action at a time.
        package init(_ file: BatchSummary.NotApplied) {
            input = file.input
            actions = file.groups.flatMap { group in
                group.actions.map { NotAppliedAction(id: $0, state: group.state, reason: group.reason, remedy: group.remedy) }
            }
        }

        init() {}
    }

    /// An action not applied: `{"id", "state", "reason"}`, and `remedy` when the report gives one.
    package struct NotAppliedAction: Sendable, Equatable {
        /// Which action, as the report names it.
        package var id = AssistantAction.keywords
        /// `failed` or `disabled`.
        package var state = ActionReport.State.failed
        /// Why.
        package var reason = ""
        /// What the person can do.
        package var remedy: String?
    }

    /// An output kept or replaced: `{"input", "because"}`, where `because` is
    /// what this run's model did (`KeptOutput.cause`: the reason it was unavailable, `modelFailed`, `fakeModel`), or why
    /// the earlier output was replaced (`ReplacedOutput.Reason`).
    package struct OutputNote: Sendable, Equatable {
        /// The input as named.
        package var input = ""
        /// Why, as a name.
        package var because = ""

        /// The note of a kept output.
        package init(_ kept: BatchSummary.Kept) {
            input = kept.input
            because = kept.record.cause
        }

        /// The note of a replaced output.
        package init(_ replaced: BatchSummary.Replaced) {
            input = replaced.input
            because = replaced.record.because.rawValue
        }

        init() {}
    }

    /// Nothing yet.
    package init() {}

    /// The file counts a run's summaries give: written by this run, skipped
    /// by `--resume`, kept from an earlier run, failed, and not processed (a
    /// stopped run), which add up to `files`.
    package struct FileCounts: Sendable, Equatable {
        /// Files in the run, and each outcome.
        package var files, written, skipped, kept, failed, notProcessed: Int

        /// The counts of `totals`, of which `skipped` were skipped by
        /// `--resume` (counted as written in the totals, as kept files are);
        /// a run stopped before any file was read (`--require-model`) has
        /// `notProcessed` files that the totals have no entry for.
        package init(_ totals: BatchReport.Totals, skipped: Int, notProcessed: Int) {
            self.skipped = skipped
            self.notProcessed = max(notProcessed, totals.notProcessed)
            kept = totals.kept
            written = totals.written - skipped - kept
            failed = totals.failed
            files = max(totals.files, written + skipped + kept + failed + self.notProcessed)
        }
    }

    /// `process --json`: `counts` and the rest of `summary`; `skipped` when
    /// `showsSkipped` (`--resume`), `notProcessed` when there are any or
    /// `stopped`; `report` the report written (nil: none was).
    package init(process summary: BatchSummary, counts: FileCounts, showsSkipped: Bool, stopped: Bool, shard: ShardFigures?,
                 report: String?, exitStatus: Int) {
        let t = summary.totals
        self.shard = shard
        files = counts.files
        written = counts.written
        failed = counts.failed
        modelUnavailable = t.modelUnavailable
        actions = t.actions
        warnings = t.warnings
        unavailableReasons = summary.unavailableReasons.sorted { $0.key < $1.key }.map { ReasonRow(reason: $0.key, reasonRow: $0.value) }
        modelErrors = summary.modelErrors.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { ModelError(error: $0.key, files: $0.value) }
        if summary.cutTranscripts.files > 0 { transcriptsCut = summary.cutTranscripts }
        if summary.notAppliedFiles > 0 {
            notApplied = summary.notApplied.map(NotAppliedFile.init)
            notAppliedFiles = summary.notAppliedFiles
        }
        model = summary.runCost.flatMap { $0.requests > 0 ? $0 : nil }
        earlierModel = summary.earlierCost.flatMap { $0.requests > 0 ? $0 : nil }
        if showsSkipped { skipped = counts.skipped }
        if !summary.keptOutputs.isEmpty { kept = summary.keptOutputs.map(OutputNote.init) }
        if !summary.replacedOutputs.isEmpty { replaced = summary.replacedOutputs.map(OutputNote.init) }
        if !summary.keptResults.isEmpty { keptResults = summary.keptResults }
        if counts.notProcessed > 0 || stopped { notProcessed = counts.notProcessed }
        self.report = .some(report)
        self.exitStatus = exitStatus
    }

    /// `merge --json` after a merge.
    package init(merged shards: Int, totals t: BatchReport.Totals, report: String, exitStatus: Int) {
        self.shards = shards
        files = t.files
        written = t.written
        failed = t.failed
        modelUnavailable = t.modelUnavailable
        actions = t.actions
        self.report = .some(report)
        self.exitStatus = exitStatus
    }

    /// `merge --json` when nothing was merged: the shards missing or stopped, when that was why.
    package init(notMerged exitStatus: Int, shards: Int? = nil, missing: [Int]? = nil, stopped: [Int]? = nil) {
        self.shards = shards
        self.missing = missing
        self.stopped = stopped
        report = .some(nil)
        self.exitStatus = exitStatus
    }

    /// `review --json`.
    package init(reviewed files: Int, indexPages: Int, index: String) {
        self.files = files
        self.indexPages = indexPages
        self.index = index
    }

    /// The summary as printed.
    package var json: JSONValue { reportJSON }
}

extension RunSummary: ReportObject {
    package static let blank = RunSummary()

    /// The one table of the summaries' keys (each command's keys are in this order).
    package static let keys: [ReportKey<RunSummary>] = [
        .ifPresent(.shard, \.shard), .ifPresent(.shards, \.shards), .ifPresent(.missing, \.missing), .ifPresent(.stopped, \.stopped),
        .ifPresent(.files, \.files), .ifPresent(.written, \.written), .ifPresent(.failed, \.failed),
        .ifPresent(.modelUnavailable, \.modelUnavailable), .ifPresent(.actions, \.actions), .ifPresent(.warnings, \.warnings),
        .ifPresent(.transcriptsCut, \.transcriptsCut),
        .ifPresent(.unavailableReasons, \.unavailableReasons), .ifPresent(.modelErrors, \.modelErrors),
        .ifPresent(.notApplied, \.notApplied), .ifPresent(.notAppliedFiles, \.notAppliedFiles),
        .ifPresent(.model, \.model), .ifPresent(.wallMilliseconds, \.wallMilliseconds),
        .ifPresent(.earlierModel, \.earlierModel),
        .ifPresent(.skipped, \.skipped), .ifPresent(.kept, \.kept), .ifPresent(.replaced, \.replaced),
        .ifPresent(.keptResults, \.keptResults), .ifPresent(.notProcessed, \.notProcessed),
        .ifPresent(.indexPages, \.indexPages), .ifPresent(.index, \.index),
        .ifPresent(.report, \.report), .ifPresent(.exitStatus, \.exitStatus),
    ]
}

extension RunSummary.ShardFigures: ReportObject {
    package static let blank = RunSummary.ShardFigures()

    package static let keys: [ReportKey<RunSummary.ShardFigures>] = [
        .value(.index, \.index), .value(.count, \.count), .value(.files, \.files), .value(.first, \.first), .value(.planFiles, \.planFiles),
    ]
}

extension BatchSummary.CutTranscripts: ReportObject {
    package static let blank = BatchSummary.CutTranscripts()

    package static let keys: [ReportKey<BatchSummary.CutTranscripts>] = [
        .value(.files, \.files), .value(.sentCharacters, \.sentCharacters), .value(.characters, \.characters),
    ]
}

extension BatchSummary.KeptResults: ReportObject {
    package static let blank = BatchSummary.KeptResults(input: "", actions: [])

    package static let keys: [ReportKey<BatchSummary.KeptResults>] = [.value(.input, \.input), .value(.actions, \.actions)]
}

extension RunSummary.OutputNote: ReportObject {
    package static let blank = RunSummary.OutputNote()

    package static let keys: [ReportKey<RunSummary.OutputNote>] = [.value(.input, \.input), .value(.because, \.because)]
}

extension RunSummary.NotAppliedFile: ReportObject {
    package static let blank = RunSummary.NotAppliedFile()

    package static let keys: [ReportKey<RunSummary.NotAppliedFile>] = [.value(.input, \.input), .value(.actions, \.actions)]
}

extension RunSummary.NotAppliedAction: ReportObject {
    package static let blank = RunSummary.NotAppliedAction()

    package static let keys: [ReportKey<RunSummary.NotAppliedAction>] = [
        .value(.id, get: { AssistantAction.ReportedID($0.id) }, set: { $0.id = $1.action }), .value(.state, \.state), .value(.reason, \.reason),
        .ifPresent(.remedy, \.remedy),
    ]
}

extension RunSummary.ReasonRow: ReportObject {
    package static let blank = RunSummary.ReasonRow()

    package static let keys: [ReportKey<RunSummary.ReasonRow>] = [.value(.reason, \.reason), .value(.reasonRow, \.reasonRow)]
}

extension RunSummary.ModelError: ReportObject {
    package static let blank = RunSummary.ModelError()

    package static let keys: [ReportKey<RunSummary.ModelError>] = [.value(.error, \.error), .value(.files, \.files)]
}

/// What `check --json` prints: the backend, where an HTTP backend sends its
/// requests, and whether the model is available (why not, and what to do).
package struct CheckSummary: Sendable, Equatable {
    /// The backend's name.
    package var backend = ""
    /// HTTP: the chat completions URL (`.some(nil)`: none set, said as `null`).
    package var endpoint: String??
    /// HTTP: the model asked for (`.some(nil)`: the server's default).
    package var model: String??
    /// HTTP: the models the server lists.
    package var serverModels: [String]?
    /// HTTP: how requests are retried.
    package var retryPolicy: String?
    /// HTTP: the proxy requests go through (`HTTPProxy.summary`); absent when none.
    package var proxy: String?
    /// Available, or unavailable with why.
    package var availability: ModelAvailability?
    /// The reason row, for an unavailable model.
    package var reasonRow: String?
    /// The spelling dictionaries a title's words are checked against
    /// (`TitleDictionary`): each language's `.dic` file; empty when none is
    /// installed (or libhunspell is not).
    package var titleDictionaries: [String]?

    /// Nothing yet.
    package init() {}

    /// The summary as printed.
    package var json: JSONValue { reportJSON }
}

extension CheckSummary: ReportObject {
    package static let blank = CheckSummary()

    package static let keys: [ReportKey<CheckSummary>] = [
        .value(.backend, \.backend), .ifPresent(.endpoint, \.endpoint), .ifPresent(.model, \.model),
        .ifPresent(.serverModels, \.serverModels), .ifPresent(.retryPolicy, \.retryPolicy), .ifPresent(.proxy, \.proxy),
        .ifPresent(.titleDictionaries, \.titleDictionaries),
    ] + ReportKey<CheckSummary>.availability(get: \.availability, set: { $0.availability = $1 },
                                                                              reasonRow: \CheckSummary.reasonRow)
}
