import Captions
import Foundation

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
/// files in flight finish; every file not started gets an entry with
/// `error` set to `FileProcessor.notProcessedError` and no sidecar.
public struct BatchRunner: Sendable {
    /// The per-file job.
    public var processor: FileProcessor
    /// Where to write.
    public var destination: OutputDestination
    /// Files in flight at once (at least 1).
    public var jobs: Int
    /// Skip files an earlier run already completed (`--resume`).
    public var resume: Bool

    /// Creates a runner.
    public init(processor: FileProcessor, destination: OutputDestination, jobs: Int, resume: Bool = false) {
        self.processor = processor; self.destination = destination; self.jobs = max(1, jobs); self.resume = resume
    }

    /// The batch's result.
    public struct Result: Sendable {
        /// Every input's report, in plan order.
        public var report: BatchReport
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
    }

    /// Processes every item of `plan`. `progress` is called (on one task at a
    /// time) with the number of files done after each file. `stop`, when asked
    /// for, ends the batch early.
    public func run(_ plan: InputPlan, progress: (@Sendable (Int) -> Void)? = nil, stop: BatchStop? = nil) async -> Result {
        let items = plan.items
        var opened: OutputFolder?
        var openingError: String?
        if case .folder(let path) = destination {
            do {
                opened = try OutputFolder(path: path)
            } catch {
                openingError = error.localizedDescription
            }
        }
        let folder = opened, folderError = openingError
        if resume, let folder {
            folder.removeStaleTemporaryFiles(besides: items.flatMap { [$0.output, $0.output + ".assistant.json"] } + ["report.json"])
        }
        var reports = [FileReport?](repeating: nil, count: items.count)
        var skipped = 0
        await withTaskGroup(of: (Int, Handled).self) { group in
            var next = 0
            var done = 0
            func startNext() {
                guard next < items.count, !(stop?.isRequested ?? false) else { return }
                let index = next
                group.addTask {
                    if let folderError { return (index, Handled(report: self.processor.failure(input: items[index].input, error: folderError))) }
                    return (index, await self.handle(items[index], folder: folder))
                }
                next += 1
            }
            while next < items.count && next < jobs { startNext() }
            while let (index, handled) = await group.next() {
                reports[index] = handled.report
                if handled.skipped { skipped += 1 }
                done += 1
                progress?(done)
                startNext()
            }
        }
        var notProcessed = 0
        for index in items.indices where reports[index] == nil {
            reports[index] = processor.notProcessed(input: items[index].input)
            notProcessed += 1
        }
        let batch = BatchReport(files: reports.compactMap { $0 })
        var reportError = folderError
        if let folder {
            do {
                try folder.write(Data(batch.json.rendered().utf8), to: "report.json")
            } catch {
                reportError = error.localizedDescription
            }
        }
        let missing = items.contains { $0.location == .missing }
        return Result(report: batch, missingInput: missing, reportError: reportError, skipped: skipped,
                      notProcessed: notProcessed, stoppedBy: notProcessed > 0 ? stop?.signal : nil)
    }

    /// Reads, processes and writes one item; returns its report.
    func handle(_ item: InputPlan.Item, folder: OutputFolder?) async -> Handled {
        let data: [UInt8]
        switch item.location {
        case .missing:
            return Handled(report: processor.failure(input: item.input, error: "no such file or folder: \(item.input)"))
        case .refused(let reason):
            return Handled(report: processor.failure(input: item.input, error: reason))
        case .standardInput:
            data = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        case .file(let path):
            var known: [UInt8]?
            if resume, let folder {
                let finding = ResumeCheck.check(item, path: path, folder: folder, settings: processor.configuration.settings)
                if let report = finding.report { return Handled(report: report, skipped: true) }
                known = finding.input
            }
            do {
                data = try known ?? FileInput.read(path)
            } catch {
                var report = processor.failure(input: item.input, error: error.localizedDescription)
                writeSidecar(&report, at: item.output, folder: folder)
                return Handled(report: report)
            }
        }
        let isStandardInput = item.location == .standardInput
        let outcome = await processor.process(data, input: item.input, hint: item.hint) { format in
            isStandardInput ? "stdin." + format.fileExtension : item.output
        }
        var report = outcome.report
        if let caption = outcome.caption, let output = report.output {
            switch destination {
            case .standardOutput:
                FileHandle.standardOutput.write(caption)
                report.output = "-"
            case .folder:
                do {
                    guard let folder else { throw WriteError(path: output, reason: "the output folder could not be opened") }
                    try folder.write(caption, to: output)
                } catch {
                    report.output = nil
                    report.fingerprint.outputSHA256 = nil
                    report.error = error.localizedDescription
                }
            }
        }
        writeSidecar(&report, at: report.output ?? (isStandardInput ? "stdin.caption" : item.output), folder: folder)
        return Handled(report: report)
    }

    /// Writes the sidecar `<output>.assistant.json` (not for standard output).
    /// When it cannot be written, the report's `error` says so (in `report.json`).
    private func writeSidecar(_ report: inout FileReport, at output: String, folder: OutputFolder?) {
        guard let folder else { return }
        do {
            try folder.write(Data(report.json.rendered().utf8), to: output + ".assistant.json")
        } catch {
            let text = "the sidecar report could not be written: \(error.localizedDescription)"
            report.error = report.error.map { $0 + "; " + text } ?? text
        }
    }
}
