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
    public static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        let command: Command
        do {
            command = try CommandLineParser.parse(arguments, defaultJobs: ProcessInfo.processInfo.activeProcessorCount)
        } catch {
            return usageFailure(error)
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
            return await process(options, environment: environment)
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
        var backend: AssistantBackend
        do {
            backend = try AssistantBackend.make(options.model, maxCharacters: 3000, environment: environment)
        } catch {
            return usageFailure(error)
        }
        let availability = await backend.waitForAvailability(options.model.waitForModel, waiting: announceWait)
        let served = await backend.servedModels(for: availability)
        var pairs: [(String, JSONValue)] = [("backend", .string(backend.selection.reportName))]
        // Where the HTTP backend will send its requests, and which model it asks for.
        let http = backend.selection.kind == .http ? backend.diagnosticsContext : nil
        if let http {
            pairs += [("endpoint", .string(http.endpoint.map { $0 + "/v1/chat/completions" })),
                      ("model", .string(http.modelName)),
                      ("serverModels", .strings(served)),
                      ("retryPolicy", .string(backend.service.options.retryPolicy))]
        }
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
            if let http {
                lines.append("endpoint: \(http.endpoint.map { $0 + "/v1/chat/completions" } ?? "(none)")")
                lines.append("model: \(http.modelName ?? "(the server's default)")")
                if !served.isEmpty { lines.append("server models: \(served.joined(separator: ", "))") }
                lines.append("retry policy: \(backend.service.options.retryPolicy)")
            }
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

    static func process(_ options: ProcessOptions, environment: [String: String]) async -> Int32 {
        var backend: AssistantBackend
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
            } catch {
                printError("error: " + error.localizedDescription)
                return ExitStatus.cannotCreateOutput
            }
        }

        if options.model.requireModel {
            let availability = await backend.waitForAvailability(options.model.waitForModel, waiting: announceWait)
            if case .unavailable(let reason) = availability {
                let info = backend.describe(reason)
                printError("the model is unavailable (\(info.name)): \(info.reasonRow). \(info.remedy)")
                return ExitStatus.unavailable
            }
        } else if let wait = options.model.waitForModel {
            _ = await backend.waitForAvailability(wait, waiting: announceWait)
        }

        var pipeline = PipelineConfiguration(
            backend: backend.selection.reportName, source: backend.service, diagnosticsContext: backend.diagnosticsContext,
            convertTo: options.convertTo, settings: backend.settings(options))
        pipeline.recordsCost = backend.selection.kind == .http || backend.selection.kind == .foundation
        let processor = FileProcessor(configuration: pipeline)
        let runner = BatchRunner(processor: processor, destination: destination, jobs: options.jobs, resume: options.resume)
        let progress = ProgressLine.wanted(quiet: options.quiet) && !plan.items.isEmpty ? ProgressLine(total: plan.items.count) : nil
        var callback: (@Sendable (Int) -> Void)?
        if let progress { callback = { done in progress.update(done: done) } }
        let signals = InterruptSignals()
        let result = await runner.run(plan, progress: callback, stop: signals.stop)
        signals.uninstall()
        progress?.finish()

        let totals = result.summary.totals
        let unavailable = totals.unavailable > 0
        var status = ExitStatus.success
        if result.missingInput { status = ExitStatus.noInput }
        else if options.model.requireModel && unavailable { status = ExitStatus.unavailable }
        else if options.model.requireModel && totals.answered == 0 && totals.written > 0 && totals.disabled == 0 {
            // The model was there but no file got a usable answer (every request failed, or every answer was unusable).
            printError("--require-model: the model did not give a usable answer for any file (see the errors in the report)")
            status = ExitStatus.unavailable
        }
        else if totals.failed > 0 || result.reportError != nil { status = ExitStatus.someFileFailed }
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
        if t.cost.requests > 0 { line += "; model: \(t.cost.summary)" }
        if case .folder(let folder) = destination { line += "; report in \(folder)/report.json" }
        return line
    }

    /// The `--json` summary printed on standard output.
    /// `skipped` is there with `--resume`, `notProcessed` when the batch was stopped.
    public static func summaryJSON(_ report: BatchSummary, destination: OutputDestination, status: Int32,
                                   run: BatchRunner.Result? = nil, resume: Bool = false) -> JSONValue {
        let t = report.totals
        var report: JSONValue = .null
        if case .folder(let folder) = destination { report = .string(folder + "/report.json") }
        var pairs: [(String, JSONValue)] = [
            ("files", .int(t.files)), ("written", .int(t.written)), ("failed", .int(t.failed)),
            ("modelUnavailable", .int(t.unavailable)),
            ("actions", .object([("applied", .int(t.applied)), ("failed", .int(t.actionsFailed)), ("disabled", .int(t.disabled))])),
        ]
        if t.cost.requests > 0 { pairs.append(("model", t.cost.json)) }
        if resume, let run { pairs.append(("skipped", .int(run.skipped))) }
        if let run, run.stoppedBy != nil { pairs.append(("notProcessed", .int(run.notProcessed))) }
        pairs += [("report", report), ("exitStatus", .int(Int(status)))]
        return .object(pairs)
    }

    /// Says on standard error that the run waits for a model that is getting ready.
    static func announceWait(_ seconds: Double) {
        printError("the model is still getting ready (modelNotReady); waiting up to \(HTTPConfiguration.seconds(seconds)) for it (--wait-for-model)…")
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
