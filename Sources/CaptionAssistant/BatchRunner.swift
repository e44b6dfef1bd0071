import Captions
import Foundation

/// Runs the per-file job over a batch with at most `jobs` files in flight,
/// writes every output atomically, and then the batch report.
///
/// One bad file never stops the rest: it gets its report entry (with `error`
/// set and no `output`) and the batch goes on.
public struct BatchRunner: Sendable {
    /// The per-file job.
    public var processor: FileProcessor
    /// Where to write.
    public var destination: OutputDestination
    /// Files in flight at once (at least 1).
    public var jobs: Int

    /// Creates a runner.
    public init(processor: FileProcessor, destination: OutputDestination, jobs: Int) {
        self.processor = processor; self.destination = destination; self.jobs = max(1, jobs)
    }

    /// The batch's result.
    public struct Result: Sendable {
        /// Every input's report, in plan order.
        public var report: BatchReport
        /// Whether some input did not exist.
        public var missingInput: Bool
        /// Why `report.json` could not be written, if it could not.
        public var reportError: String?
    }

    /// Processes every item of `plan`. `progress` is called (on one task at a
    /// time) with the number of files done after each file.
    public func run(_ plan: InputPlan, progress: (@Sendable (Int) -> Void)? = nil) async -> Result {
        let items = plan.items
        var reports = [FileReport?](repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, FileReport).self) { group in
            var next = 0
            var done = 0
            while next < items.count && next < jobs {
                let index = next
                group.addTask { (index, await self.handle(items[index])) }
                next += 1
            }
            while let (index, report) = await group.next() {
                reports[index] = report
                done += 1
                progress?(done)
                if next < items.count {
                    let index = next
                    group.addTask { (index, await self.handle(items[index])) }
                    next += 1
                }
            }
        }
        let batch = BatchReport(files: reports.compactMap { $0 })
        var reportError: String?
        if case .folder(let folder) = destination {
            do {
                try AtomicFileWriter.write(Data(batch.json.rendered().utf8), to: folder + "/report.json")
            } catch {
                reportError = error.localizedDescription
            }
        }
        let missing = items.contains { $0.location == .missing }
        return Result(report: batch, missingInput: missing, reportError: reportError)
    }

    /// Reads, processes and writes one item; returns its report.
    func handle(_ item: InputPlan.Item) async -> FileReport {
        let data: [UInt8]
        switch item.location {
        case .missing:
            return processor.failure(input: item.input, error: "no such file or folder: \(item.input)")
        case .refused(let reason):
            return processor.failure(input: item.input, error: reason)
        case .standardInput:
            data = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        case .file(let path):
            do {
                data = try FileInput.read(path)
            } catch {
                var report = processor.failure(input: item.input, error: error.localizedDescription)
                writeSidecar(&report, at: item.output)
                return report
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
            case .folder(let folder):
                do {
                    try AtomicFileWriter.write(caption, to: folder + "/" + output)
                } catch {
                    report.output = nil
                    report.error = error.localizedDescription
                }
            }
        }
        writeSidecar(&report, at: report.output ?? (isStandardInput ? "stdin.caption" : item.output))
        return report
    }

    /// Writes the sidecar `<output>.assistant.json` (not for standard output).
    /// When it cannot be written, the report's `error` says so (in `report.json`).
    private func writeSidecar(_ report: inout FileReport, at output: String) {
        guard case .folder(let folder) = destination else { return }
        do {
            try AtomicFileWriter.write(Data(report.json.rendered().utf8), to: folder + "/" + output + ".assistant.json")
        } catch {
            let text = "the sidecar report could not be written: \(error.localizedDescription)"
            report.error = report.error.map { $0 + "; " + text } ?? text
        }
    }
}
