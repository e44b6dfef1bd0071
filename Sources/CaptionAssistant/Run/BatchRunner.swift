import Assistant
import Captions
import Foundation
import JSON

/// Runs the per-file job over a batch with at most `jobs` files in flight,
/// writes every output atomically, and then the batch report.
///
/// One bad file never stops the rest: it gets its report entry (with `error`
/// set and no `output`) and the batch goes on. Every file is written through
/// `OutputFolder`, so nothing lands outside the output folder.
///
/// With `resume`, a file that an earlier run already wrote completely from
/// the same input with the same options (see `ResumeCheck`) is skipped, and
/// its entry in `report.json` is read back from its sidecar, so the report
/// of a resumed run equals that of a run never interrupted.
///
/// When `stop` is asked for (SIGINT, SIGTERM), no new file is started; the
/// model requests in flight are ended at once (the task is cancelled) and
/// their files are not written; the other files in flight finish; every file
/// not started or not finished gets an entry with `error` set to
/// `FileReport.notProcessedError` and no sidecar.
public struct BatchRunner: Sendable {
    /// The per-file job.
    public var processor: FileProcessor
    /// Where to write.
    public var destination: OutputDestination
    /// Files in flight at once (at least 1).
    public var jobs: Int
    /// Skip files an earlier run already completed (`--resume`).
    public var resume: Bool
    /// Keep every file's report in `Result.files` (for a caller that wants
    /// them in memory; the command line reads `report.json` instead).
    public var keepsReports: Bool
    /// For a shard (`--shard`): its report part, written instead of `report.json`.
    package var part: ReportPart?
    /// Replace the results a real model gave an output an earlier run made
    /// by this run's, whatever they are (none, the fake's, the fallback's);
    /// without this, each is kept until a real model gives one for its
    /// action (see `EarlierOutput`).
    public var replaceModelResults = false
    /// Where the batch report (`report.json`'s content, by the same writer)
    /// is also written, atomically, wherever the captions go: the report of a
    /// run to standard output (`--report FILE`); `reportToStandardOutput`
    /// (`--report -`) writes it to standard output. Not for a shard, whose report is a part.
    public var reportFile: String?

    /// The `reportFile` that means standard output (`--report -`).
    public static let reportToStandardOutput = "-"

    /// Creates a runner.
    public init(processor: FileProcessor, destination: OutputDestination, jobs: Int, resume: Bool = false,
                keepsReports: Bool = false) {
        self.processor = processor; self.destination = destination; self.jobs = max(1, jobs); self.resume = resume
        self.keepsReports = keepsReports
    }

    /// The batch's result.
    public struct Result: Sendable {
        /// Totals, the reasons the model was unavailable, and the files that failed.
        public var summary: BatchSummary
        /// Every input's report, in plan order, when the runner was made with
        /// `keepsReports`; otherwise empty (they are in `report.json` and the
        /// sidecars, and a batch of any size then needs no memory for them).
        public var files: [FileReport]
        /// Whether some input did not exist.
        public var missingInput: Bool
        /// Why `report.json` could not be written, if it could not.
        public var reportError: String?
        /// Files skipped because an earlier run had completed them (`--resume`).
        public var skipped = 0
        /// Files not processed because the batch was stopped.
        public var notProcessed = 0
        /// The signal that stopped the batch (0 for a stop without one), or nil when it ran to the end.
        public var stoppedBy: Int32?
    }

    /// What one file's handling gave.
    struct Handled: Sendable {
        var report: FileReport
        var skipped = false
        /// The batch was stopped while the file waited for the model: nothing
        /// was written for it, and it is reported as not processed.
        var interrupted = false
        /// The sidecar's JSON as (for a file `--resume` skipped) read back, so `report.json` reuses the tree.
        var sidecar: JSONValue?
        /// The sidecar's bytes as written, when they are also the entry of
        /// `report.json`: its entry is made from them (`JSONStreamWriter.element(rendered:)`), not printed again.
        var sidecarBytes: [UInt8]?
    }

    /// Processes every item of `plan`. `progress` is called (on one task at a
    /// time) with the number of files done after each file. `stop`, when asked
    /// for, ends the batch early. `failed` is called (on one task at a time)
    /// with each file that was not written, as soon as it is known, so a long
    /// batch can say so at once rather than at the end. `finished` is called
    /// (on one task at a time) with each file's report as it is done (`-v`).
    ///
    /// `jobs` workers each take the next item not yet started until none is
    /// left (or a stop is asked for): a worker that is not waiting on the
    /// model goes from one file to the next without a task switch. Each
    /// file's report goes into the summary and, as bytes, into a
    /// `ReportSpool`; `report.json` is written from that at the end, so memory
    /// does not grow with the batch.
    public func run(_ plan: InputPlan, progress: (@Sendable (Int) -> Void)? = nil, stop: BatchStop? = nil,
                    failed: (@Sendable (BatchSummary.Failure) -> Void)? = nil,
                    finished: (@Sendable (FileReport) -> Void)? = nil) async -> Result {
        let items = plan.items
        var opened: OutputFolder?
        var openingError: String?
        if case .folder(let path) = destination {
            do throws(OutputFolderError) {
                // Shards of one run share the folder; anything else has it to itself.
                opened = try OutputFolder(path: path, lock: part.map { .shard(run: $0.run) } ?? .exclusive)
            } catch {
                openingError = error.message(processor.configuration.settingNames)
            }
        }
        let folder = opened, folderError = openingError
        if resume, let folder {
            folder.removeStaleTemporaryFiles(besides: items.flatMap { [$0.output, OwnedNames.sidecar(of: $0.output)] } + [part?.name ?? OwnedNames.batchReport])
        }
        // With no folder (standard output), the entries are kept in memory for `reportFile`.
        let spool = folder != nil || (reportFile != nil && part == nil) ? ReportSpool(count: items.count, folder: folder) : nil
        let collector = Collector(count: items.count, keepsReports: keepsReports, progress: progress, failed: failed, finished: finished)
        let cursor = Cursor(count: items.count, stop: stop)
        let inputFolders = InputFolders()
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<min(jobs, items.count) {
                    group.addTask {
                        while let index = cursor.next() {
                            let handled: Handled
                            if let folderError {
                                handled = Handled(report: self.processor.failure(input: items[index].input, error: folderError))
                            } else {
                                handled = await self.handle(items[index], folder: folder, inputFolders: inputFolders)
                            }
                            // A file whose model request the stop ended is left, as not processed, to the end.
                            if handled.interrupted { continue }
                            if let spool {
                                spool.add(handled.sidecarBytes.map { JSONStreamWriter.element(rendered: $0) }
                                          ?? JSONStreamWriter.element(handled.sidecar ?? handled.report.json), at: index)
                            }
                            collector.record(handled, at: index)
                        }
                    }
                }
            }
        }
        // A stop cancels the workers: a model request in flight ends at once (not after its answer or timeout).
        stop?.whenRequested { workers.cancel() }
        await workers.value
        var (summary, files, skipped, started, uncounted) = collector.finish()
        var notProcessed = 0
        for index in items.indices where !started[index] {
            let report = processor.notProcessed(input: items[index].input)
            spool?.add(JSONStreamWriter.element(report.json), at: index)
            do throws(ReportError) { try summary.add(report) } catch { uncounted = uncounted ?? error.inFile(report.input) }
            if keepsReports { files[index] = report }
            notProcessed += 1
        }
        var reportError = folderError
        if let uncounted {
            // Totals that cannot be counted are not written as if they could (a sidecar `--resume` read back states a count too large to add).
            reportError = "\(part?.name ?? OwnedNames.batchReport) was not written: \(uncounted.localizedDescription)"
        } else if let folder, let spool {
            do {
                if var part {
                    part.complete = notProcessed == 0
                    part.missingInput = items.contains { $0.location == .missing }
                    try spool.write(to: part.name, in: folder, envelope: ReportEnvelope(shard: part, totals: summary.totals), digest: true)
                } else {
                    try spool.write(to: OwnedNames.batchReport, in: folder, envelope: ReportEnvelope(totals: summary.totals))
                }
            } catch {
                reportError = error.localizedDescription
            }
        }
        if uncounted == nil, part == nil, let reportFile, let spool {
            do throws(WriteError) {
                try spool.write(toFile: reportFile, envelope: ReportEnvelope(totals: summary.totals))
            } catch {
                reportError = (reportError.map { $0 + "; " } ?? "") + error.localizedDescription
            }
        }
        let missing = items.contains { $0.location == .missing }
        return Result(summary: summary, files: files.compactMap { $0 }, missingInput: missing, reportError: reportError,
                      skipped: skipped, notProcessed: notProcessed, stoppedBy: notProcessed > 0 ? stop?.signal : nil)
    }

    /// Hands out the items' indices in order, one at a time, until none is
    /// left or a stop is asked for.
    private final class Cursor: @unchecked Sendable {
        private let lock = NSLock()
        private var nextIndex = 0
        private let count: Int
        private let stop: BatchStop?

        init(count: Int, stop: BatchStop?) { self.count = count; self.stop = stop }

        func next() -> Int? {
            if stop?.isRequested ?? false { return nil }
            return lock.withLock {
                guard nextIndex < count else { return nil }
                defer { nextIndex += 1 }
                return nextIndex
            }
        }
    }

    /// Gathers what the workers finish: the summary, the count of files done
    /// (for `progress`, called under the lock, so one at a time and in order),
    /// and the reports themselves only when they are kept.
    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var summary = BatchSummary()
        private var files: [FileReport?]
        private var started: [Bool]
        private var done = 0
        private var skipped = 0
        /// The first entry whose numbers could not be added to the totals.
        private var uncounted: ReportError?
        /// The plan index of each entry of `summary.failures`, `keptOutputs` and `replacedOutputs`.
        private var failureIndices: [Int] = [], keptIndices: [Int] = [], replacedIndices: [Int] = [], keptResultIndices: [Int] = []
        /// The plan index of each entry of `summary.notApplied`.
        private var notAppliedIndices: [Int] = []
        private let keepsReports: Bool
        private let progress: (@Sendable (Int) -> Void)?
        private let failed: (@Sendable (BatchSummary.Failure) -> Void)?
        private let finished: (@Sendable (FileReport) -> Void)?

        init(count: Int, keepsReports: Bool, progress: (@Sendable (Int) -> Void)?,
             failed: (@Sendable (BatchSummary.Failure) -> Void)? = nil, finished: (@Sendable (FileReport) -> Void)? = nil) {
            files = keepsReports ? [FileReport?](repeating: nil, count: count) : []
            started = [Bool](repeating: false, count: count)
            self.keepsReports = keepsReports; self.progress = progress; self.failed = failed
            self.finished = finished
        }

        func record(_ handled: Handled, at index: Int) {
            lock.withLock {
                let failuresBefore = summary.failures.count
                let keptBefore = summary.keptOutputs.count, replacedBefore = summary.replacedOutputs.count
                let notAppliedBefore = (listed: summary.notApplied.count, files: summary.notAppliedFiles)
                let keptResultsBefore = summary.keptResults.count
                do throws(ReportError) { try summary.add(handled.report, skipped: handled.skipped) } catch { uncounted = uncounted ?? error.inFile(handled.report.input) }
                if summary.notApplied.count > notAppliedBefore.listed {
                    notAppliedIndices.append(index)
                } else if summary.notAppliedFiles > notAppliedBefore.files, let latest = notAppliedIndices.indices.max(by: { notAppliedIndices[$0] < notAppliedIndices[$1] }),
                          notAppliedIndices[latest] > index, let entry = BatchSummary.NotApplied(handled.report) {
                    // The list is full: it keeps the files that come first in the plan, whatever order they finished in.
                    notAppliedIndices[latest] = index
                    summary.notApplied[latest] = entry
                }
                if summary.failures.count > failuresBefore, let failure = summary.failures.last {
                    failureIndices.append(index)
                    failed?(failure)
                }
                if summary.keptOutputs.count > keptBefore { keptIndices.append(index) }
                if summary.replacedOutputs.count > replacedBefore { replacedIndices.append(index) }
                if summary.keptResults.count > keptResultsBefore { keptResultIndices.append(index) }
                if keepsReports { files[index] = handled.report }
                finished?(handled.report)
                started[index] = true
                if handled.skipped { skipped += 1 }
                done += 1
                progress?(done)
            }
        }

        /// The summary (its failures in plan order, not in the order files
        /// finished), the kept reports (by index), how many were skipped,
        /// which indices were handled, and the first entry that could not be counted.
        func finish() -> (BatchSummary, [FileReport?], Int, [Bool], ReportError?) {
            lock.withLock {
                var ordered = summary
                ordered.failures = zip(failureIndices, summary.failures).sorted { $0.0 < $1.0 }.map(\.1)
                ordered.keptOutputs = zip(keptIndices, summary.keptOutputs).sorted { $0.0 < $1.0 }.map(\.1)
                ordered.replacedOutputs = zip(replacedIndices, summary.replacedOutputs).sorted { $0.0 < $1.0 }.map(\.1)
                ordered.notApplied = zip(notAppliedIndices, summary.notApplied).sorted { $0.0 < $1.0 }.map(\.1)
                ordered.keptResults = zip(keptResultIndices, summary.keptResults).sorted { $0.0 < $1.0 }.map(\.1)
                return (ordered, files, skipped, started, uncounted)
            }
        }
    }

    /// Reads, processes and writes one item (a file found in a folder read from that folder as `inputFolders` holds it open); returns its report.
    func handle(_ item: InputPlan.Item, folder: OutputFolder?, inputFolders: InputFolders? = nil) async -> Handled {
        let data: [UInt8]
        switch item.location {
        case .missing:
            return Handled(report: processor.failure(input: item.input, error: "no such file or folder: \(item.input)"))
        case .refused(let reason):
            return Handled(report: processor.refusal(input: item.input, error: reason))
        case .standardInput:
            data = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        case .file:
            var known: [UInt8]?
            if resume, let folder {
                let finding = ResumeCheck.check(item, folder: folder, settings: processor.configuration.settings,
                                                  inputFolders: inputFolders)
                if let report = finding.report { return Handled(report: report, skipped: true, sidecar: finding.json) }
                known = finding.input
            }
            do {
                data = try known ?? FileInput.read(item, folders: inputFolders)
            } catch {
                var report = processor.failure(input: item.input, error: error.localizedDescription)
                let sidecar = writeSidecar(&report, at: item.output, folder: folder)
                return Handled(report: report, sidecarBytes: sidecar)
            }
        }
        let isStandardInput = item.location == .standardInput
        // A real model's results in the output an earlier run left are kept per action (see EarlierOutput).
        let replace = replaceModelResults
        let earlier: ((String) -> EarlierOutput.Finding)? = isStandardInput ? nil : folder.map { folder in
            { EarlierOutput.find(output: item.output, in: folder, inputSHA256: $0, replaceRequested: replace) }
        }
        let outcome = await processor.process(data, input: item.input, hint: item.hint, earlier: earlier, streams: true) { format in
            isStandardInput ? "stdin." + format.fileExtension : item.output
        }
        if outcome.interrupted { return Handled(report: outcome.report, interrupted: true) }
        if outcome.keptWhole { return Handled(report: outcome.report) }
        var report = outcome.report
        if let caption = outcome.caption, let output = report.output {
            switch destination {
            case .standardOutput:
                switch caption {
                case .bytes(let bytes): FileHandle.standardOutput.write(Data(bytes))
                // Written as it is made; the hash is of what was written.
                case .spliced: report.fingerprint.outputSHA256 = caption.write(to: STDOUT_FILENO)
                }
                report.output = "-"
            case .folder:
                do {
                    guard let folder else { throw WriteError(path: output, reason: "the output folder could not be opened") }
                    switch caption {
                    case .bytes(let bytes):
                        try folder.write(bytes, to: output)
                    case .spliced:
                        // Written as it is made, in pieces: its hash is taken as it goes (a second
                        // call of `fill`, on a fresh file, starts the hash again).
                        var hash: String?
                        try folder.write(to: output) { fd in
                            hash = caption.write(to: fd)
                            return hash != nil
                        }
                        report.fingerprint.outputSHA256 = hash
                    }
                } catch {
                    report.output = nil
                    report.fingerprint.outputSHA256 = nil
                    report.error = error.localizedDescription
                    // Nothing applied reached a caption file: no action counts as applied.
                    for index in report.actions.indices where report.actions[index].state == .applied {
                        report.actions[index].state = .failed
                        report.actions[index].reason = "the caption file could not be written"
                    }
                }
            }
        }
        let sidecar = writeSidecar(&report, at: report.output ?? (isStandardInput ? "stdin.caption" : item.output), folder: folder)
        return Handled(report: report, sidecarBytes: sidecar)
    }

    /// Writes the sidecar `<output>.assistant.json` (not for standard output:
    /// the entry without the keys only `report.json` has) and returns its
    /// bytes when it is also the entry of `report.json`. When it cannot be
    /// written, the report's `error` says so (in `report.json`), and nil is
    /// returned (the sidecar no longer matches the report).
    private func writeSidecar(_ report: inout FileReport, at output: String, folder: OutputFolder?) -> [UInt8]? {
        guard let folder else { return nil }
        let sidecar = report.sidecarEntry
        let bytes = sidecar.json.renderedBytes()
        do {
            try folder.write(bytes, to: OwnedNames.sidecar(of: output))
            return report.isSidecarEntry ? bytes : nil
        } catch {
            let text = "\(FileReport.sidecarFailure): \(error.localizedDescription)"
            report.error = report.error.map { $0 + "; " + text } ?? text
            // The caption may be there, but the file has failed: its outcome says so, and every count follows it.
            if report.output != nil { report.sidecarWritten = false }
            return nil
        }
    }
}
