import Assistant

/// What the command line says about a batch once it has run: the totals,
/// the distinct reasons a model was unavailable, and the files that failed.
///
/// It is built one file report at a time (`add`) and keeps no report, so it
/// stays the same size however many files the batch has (the failures list
/// grows only with files that failed).
public struct BatchSummary: Sendable, Equatable {
    /// The figures of `report.json`'s `totals`.
    public var totals = BatchReport.Totals()
    /// `name: reason row` for each distinct reason the model was unavailable.
    public var unavailableRows: Set<String> = []
    /// Each input that was not written, or was written with an error (its
    /// sidecar could not be written), with its error, in the order they were
    /// added (files the batch did not get to, because it was stopped, are left out).
    public var failures: [Failure] = []
    /// Each distinct reason the model was unavailable: its name and reason row.
    public var unavailableReasons: [String: String] = [:]
    /// Each distinct error text of a file that was written but whose model
    /// failed (HTTP 500, a timeout, an undecodable answer), with how many files
    /// had it; at most `maxModelErrors` distinct texts are kept.
    public var modelErrors: [String: Int] = [:]
    /// Files whose model error was not kept because `modelErrors` was full.
    public var otherModelErrors = 0
    /// Files where the model was available and gave a usable answer (no model error).
    public var answered = 0
    /// The files whose transcript was cut at the cap (`--max-characters`), and how much of their text was sent.
    public var cutTranscripts = CutTranscripts()
    /// What this run's model calls cost: the totals' cost less that of the
    /// files `--resume` skipped (nil when no file of this run records a cost).
    public var runCost: ReportCost?
    /// What the model calls of the files `--resume` skipped cost the earlier
    /// runs that wrote them (nil when none records a cost).
    public var earlierCost: ReportCost?
    /// The most distinct model error texts kept.
    static let maxModelErrors = 16

    /// The first files (`notAppliedListed`) that were written with an action
    /// failed or disabled, with each such action and why; in plan order once the batch is done.
    public var notApplied: [NotApplied] = []
    /// How many files were written with an action failed or disabled (listed in `notApplied` or not).
    public var notAppliedFiles = 0

    /// Each output an earlier run made with the model that this run kept, in the order added.
    public var keptOutputs: [Kept] = []
    /// Each output an earlier run made with the model that this run replaced by one made without, in the order added.
    public var replacedOutputs: [Replaced] = []
    /// Each output this run wrote that keeps some results an earlier run's
    /// real model gave (`"source": "earlier"`), in the order added.
    public var keptResults: [KeptResults] = []

    /// An output written with results kept from an earlier run: the input, and which actions.
    public struct KeptResults: Sendable, Equatable {
        /// The input as the user named it.
        public var input: String
        /// The actions whose results were kept, in report order.
        public var actions: [AssistantAction]
    }

    /// An output kept: the input, and why (`KeptOutput`).
    public struct Kept: Sendable, Equatable {
        /// The input as the user named it.
        public var input: String
        /// What this run's model did.
        public var record: KeptOutput
    }

    /// An output replaced: the input, and why (`ReplacedOutput`).
    public struct Replaced: Sendable, Equatable {
        /// The input as the user named it.
        public var input: String
        /// Why it was not kept.
        public var record: ReplacedOutput
    }

    /// A file that was not written.
    public struct Failure: Sendable, Equatable {
        /// The input as the user named it.
        public var input: String
        /// Why it was not written.
        public var error: String
    }

    /// The files whose transcript the model was sent cut at the cap, with
    /// their characters in all and those sent (`transcript.truncated`).
    public struct CutTranscripts: Sendable, Equatable {
        /// Files cut.
        public var files = 0
        /// Characters sent of those files' transcripts.
        public var sentCharacters = 0
        /// Characters of those files' whole transcripts.
        public var characters = 0

        /// None yet.
        public init() {}

        /// Counts `stats` in when it was cut (an error naming the figure too large to add).
        func adding(_ stats: TranscriptStats?) throws(ReportError) -> CutTranscripts {
            guard let stats, stats.truncated else { return self }
            var sum = self
            sum.files += 1
            do { sum.sentCharacters = try sentCharacters.adding(stats.sentCharacters) } catch { throw error.under(.sentCharacters).under(.transcript) }
            do { sum.characters = try characters.adding(stats.characters) } catch { throw error.under(.characters).under(.transcript) }
            return sum
        }
    }

    /// An empty summary.
    public init() {}

    /// The summary of `files`.
    public init(_ files: [FileReport]) throws(ReportError) {
        for file in files { try add(file) }
    }

    /// Counts `file` in (the totals through `BatchReport.Totals.add`, whose
    /// error it throws, with nothing counted). What it lists follows the
    /// file's one outcome (`FileReport.outcome`), as the totals do.
    /// `skipped`: an earlier run wrote it (`--resume`), so its cost is
    /// `earlierCost`, not `runCost`; for an output kept, this run's cost is
    /// its record's, and the entry's own is the earlier run's.
    public mutating func add(_ file: FileReport, skipped: Bool = false) throws(ReportError) {
        let cut = try cutTranscripts.adding(file.transcript)
        var runCost = self.runCost, earlierCost = self.earlierCost
        func count(_ cost: ReportCost?, earlier: Bool) throws(ReportError) {
            guard let cost else { return }
            var sum = (earlier ? earlierCost : runCost) ?? ReportCost()
            do { try sum.add(cost) } catch { throw error.under(.cost).under(.model) }
            if earlier { earlierCost = sum } else { runCost = sum }
        }
        try count(file.model.cost, earlier: skipped || file.kept != nil)
        if !skipped { try count(file.kept?.model.cost, earlier: false) }
        try totals.add(file)
        cutTranscripts = cut
        self.runCost = runCost
        self.earlierCost = earlierCost
        let outcome = file.outcome
        // This run's model: for a kept output, the record of it (the entry is the earlier run's).
        let model = file.kept?.model ?? file.model
        let reasonRow = file.kept.map(\.reasonRow) ?? file.reasonRow
        if case .unavailable(let info)? = model.availability {
            let row = reasonRow ?? ""
            // The same reason and row as before (every file of a run without a model) change nothing: no string made for it.
            if unavailableReasons[info.reason] != row {
                unavailableRows.insert(info.reason + ": " + row)
                unavailableReasons[info.reason] = row
            }
        }
        if outcome == .written, case .available? = file.model.availability, file.error == nil { answered += 1 }
        // A model error leaves actions failed, or taken from the fallback instead (a kept output: the error of this run).
        let modelError = outcome == .kept ? file.kept?.error
            : outcome == .written && file.actions.contains(where: { $0.state == .failed || $0.source == .fallback }) ? file.error : nil
        if let error = modelError {
            if modelErrors[error] != nil || modelErrors.count < Self.maxModelErrors {
                modelErrors[error, default: 0] += 1
            } else {
                otherModelErrors += 1
            }
        }
        switch outcome {
        case .failed:
            // Every failure sets the exit status; a caption written whose sidecar was not is one.
            // (A model that failed is not: the captions are written, and the report says why.)
            failures.append(Failure(input: file.input, error: file.error ?? "it was not written"))
        case .kept:
            if let kept = file.kept { keptOutputs.append(Kept(input: file.input, record: kept)) }
        case .written:
            let kept = file.actions.filter { $0.state == .applied && $0.source == .earlier }.map(\.id)
            if !kept.isEmpty { keptResults.append(KeptResults(input: file.input, actions: kept)) }
        case .notProcessed:
            break
        }
        if let replaced = file.replaced { replacedOutputs.append(Replaced(input: file.input, record: replaced)) }
        _ = noteNotApplied(file)
    }
}
