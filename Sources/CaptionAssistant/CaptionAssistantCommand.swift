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

    static func process(_ options: ProcessOptions, environment: [String: String]) async -> Int32 {
        let backend: AssistantBackend
        let plan: InputPlan
        let destination: OutputDestination = options.output == "-" ? .standardOutput : .folder(options.output)
        do throws(UsageError) {
            backend = try AssistantBackend.make(options.model, maxCharacters: options.maxCharacters, environment: environment)
            if case .folder(let folder) = destination {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
                    throw UsageError("the output \(folder) exists and is not a folder")
                }
            }
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

        if options.model.requireModel {
            let availability = await backend.waitForAvailability(options.model.waitForModel)
            if case .unavailable(let reason) = availability {
                let info = backend.describe(reason)
                printError("the model is unavailable (\(info.name)): \(info.reasonRow). \(info.remedy)")
                return ExitStatus.unavailable
            }
        } else if let wait = options.model.waitForModel {
            _ = await backend.waitForAvailability(wait)
        }

        let processor = FileProcessor(configuration: PipelineConfiguration(
            backend: backend.selection.reportName, source: backend.service, diagnosticsContext: backend.diagnosticsContext,
            convertTo: options.convertTo))
        let runner = BatchRunner(processor: processor, destination: destination, jobs: options.jobs)
        let progress = ProgressLine.wanted(quiet: options.quiet) && !plan.items.isEmpty ? ProgressLine(total: plan.items.count) : nil
        var callback: (@Sendable (Int) -> Void)?
        if let progress { callback = { done in progress.update(done: done) } }
        let result = await runner.run(plan, progress: callback)
        progress?.finish()

        let totals = result.report.totals
        let unavailable = result.report.files.contains { if case .unavailable? = $0.model.availability { return true }; return false }
        var status = ExitStatus.success
        if result.missingInput { status = ExitStatus.noInput }
        else if options.model.requireModel && unavailable { status = ExitStatus.unavailable }
        else if totals.failed > 0 || result.reportError != nil { status = ExitStatus.someFileFailed }

        for file in result.report.files where file.error != nil && !file.written {
            if !options.quiet { printError("\(file.input): \(file.error ?? "")") }
        }
        if let error = result.reportError { printError(error) }
        if !options.quiet {
            printError(summary(result.report, destination: destination))
        }
        if options.json {
            print(summaryJSON(result.report, destination: destination, status: status).rendered(), terminator: "")
        }
        return status
    }

    /// The one-line summary, e.g. `3 files: 3 written, 0 failed; actions: 9 applied, 0 failed, 0 disabled; report in out/report.json`.
    public static func summary(_ report: BatchReport, destination: OutputDestination) -> String {
        let t = report.totals
        var line = "\(t.files) file\(t.files == 1 ? "" : "s"): \(t.written) written, \(t.failed) failed; actions: \(t.applied) applied, \(t.actionsFailed) failed, \(t.disabled) disabled"
        let rows = Set(report.files.compactMap { file -> String? in
            if case .unavailable(let info)? = file.model.availability { return info.name + ": " + info.reasonRow }
            return nil
        })
        if rows.count == 1, let row = rows.first { line += " (model unavailable, \(row))" }
        if case .folder(let folder) = destination { line += "; report in \(folder)/report.json" }
        return line
    }

    /// The `--json` summary printed on standard output.
    public static func summaryJSON(_ report: BatchReport, destination: OutputDestination, status: Int32) -> JSONValue {
        let t = report.totals
        var report: JSONValue = .null
        if case .folder(let folder) = destination { report = .string(folder + "/report.json") }
        return .object([
            ("files", .int(t.files)), ("written", .int(t.written)), ("failed", .int(t.failed)),
            ("modelUnavailable", .int(t.unavailable)),
            ("actions", .object([("applied", .int(t.applied)), ("failed", .int(t.actionsFailed)), ("disabled", .int(t.disabled))])),
            ("report", report), ("exitStatus", .int(Int(status))),
        ])
    }
}
