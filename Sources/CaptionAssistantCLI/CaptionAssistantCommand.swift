import Assistant
import CaptionAssistant
import Captions
import Foundation
import JSON

/// The whole `caption-assistant` command, as a library call: the executable
/// only passes its arguments, environment and early signal pipe in and exits
/// with the status. Everything else in this module is internal to it.
public enum CaptionAssistantCommand {
    /// Exit statuses (sysexits).
    enum ExitStatus {
        /// Every file written.
        static let success: Int32 = 0
        /// Some file could not be read or written.
        static let someFileFailed: Int32 = 1
        /// Bad usage.
        static let usage: Int32 = 64
        /// An input does not exist.
        static let noInput: Int32 = 66
        /// The model is unavailable under `--require-model`.
        static let unavailable: Int32 = 69
        /// The output folder cannot be created or written (`EX_CANTCREAT`).
        static let cannotCreateOutput: Int32 = 73
        /// Stopped by a request that names no signal: as SIGINT (128 + 2). A stop by
        /// a signal ends with `InterruptSignals.exitStatus(for:)`, 128 + its number.
        static let interrupted: Int32 = 130
    }

    /// Runs the command and returns its exit status.
    ///
    /// `earlySignalPipe`, when not -1, is the read end of the pipe into which
    /// the executable's C handler, installed before main (`CEarlySignals`),
    /// writes each SIGINT and SIGTERM: a signal that came before the batch
    /// started makes the batch start no file, and it still writes its report.
    /// Commands other than a batch give the signals their default action back
    /// (and end with 130 or 143 if one came). Without the pipe, a batch
    /// watches the signals itself from its start.
    public static func run(arguments: [String], environment: [String: String], earlySignalPipe: Int32 = -1) async -> Int32 {
        let signals = earlySignalPipe >= 0 ? InterruptSignals(earlyPipe: earlySignalPipe) : nil
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
            print("caption-assistant \(CaptionAssistantVersion.description)")
            return ExitStatus.success
        case .check(let options):
            return await check(options, environment: environment)
        case .process(let options):
            defer { signals?.uninstall() }
            return await process(options, environment: environment, signals: signals)
        case .merge(let options):
            return merge(options)
        case .review(let options):
            return review(options)
        }
    }

    static func usageFailure(_ error: SettingsError) -> Int32 { usageFailure(UsageError(error)) }

    static func usageFailure(_ error: UsageError) -> Int32 {
        printError("error: \(error.message)")
        FileHandle.standardError.write(Data("Run 'caption-assistant --help' to see the commands and options.\n".utf8))
        return ExitStatus.usage
    }

    /// How many files given more than once are named in warnings before the rest are counted.
    static let repeatsNamed = 20

    /// Prints `text` on standard error as one line after `caption-assistant: `,
    /// every control character in it escaped (`TerminalText`): names and server
    /// texts inside it cannot start a line of their own.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(("caption-assistant: " + TerminalText.escaped(text) + "\n").utf8))
    }

    // MARK: check

    static func check(_ options: CheckOptions, environment: [String: String]) async -> Int32 {
        var backend: AssistantBackend
        do {
            backend = try AssistantBackend.make(options.model, maxCharacters: PromptBuilder.defaultMaxCharacters, environment: environment,
                                                names: CommandOption.settingNames)
        } catch {
            return usageFailure(error)
        }
        let availability = await backend.waitForAvailability(options.model.waitForModel, waiting: announceWait)
        let served = await backend.servedModels(for: availability)
        var report = CheckSummary()
        report.backend = backend.selection.reportName
        // Where the HTTP backend will send its requests, and which model it asks for.
        let http = backend.selection.kind == .http ? backend.diagnosticsContext : nil
        if let http {
            report.endpoint = .some(http.endpoint.map { $0 + "/v1/chat/completions" })
            report.model = .some(http.modelName)
            report.serverModels = served
            report.retryPolicy = backend.service.options.retryPolicy
            report.proxy = http.proxy
        }
        report.titleDictionaries = TitleDictionary.installed
        switch availability {
        case .available:
            report.availability = .available
        case .unavailable(let reason):
            let info = backend.describe(reason)
            report.availability = .unavailable(ModelUnavailability(info))
            report.reasonRow = info.reasonRow
        }
        if options.json {
            print(report.json.rendered(), terminator: "")
        } else {
            var lines = ["backend: \(backend.selection.reportName)"]
            if let http {
                lines.append("endpoint: \(http.endpoint.map { $0 + "/v1/chat/completions" } ?? "(none)")")
                if let proxy = http.proxy { lines.append("proxy: \(proxy)") }
                lines.append("model: \(http.modelName ?? "(the server's default)")")
                if !served.isEmpty { lines.append("server models: \(served.joined(separator: ", "))") }
                if let kind = backend.serverKind {
                    lines.append("server kind: \(kind.kind.rawValue) (\(kind.reason))")
                } else {
                    lines.append("server kind: not told by the server; json_schema is sent first, json_object after a refusal")
                }
                lines.append("retry policy: \(backend.service.options.retryPolicy)")
            }
            lines.append("title dictionaries: \(TitleDictionary.summary)")
            switch availability {
            case .available: lines.append("availability: available")
            case .unavailable(let reason):
                let info = backend.describe(reason)
                lines += ["availability: unavailable (\(info.name))", "reason: \(info.reasonRow)", "remedy: \(info.remedy)",
                          "permanence: \(info.permanence.rawValue)",
                          "settings: \(info.offersSettings ? Diagnostics.settingsPath : "no")"]
            }
            // One line per row: a server's model names or reason cannot add rows of their own.
            print(lines.map(TerminalText.escaped).joined(separator: "\n"))
        }
        // A check passes only when the configured model can answer (as under --require-model): a CI
        // step `caption-assistant check` fails with the server down.
        return availability.isAvailable ? ExitStatus.success : ExitStatus.unavailable
    }

    // MARK: process

    static func process(_ options: ProcessOptions, environment: [String: String], signals early: InterruptSignals? = nil) async -> Int32 {
        var backend: AssistantBackend
        let plan: InputPlan
        // The run's whole plan (every shard's files): what the run writes, for what it must not call stale.
        let runPlan: InputPlan
        let part: ReportPart?
        let destination: OutputDestination = options.output == "-" ? .standardOutput : .folder(options.output)
        do throws(SettingsError) {
            backend = try AssistantBackend.make(options.model, maxCharacters: options.maxCharacters, environment: environment,
                                                names: CommandOption.settingNames)
            backend.service.options.actions = Set(options.actions)
            runPlan = try InputPlan.make(inputs: options.inputs, outputFolder: options.output == "-" ? nil : options.output,
                                         convertTo: options.convertTo)
            if let request = options.shard {
                (plan, part) = try runPlan.shard(request, shardCount: options.shardCount, settings: backend.settings(options),
                                               byModelCalls: backend.selection.callsRealModel, environment: environment,
                                               names: CommandOption.settingNames)
            } else {
                (plan, part) = (runPlan, nil)
            }
            if let reportFile = options.reportFile, reportFile != BatchRunner.reportToStandardOutput {
                try runPlan.checkReportFile(reportFile, inputs: options.inputs, outputFolder: options.output == "-" ? nil : options.output)
            }
            if destination == .standardOutput, let only = options.inputs.first, only != "-" {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: only, isDirectory: &isDirectory), isDirectory.boolValue {
                    throw SettingsError("'-o -' writes one caption file to standard output, but \(only) is a folder")
                }
            }
        } catch {
            return usageFailure(error)
        }
        // Finding nothing is said, never a silent success (even under --quiet): an
        // empty folder among other inputs is a warning; a run with nothing at all
        // to do is an error (66, as for a missing input) unless --allow-empty.
        // Which server and model answer is said once, up front: the endpoint may come from the
        // environment, and a run against the wrong server should be visible before it is over.
        if backend.selection.kind == .http, !options.quiet, !options.json {
            let http = backend.diagnosticsContext
            printError("model: \(http.modelName ?? "the server's default model") at \(http.endpoint.map { $0 + "/v1/chat/completions" } ?? "(no endpoint)")"
                       + (http.proxy.map { ", through the proxy " + $0 } ?? ""))
        }
        // The first repeats are named; a flood of them (a glob given twice) is counted, not listed.
        for again in plan.repeated.prefix(Self.repeatsNamed) {
            // A folder's file and the same file by its path read alike (`dir dir/a.srt`): say how it came twice.
            let also = again.input == again.sameAs ? "by its own path and inside a folder given too" : "also as \(again.sameAs)"
            printError("warning: \(again.input) is given more than once (\(also)); it is processed once")
        }
        if plan.repeated.count > Self.repeatsNamed {
            printError("warning: \(plan.repeated.count - Self.repeatsNamed) more inputs are given more than once; each file is processed once")
        }
        for folder in plan.emptyFolders {
            printError("warning: no caption file found in \(folder) (looked for \(InputPlan.searchedFor)); name a file itself to process it whatever its extension")
        }
        // A shard may be given no file of a plan that has some: only an empty whole plan is "nothing found".
        if (part?.planFiles ?? plan.items.count) == 0 && !options.allowEmpty {
            printError("error: no caption file found, so nothing was done; add --allow-empty to accept an empty run")
            if options.json {
                print(summaryJSON(BatchSummary(), destination: .standardOutput, status: ExitStatus.noInput).rendered(), terminator: "")
            }
            return ExitStatus.noInput
        }
        // An earlier run's report there means its outputs may be there too (see StaleOutputs).
        var earlierRun = false
        if case .folder(let folder) = destination { earlierRun = FileManager.default.fileExists(atPath: folder + "/report.json") }
        // Before any work: an output folder that cannot be written is a clear error now, not one per file later.
        if case .folder(let folder) = destination {
            do throws(OutputFolderError) {
                try OutputFolder.checkWritable(folder)
                if let busy = OutputFolder.inUse(folder, lock: part.map { .shard(run: $0.run) } ?? .exclusive) { throw busy }
            } catch {
                printError("error: " + error.message(CommandOption.settingNames))
                return ExitStatus.cannotCreateOutput
            }
        }

        if options.model.requireModel {
            let availability = await waitForModel(&backend, options.model.waitForModel, signals: early)
            if case .unavailable(let reason) = availability, early?.stop.isRequested != true {
                let info = backend.describe(reason)
                printError("the model is unavailable (\(info.name)): \(info.reasonRow). \(info.remedy)")
                if options.json {
                    var nothing = BatchSummary()
                    nothing.unavailableReasons[info.name] = info.reasonRow
                    let run = BatchRunner.Result(summary: nothing, notProcessed: plan.items.count)
                    print(summaryJSON(nothing, destination: .standardOutput, status: ExitStatus.unavailable, run: run).rendered(),
                          terminator: "")
                }
                return ExitStatus.unavailable
            }
        } else if let wait = options.model.waitForModel {
            _ = await waitForModel(&backend, wait, signals: early)
        }

        var pipeline = PipelineConfiguration(
            backend: backend.selection.reportName, source: backend.service, diagnosticsContext: backend.diagnosticsContext,
            convertTo: options.convertTo, writeOptions: options.writeOptions, settings: backend.settings(options))
        pipeline.recordsCost = backend.selection.callsRealModel
        pipeline.readAs = options.readAs
        let processor = FileProcessor(configuration: pipeline)
        var runner = BatchRunner(processor: processor, destination: destination, jobs: options.jobs, resume: options.resume)
        runner.part = part
        runner.replaceModelResults = options.replaceModelResults
        runner.reportFile = options.reportFile
        let progress = plan.items.isEmpty ? nil : ProgressLine.mode(quiet: options.quiet, json: options.json)
            .map { ProgressLine(total: plan.items.count, mode: $0) }
        var callback: (@Sendable (Int) -> Void)?
        if let progress { callback = { done in progress.update(done: done) } }
        // -v: each file's titles and emoji as it finishes, above the progress line.
        var finished: (@Sendable (FileReport) -> Void)?
        if options.verbose {
            finished = { file in
                guard let line = verboseLine(file) else { return }
                let text = "caption-assistant: " + TerminalText.escaped(line)
                if let progress { progress.printAbove(text) } else { FileHandle.standardError.write(Data((text + "\n").utf8)) }
            }
        }
        // Each failure is said when it happens (above the progress line), even under --quiet.
        let failed: @Sendable (BatchSummary.Failure) -> Void = { failure in
            let line = "caption-assistant: " + TerminalText.escaped("\(failure.input): \(failure.error)")
            if let progress { progress.printAbove(line) } else { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
        let signals = early ?? InterruptSignals()
        if options.announceStop { signals.firstStop.announce() }
        signals.takePending()
        progress?.start()
        let clock = ContinuousClock.now
        let result = await runner.run(plan, progress: callback, stop: signals.stop, failed: failed, finished: finished)
        let wall = clock.duration(to: .now)
        signals.uninstall()
        progress?.finish()

        let totals = result.summary.totals
        let unavailable = totals.modelUnavailable > 0
        var status = ExitStatus.success
        if result.missingInput { status = ExitStatus.noInput }
        else if options.model.requireModel && unavailable { status = ExitStatus.unavailable }
        else if options.model.requireModel && result.summary.answered == 0 && totals.written > 0 && totals.actions.disabled == 0 {
            // The model was there but no file got a usable answer (every request failed, or every answer was unusable).
            printError("--require-model: the model did not give a usable answer for any file (see the errors in the report)")
            status = ExitStatus.unavailable
        }
        else if totals.failed > 0 || !result.summary.failures.isEmpty || result.reportError != nil { status = ExitStatus.someFileFailed }
        if let signal = result.stoppedBy { status = signal > 0 ? InterruptSignals.exitStatus(for: signal) : ExitStatus.interrupted }

        // The end-of-run list repeats the failures (they may have scrolled away in a long batch).
        if !options.quiet, !result.summary.failures.isEmpty {
            let count = result.summary.failures.count
            printError("\(count) file\(count == 1 ? "" : "s") not written:")
            for failure in result.summary.failures {
                FileHandle.standardError.write(Data(("  " + TerminalText.escaped("\(failure.input): \(failure.error)") + "\n").utf8))
            }
        }
        // Which files were written without all their actions, and why (the report says the rest; the review shows them).
        if !options.quiet {
            let lines = notAppliedLines(result.summary, report: reportWritten(destination: destination, run: result, shard: part))
            if let heading = lines.first { printError(heading) }
            for line in lines.dropFirst() { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
        // Outputs kept or replaced are warnings: the run did not do what it was asked for them, or lost an earlier answer.
        for line in earlierOutputWarnings(result.summary) { printError(line) }
        if let error = result.reportError { printError(error) }
        if earlierRun, case .folder(let folder) = destination {
            let stale = StaleOutputs.find(runPlan, in: folder)
            if !stale.isEmpty {
                let shown = stale.prefix(5).map { folder + "/" + $0 }.joined(separator: ", ")
                printError("warning: \(stale.count) caption file\(stale.count == 1 ? "" : "s") of an earlier run with other options (another --to) \(stale.count == 1 ? "is" : "are") still in \(folder) and not in this run's report: \(shown)\(stale.count > 5 ? ", …" : ""); delete \(stale.count == 1 ? "it" : "them") (and the .assistant.json beside \(stale.count == 1 ? "it" : "each")) if not wanted")
            }
        }
        // A review of the folder is made again from the new report.json (a shard writes none: merge does it).
        var review: ReviewSite.Refresh = .none
        if case .folder(let folder) = destination, part == nil, result.reportError == nil {
            review = ReviewSite.refresh(outputFolder: folder, jobs: options.jobs)
            if let warning = reviewWarning(review, folder: folder) { printError(warning) }
        }
        if !options.quiet {
            printError(summary(result.summary, destination: destination, run: result, resume: options.resume, shard: part,
                               reportFile: options.reportFile, wallSeconds: seconds(wall))
                       + reviewNote(review))
        }
        if options.json {
            var json = RunSummary(process: result.summary, counts: fileCounts(result.summary, run: result, resume: options.resume),
                                  showsSkipped: options.resume, stopped: result.stoppedBy != nil, shard: part.map(RunSummary.ShardFigures.init),
                                  report: reportWritten(destination: destination, run: result, shard: part, reportFile: options.reportFile),
                                  exitStatus: Int(status))
            if case .rebuilt(let made) = review { json.index = made.index }
            if json.model != nil { json.wallMilliseconds = Int((seconds(wall) * 1000).rounded()) }
            print(json.json.rendered(), terminator: "")
        }
        return status
    }

    /// `; review updated: OUT/review/index.html` when the folder's review was made again.
    static func reviewNote(_ review: ReviewSite.Refresh) -> String {
        if case .rebuilt(let made) = review { return "; review updated: \(made.index)" }
        return ""
    }

    /// The warning when the folder's review, which showed an earlier run, could not be made again.
    static func reviewWarning(_ review: ReviewSite.Refresh, folder: String) -> String? {
        guard case .failed(let message, let removed) = review else { return nil }
        return "warning: the review in \(folder)/review showed an earlier run and could not be made again (\(message)); "
            + (removed ? "its index pages and titles.csv were removed so that they are not taken for this run's" : "its index pages or titles.csv could not be removed either: it still shows the earlier run")
            + "; run 'caption-assistant review \(folder)' once that is fixed"
    }

    /// Waits for the model as `--wait-for-model` asks, ending the wait early
    /// when `signals` (installed before main) receive a stop: Ctrl-C during
    /// a long wait then goes straight to a batch that starts no file and
    /// writes its report.
    static func waitForModel(_ backend: inout AssistantBackend, _ seconds: Double?, signals: InterruptSignals?) async -> Availability {
        guard let signals, seconds != nil else { return await backend.waitForAvailability(seconds, waiting: announceWait) }
        signals.takePending()
        let stop = signals.stop
        // The wait runs on a copy in a child task; the copy (its diagnostics say how long was waited) is kept.
        let copy = backend
        let (availability, waited) = await withTaskGroup(of: (Availability, AssistantBackend)?.self) { group in
            group.addTask {
                var waiting = copy
                let availability = await waiting.waitForAvailability(seconds, waiting: announceWait)
                return (availability, waiting)
            }
            group.addTask {
                while !stop.isRequested && !Task.isCancelled { try? await Task.sleep(for: .milliseconds(50)) }
                return nil
            }
            var result: (Availability, AssistantBackend)?
            for await value in group {
                group.cancelAll()  // whichever ends first ends the other (the wait returns its last state)
                if let value { result = value }
            }
            return result ?? (.unavailable(.modelNotReady), copy)
        }
        backend = waited
        return availability
    }

    /// The one-line summary, e.g. `3 files: 3 written, 0 failed; actions: 9 applied, 0 failed, 0 disabled; report in out/report.json`.
    /// With `run`, says how many files `--resume` skipped (when `resume`; they
    /// are not counted as written by this run) and, when the batch was stopped,
    /// how many were not processed (not counted as failed). Warnings are counted
    /// when there are any, and the transcripts cut at the cap with how much of
    /// their text was sent; the model's error text is given when actions failed.
    /// The model's cost is this run's; what earlier runs spent on the files
    /// `--resume` skipped is said apart.
    /// With `wallSeconds` (the batch's wall time), the model's time is that,
    /// beside the time summed over its requests, which is more when several are in flight.
    /// For a shard, it starts `shard 1/4 (1250 of 5000 files, from file 1250): ` and names the shard's report part.
    static func summary(_ report: BatchSummary, destination: OutputDestination,
                               run: BatchRunner.Result? = nil, resume: Bool = false, shard: ReportPart? = nil,
                               reportFile: String? = nil, wallSeconds: Double? = nil) -> String {
        let t = report.totals
        let counts = fileCounts(report, run: run, resume: resume)
        var line = shard.map(shardPrefix) ?? ""
        line += "\(counts.files) file\(counts.files == 1 ? "" : "s"): \(counts.written) written"
        if resume, run != nil { line += ", \(counts.skipped) already done (skipped by --resume)" }
        if counts.kept > 0 { line += ", \(counts.kept) kept as an earlier run made them with the model" }
        line += ", \(counts.failed) failed"
        if counts.notProcessed > 0 { line += ", \(counts.notProcessed) not processed" }
        line += "; actions: " + t.actions.summary
        let rows = report.unavailableRows
        if rows.count == 1, let row = rows.first { line += " (model unavailable, \(row))" }
        if let error = report.modelErrors.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key {
            let others = report.modelErrors.count - 1 + (report.otherModelErrors > 0 ? 1 : 0)
            line += " (model failed: \(error)\(others > 0 ? "; and \(others) other error\(others == 1 ? "" : "s")" : ""))"
        }
        if t.warnings > 0 { line += "; \(t.warnings) warning\(t.warnings == 1 ? "" : "s") while reading" }
        let cut = report.cutTranscripts
        if cut.files > 0 {
            line += "; \(cut.files) transcript\(cut.files == 1 ? "" : "s") cut at \(CommandOption.settingNames.spell(.maxCharacters)): "
                + "\(cut.sentCharacters) of \(cut.characters) characters sent"
        }
        if let run, let signal = run.stoppedBy {
            line += "; interrupted\(signal > 0 ? " by " + signalName(signal) : "") (run the same command with --resume to finish)"
        }
        // After --resume, this run's cost; what the earlier runs spent on the files skipped is said apart.
        if let cost = report.runCost, cost.requests > 0 { line += "; model: \(cost.summary(wallSeconds: wallSeconds))" }
        if let cost = report.earlierCost, cost.requests > 0 { line += "; earlier runs' model: \(cost.summary())" }
        if case .folder(let folder) = destination, run?.reportError == nil { line += "; report in \(folder)/\(shard?.name ?? "report.json")" }
        if let reportFile, run != nil, run?.reportError == nil {
            line += reportFile == BatchRunner.reportToStandardOutput ? "; report on standard output"
                : (destination == .standardOutput ? "; report in " : " and ") + reportFile
        }
        return line
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The lines that say which files were written without all their actions:
    /// one per file (the first `BatchSummary.notAppliedListed`), each action
    /// failed or disabled with why, the remedy beside a reason that has one
    /// (the first time it is given), then how many more and where they are
    /// (`report`, when one was written), and the review that shows them all.
    static func notAppliedLines(_ summary: BatchSummary, report: String?) -> [String] {
        guard summary.notAppliedFiles > 0 else { return [] }
        let n = summary.notAppliedFiles
        var lines = ["\(n) file\(n == 1 ? "" : "s") written without all \(n == 1 ? "its" : "their") actions:"]
        var remedies: Set<String> = []
        for file in summary.notApplied {
            let parts = file.groups.map { group in
                let names = group.actions.map(\.rawValue)
                let listed = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
                var text = "\(listed) \(group.state.rawValue): \(group.reason)"
                if let remedy = group.remedy, remedies.insert(remedy).inserted { text += " (remedy: \(remedy))" }
                return text
            }
            lines.append("  " + TerminalText.escaped(file.input + ": " + parts.joined(separator: "; ")))
        }
        let more = n - summary.notApplied.count
        if more > 0 { lines.append("  and \(more) more" + (report.map { ": " + TerminalText.escaped($0) } ?? "")) }
        if let report, report.hasSuffix("/report.json") {
            let folder = String(report.dropLast("/report.json".count))
            lines.append("  to see every file: caption-assistant review \(TerminalText.escaped(shellWord(folder)))")
        }
        return lines
    }

    /// `word` as a shell reads it back: as it is when it holds only letters,
    /// digits and `_ . / , : + @ % -`, else in single quotes (a `'` in it as `'\''`).
    static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_./,:+@%-".unicodeScalars.contains($0))
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `-v`'s line for a file that finished: its input, emoji and three
    /// titles (nil when it has neither: the file failed, or the model gave none).
    static func verboseLine(_ file: FileReport) -> String? {
        let titles = file.actions.first { $0.id == .titles && $0.state == .applied }?.titles ?? []
        let emoji = file.actions.first { $0.id == .emoji && $0.state == .applied }?.emoji
        guard !titles.isEmpty || emoji != nil else { return nil }
        var line = file.input + ":"
        if let emoji { line += " " + emoji }
        if !titles.isEmpty { line += " " + titles.map { "\"" + $0 + "\"" }.joined(separator: " | ") }
        return line
    }

    /// How many kept or replaced outputs a warning names before it counts the rest.
    static let earlierOutputsNamed = 20

    /// The warnings about outputs an earlier run made with the model: those
    /// kept (this run's model gave nothing for them), and those replaced
    /// because their input changed or they could not be trusted.
    static func earlierOutputWarnings(_ summary: BatchSummary) -> [String] {
        func names(_ inputs: [String]) -> String {
            let shown = inputs.prefix(earlierOutputsNamed).joined(separator: ", ")
            return inputs.count > earlierOutputsNamed ? shown + " and \(inputs.count - earlierOutputsNamed) more" : shown
        }
        var lines: [String] = []
        let kept = summary.keptOutputs
        if !kept.isEmpty {
            let why = Set(kept.map(\.record.why)).sorted().joined(separator: "; ")
            lines.append("warning: \(kept.count) file\(kept.count == 1 ? "" : "s") kept the output\(kept.count == 1 ? "" : "s") an earlier run made with the model, since this run gave nothing to store over \(kept.count == 1 ? "it" : "them") (\(why)); --replace-model-results replaces such outputs: \(names(kept.map(\.input)))")
        }
        let results = summary.keptResults
        if !results.isEmpty {
            let one = results.count == 1
            let counts = AssistantAction.allCases.compactMap { action -> String? in
                let n = results.filter { $0.actions.contains(action) }.count
                return n == 0 ? nil : "\(action.rawValue) in \(n)"
            }.joined(separator: ", ")
            lines.append("warning: \(results.count) file\(one ? "" : "s") written by this run kept results an earlier run's model gave (\(counts)), since this run's model gave none for them (see \"source\": \"earlier\" in the report); --replace-model-results replaces them: \(names(results.map(\.input)))")
        }
        for reason in [ReplacedOutput.Reason.inputChanged, .notTrusted] {
            let replaced = summary.replacedOutputs.filter { $0.record.because == reason }
            guard let first = replaced.first else { continue }
            let one = replaced.count == 1
            let text = reason == .inputChanged
                ? "\(replaced.count) output\(one ? "" : "s") an earlier run made with the model \(one ? "was" : "were") replaced by \(one ? "one" : "ones") made without it, since \(one ? "its" : "their") input changed (nothing of \(one ? "it" : "them") applied any more)"
                : "\(replaced.count) output\(one ? "" : "s") of an earlier run \(one ? "was" : "were") replaced, since \(one ? "its" : "their") sidecar or caption could not be trusted (\(first.record.detail ?? "damaged")\(one ? "" : "; …"))"
            lines.append("warning: " + text + ": " + names(replaced.map(\.input)))
        }
        return lines
    }

    /// The file counts the summaries give (`RunSummary.FileCounts`): `skipped`
    /// is counted only with `--resume`.
    static func fileCounts(_ report: BatchSummary, run: BatchRunner.Result?, resume: Bool) -> RunSummary.FileCounts {
        RunSummary.FileCounts(report.totals, skipped: resume ? run?.skipped ?? 0 : 0, notProcessed: run?.notProcessed ?? 0)
    }

    /// The `--json` summary printed on standard output (`RunSummary`).
    /// `skipped` is there with `--resume`, `notProcessed` when files were not
    /// processed (a stopped batch, or a model unavailable under `--require-model`).
    /// `unavailableReasons` and `modelErrors` say why actions were disabled or failed.
    /// For a shard, `shard` says which and how many files it had.
    static func summaryJSON(_ report: BatchSummary, destination: OutputDestination, status: Int32,
                            run: BatchRunner.Result? = nil, resume: Bool = false, shard: ReportPart? = nil) -> JSONValue {
        RunSummary(process: report, counts: fileCounts(report, run: run, resume: resume), showsSkipped: resume && run != nil,
                   stopped: run?.stoppedBy != nil, shard: shard.map(RunSummary.ShardFigures.init),
                   report: reportWritten(destination: destination, run: run, shard: shard), exitStatus: Int(status)).json
    }

    /// The report a run wrote, as summaries name it; nil when none was (only a report that was written is pointed to).
    static func reportWritten(destination: OutputDestination, run: BatchRunner.Result?, shard: ReportPart?,
                              reportFile: String? = nil) -> String? {
        guard run?.reportError == nil else { return nil }
        guard case .folder(let folder) = destination else { return run == nil ? nil : reportFile }
        return folder + "/" + (shard?.name ?? "report.json")
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

extension AssistantBackend {
    /// The settings that shape every output of `options`' batch (recorded in sidecars for `--resume`).
    func settings(_ options: ProcessOptions) -> OutputSettings {
        var settings = settings(options.model, maxCharacters: options.maxCharacters, convertTo: options.convertTo,
                                writeOptions: options.writeOptions)
        settings.actions = options.actions
        settings.emphasis = options.emphasis
        settings.fallback = options.fallback
        settings.inputEncoding = options.inputEncoding?.rawValue
        settings.readAs = options.readAs
        return settings
    }
}
