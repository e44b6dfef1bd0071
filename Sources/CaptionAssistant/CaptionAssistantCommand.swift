import Assistant
import Captions
import Foundation

/// The whole `caption-assistant` command, as a library call: the executable
/// only passes its arguments and environment in and exits with the status.
public enum CaptionAssistantCommand {
    /// Exit statuses (sysexits).
    public enum ExitStatus {
        /// Every file written.
        public static let success: Int32 = 0
        /// Some file could not be read or written.
        public static let someFileFailed: Int32 = 1
        /// Bad usage.
        public static let usage: Int32 = 64
        /// An input does not exist.
        public static let noInput: Int32 = 66
        /// The model is unavailable under `--require-model`.
        public static let unavailable: Int32 = 69
        /// The output folder cannot be created or written (`EX_CANTCREAT`).
        public static let cannotCreateOutput: Int32 = 73
        /// Stopped by SIGINT (128 + 2).
        public static let interrupted: Int32 = 130
        /// Stopped by SIGTERM (128 + 15).
        public static let terminated: Int32 = 143
    }

    /// Runs the command and returns its exit status.
    ///
    /// `signals`, when given, were installed by the caller before anything
    /// else (the executable does so first thing): a SIGINT or SIGTERM that
    /// came before the batch started makes the batch start no file, and it
    /// still writes its report. Commands other than a batch give the signals
    /// their default action back (and end with 130 or 143 if one came).
    public static func run(arguments: [String], environment: [String: String], signals: InterruptSignals? = nil) async -> Int32 {
        let command: Command
        do {
            command = try CommandLineParser.parse(arguments, defaultJobs: ProcessInfo.processInfo.activeProcessorCount)
        } catch {
            signals?.uninstall()
            return usageFailure(error)
        }
        if case .process = command {} else if let signals {
            signals.takePending()
            signals.uninstall()
            if let number = signals.stop.signal { return InterruptSignals.exitStatus(for: number) }
        }
        switch command {
        case .help:
            print(HelpText.text, terminator: "")
            return ExitStatus.success
        case .version:
            print("caption-assistant \(CaptionAssistantVersion.current)")
            return ExitStatus.success
        case .check(let options):
            return await check(options, environment: environment)
        case .process(let options):
            defer { signals?.uninstall() }
            return await process(options, environment: environment, signals: signals)
        }
    }

    static func usageFailure(_ error: UsageError) -> Int32 {
        printError("error: \(error.message)\nRun 'caption-assistant --help' to see the commands and options.")
        return ExitStatus.usage
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(("caption-assistant: " + text + "\n").utf8))
    }

    // MARK: check

    static func check(_ options: CheckOptions, environment: [String: String]) async -> Int32 {
        let backend: AssistantBackend
        do {
            backend = try AssistantBackend.make(options.model, maxCharacters: 3000, environment: environment)
        } catch {
            return usageFailure(error)
        }
        let availability = await backend.waitForAvailability(options.model.waitForModel)
        var pairs: [(String, JSONValue)] = [("backend", .string(backend.selection.reportName))]
        switch availability {
        case .available:
            pairs.append(("availability", .string("available")))
        case .unavailable(let reason):
            let info = backend.describe(reason)
            pairs += [("availability", .string("unavailable")), ("reason", .string(info.name)),
                      ("reasonRow", .string(info.reasonRow)), ("remedy", .string(info.remedy)),
                      ("permanence", .string(info.permanence.rawValue)), ("offersSettings", .bool(info.offersSettings))]
        }
        if options.json {
            print(JSONValue.object(pairs).rendered(), terminator: "")
        } else {
            var lines = ["backend: \(backend.selection.reportName)"]
            switch availability {
            case .available: lines.append("availability: available")
            case .unavailable(let reason):
                let info = backend.describe(reason)
                lines += ["availability: unavailable (\(info.name))", "reason: \(info.reasonRow)", "remedy: \(info.remedy)",
                          "permanence: \(info.permanence.rawValue)",
                          "settings: \(info.offersSettings ? Diagnostics.settingsPath : "no")"]
            }
            print(lines.joined(separator: "\n"))
        }
        return !availability.isAvailable && options.model.requireModel ? ExitStatus.unavailable : ExitStatus.success
    }

    // MARK: process

    static func process(_ options: ProcessOptions, environment: [String: String], signals early: InterruptSignals? = nil) async -> Int32 {
        let backend: AssistantBackend
        let plan: InputPlan
        let destination: OutputDestination = options.output == "-" ? .standardOutput : .folder(options.output)
        do throws(UsageError) {
            backend = try AssistantBackend.make(options.model, maxCharacters: options.maxCharacters, environment: environment)
            plan = try InputPlan.make(inputs: options.inputs, outputFolder: options.output == "-" ? nil : options.output,
                                      convertTo: options.convertTo)
            if destination == .standardOutput, let only = options.inputs.first, only != "-" {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: only, isDirectory: &isDirectory), isDirectory.boolValue {
                    throw UsageError("'-o -' writes one caption file to standard output, but \(only) is a folder")
                }
            }
        } catch {
            return usageFailure(error)
        }
        // Before any work: an output folder that cannot be written is a clear error now, not one per file later.
        if case .folder(let folder) = destination {
            do {
                try OutputFolder.checkWritable(folder)
                if let busy = OutputFolder.inUse(folder) { throw busy }
            } catch {
                printError("error: " + error.localizedDescription)
                return ExitStatus.cannotCreateOutput
            }
        }

        if options.model.requireModel {
            let availability = await waitForModel(backend, options.model.waitForModel, signals: early)
            if case .unavailable(let reason) = availability, early?.stop.isRequested != true {
                let info = backend.describe(reason)
                printError("the model is unavailable (\(info.name)): \(info.reasonRow). \(info.remedy)")
                return ExitStatus.unavailable
            }
        } else if let wait = options.model.waitForModel {
            _ = await waitForModel(backend, wait, signals: early)
        }

        let processor = FileProcessor(configuration: PipelineConfiguration(
            backend: backend.selection.reportName, source: backend.service, diagnosticsContext: backend.diagnosticsContext,
            convertTo: options.convertTo, settings: backend.settings(options)))
        let runner = BatchRunner(processor: processor, destination: destination, jobs: options.jobs, resume: options.resume)
        let progress = ProgressLine.wanted(quiet: options.quiet) && !plan.items.isEmpty ? ProgressLine(total: plan.items.count) : nil
        var callback: (@Sendable (Int) -> Void)?
        if let progress { callback = { done in progress.update(done: done) } }
        let signals = early ?? InterruptSignals()
        signals.takePending()
        let result = await runner.run(plan, progress: callback, stop: signals.stop)
        signals.uninstall()
        progress?.finish()

        let totals = result.summary.totals
        let unavailable = totals.unavailable > 0
        var status = ExitStatus.success
        if result.missingInput { status = ExitStatus.noInput }
        else if options.model.requireModel && unavailable { status = ExitStatus.unavailable }
        else if totals.failed > 0 || !result.summary.failures.isEmpty || result.reportError != nil { status = ExitStatus.someFileFailed }
        if let signal = result.stoppedBy { status = signal > 0 ? InterruptSignals.exitStatus(for: signal) : ExitStatus.interrupted }

        if !options.quiet {
            for failure in result.summary.failures { printError("\(failure.input): \(failure.error)") }
        }
        if let error = result.reportError { printError(error) }
        if !options.quiet {
            printError(summary(result.summary, destination: destination, run: result, resume: options.resume))
        }
        if options.json {
            print(summaryJSON(result.summary, destination: destination, status: status, run: result, resume: options.resume).rendered(),
                  terminator: "")
        }
        return status
    }

    /// Waits for the model as `--wait-for-model` asks, ending the wait early
    /// when `signals` (installed before main) receive a stop: Ctrl-C during
    /// a long wait then goes straight to a batch that starts no file and
    /// writes its report.
    static func waitForModel(_ backend: AssistantBackend, _ seconds: Double?, signals: InterruptSignals?) async -> Availability {
        guard let signals, seconds != nil else { return await backend.waitForAvailability(seconds) }
        signals.takePending()
        let stop = signals.stop
        return await withTaskGroup(of: Availability?.self) { group in
            group.addTask { await backend.waitForAvailability(seconds) }
            group.addTask {
                while !stop.isRequested && !Task.isCancelled { try? await Task.sleep(for: .milliseconds(50)) }
                return nil
            }
            var result: Availability?
            for await value in group {
                group.cancelAll()  // whichever ends first ends the other (the wait returns its last state)
                if let value { result = value }
            }
            return result ?? .unavailable(.modelNotReady)
        }
    }

    /// The one-line summary, e.g. `3 files: 3 written, 0 failed; actions: 9 applied, 0 failed, 0 disabled; report in out/report.json`.
    /// With `run`, says how many files `--resume` skipped (when `resume`) and,
    /// when the batch was stopped, how many were not processed.
    public static func summary(_ report: BatchSummary, destination: OutputDestination,
                               run: BatchRunner.Result? = nil, resume: Bool = false) -> String {
        let t = report.totals
        var line = "\(t.files) file\(t.files == 1 ? "" : "s"): \(t.written) written, \(t.failed) failed; actions: \(t.applied) applied, \(t.actionsFailed) failed, \(t.disabled) disabled"
        let rows = report.unavailableRows
        if rows.count == 1, let row = rows.first { line += " (model unavailable, \(row))" }
        if resume, let run { line += "; \(run.skipped) already done (skipped by --resume)" }
        if let run, let signal = run.stoppedBy {
            line += "; interrupted\(signal > 0 ? " by " + signalName(signal) : ""): \(run.notProcessed) not processed"
            line += " (run the same command with --resume to finish)"
        }
        if case .folder(let folder) = destination, run?.reportError == nil { line += "; report in \(folder)/report.json" }
        return line
    }

    /// The `--json` summary printed on standard output.
    /// `skipped` is there with `--resume`, `notProcessed` when the batch was stopped.
    public static func summaryJSON(_ report: BatchSummary, destination: OutputDestination, status: Int32,
                                   run: BatchRunner.Result? = nil, resume: Bool = false) -> JSONValue {
        let t = report.totals
        var report: JSONValue = .null
        // Only a report that was written is pointed to.
        if case .folder(let folder) = destination, run?.reportError == nil { report = .string(folder + "/report.json") }
        var pairs: [(String, JSONValue)] = [
            ("files", .int(t.files)), ("written", .int(t.written)), ("failed", .int(t.failed)),
            ("modelUnavailable", .int(t.unavailable)),
            ("actions", .object([("applied", .int(t.applied)), ("failed", .int(t.actionsFailed)), ("disabled", .int(t.disabled))])),
        ]
        if resume, let run { pairs.append(("skipped", .int(run.skipped))) }
        if let run, run.stoppedBy != nil { pairs.append(("notProcessed", .int(run.notProcessed))) }
        pairs += [("report", report), ("exitStatus", .int(Int(status)))]
        return .object(pairs)
    }

    /// `SIGINT`, `SIGTERM`, or `signal N`.
    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(signal)"
        }
    }
}
