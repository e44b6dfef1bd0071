import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant
@testable import CaptionAssistantCLI

/// What issue 15's new user hit, each protected: names and values checked early
/// with "did you mean", summaries that leave nothing out, failures said when
/// they happen, a progress line that fits, and the emoji's place.
@Suite struct NewUserSurprisesTests {
    func process(_ args: [String]) throws -> ProcessOptions {
        guard case .process(let options) = try CommandLineParser.parse(args, defaultJobs: 2) else {
            Issue.record("not a process command")
            return ProcessOptions(jobs: 0)
        }
        return options
    }

    func usageMessage(_ args: [String]) -> String? {
        do {
            _ = try CommandLineParser.parse(args, defaultJobs: 1)
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: item 6: subcommands, spelling, case

    @Test func helpAndVersionAreSubcommands() throws {
        #expect(try CommandLineParser.parse(["help"], defaultJobs: 1) == .help)
        #expect(try CommandLineParser.parse(["help", "check"], defaultJobs: 1) == .help)
        #expect(try CommandLineParser.parse(["version"], defaultJobs: 1) == .version)
        #expect(usageMessage(["version", "x"])?.contains("'version' takes nothing") == true)
        #expect(Subcommand.names == ["process", "check", "merge", "review", "help", "version"])
    }

    @Test(arguments: [("checks", "check"), ("proces", "process"), ("hlep", "help"), ("verison", "version")])
    func aMistypedSubcommandIsAnsweredWithTheNearest(typed: String, meant: String) {
        let message = usageMessage([typed])
        #expect(message?.contains("did you mean '\(meant)'?") == true, "\(message ?? "no error")")
    }

    @Test func aPathLikeFirstArgumentIsAnInputNotACommand() throws {
        // Names with a dot or slash, or that exist, are inputs: no suggestion.
        #expect(try process(["checks.srt", "-o", "o"]).inputs == ["checks.srt"])
        #expect(try process(["./checks", "-o", "o"]).inputs == ["./checks"])
        #expect(try process(["episodes", "-o", "o"]).inputs == ["episodes"])
    }

    @Test func unknownOptionsGetTheNearestAndTheTestFlagItsOneDash() {
        #expect(usageMessage(["a", "-o", "o", "--test-fake-assistant"])?.contains("did you mean '-test-fake-assistant'? (the test flags take one dash") == true)
        #expect(usageMessage(["a", "-o", "o", "--max-char", "3"])?.contains("did you mean '--max-characters'?") == true)
        #expect(usageMessage(["a", "-o", "o", "--jsno"])?.contains("did you mean '--json'?") == true)
        #expect(usageMessage(["a", "-o", "o", "--frobnicate"]) == "unknown option '--frobnicate'")
    }

    @Test func enumeratedValuesIgnoreCaseAlike() throws {
        let options = try process(["a", "-o", "o", "--to", "SRT", "--model", "AUTO", "--server-kind", "OLLAMA",
                                   "--simulate-availability", "modelnotready"])
        #expect(options.convertTo == .srt)
        #expect(options.model.backend == .auto)
        #expect(options.model.serverKind == "ollama")
        #expect(options.model.simulatedAvailability == "modelNotReady")
        #expect(try process(["a", "-o", "o", "--simulate-availability", "UNKNOWN:Lab Model Off"]).model.simulatedAvailability == "unknown:Lab Model Off")
        #expect(try process(["a", "-o", "o", "--simulate-availability", "Available"]).model.simulatedAvailability == "available")
    }

    @Test(arguments: [("webvtt", CaptionFormat.vtt), ("WebVTT", .vtt), ("dfxp", .ttml), ("DFXP", .ttml), ("vtt", .vtt), ("ttml", .ttml)])
    func toTakesItsAliases(spelling: String, format: CaptionFormat) throws {
        #expect(try process(["a", "-o", "o", "--to", spelling]).convertTo == format)
    }

    @Test func badValuesListTheChoicesAndTheNearest() {
        #expect(usageMessage(["a", "-o", "o", "--to", "dfx"])?.contains("did you mean 'dfxp'?") == true)
        #expect(usageMessage(["a", "-o", "o", "--model", "htp"])?.contains("did you mean 'http'?") == true)
        #expect(usageMessage(["a", "-o", "o", "--simulate-availability", "modelNotRedy"])?.contains("did you mean 'modelNotReady'?") == true)
    }

    @Test func helpNamesUnknownWithAMessageAndTheAliases() {
        #expect(HelpText.text.contains("unknown:MESSAGE"))
        #expect(HelpText.text.contains("dfxp is ttml"))
        #expect(HelpText.text.contains("--allow-empty"))
        for name in Subcommand.names { #expect(HelpText.text.contains("caption-assistant \(name)") || name == "process") }
    }

    @Test func nearestNameIsQuietWhenNothingIsClose() {
        #expect(NearestName.nearest(to: "bogus", among: HTTPServerKind.allCases.map(\.rawValue)) == nil)
        #expect(NearestName.nearest(to: "lama-cpp", among: HTTPServerKind.allCases.map(\.rawValue)) == "llama-cpp")
        #expect(NearestName.distance(Array("ab"), Array("ba")) == 1)
        #expect(NearestName.distance(Array("kitten"), Array("sitting")) == 3)
    }

    // MARK: item 7: values checked early and explained

    @Test func serverKindIsCheckedWithoutAnEndpointAndListsTheKinds() {
        let message = usageMessage(["a", "-o", "o", "--server-kind", "bogus"])
        #expect(message?.contains("auto, llama-cpp, llama-cpp-python, ollama, vllm, openai") == true)
    }

    @Test func aNumberTooBigIsSaidToBeTooBig() {
        #expect(usageMessage(["a", "-o", "o", "--max-characters", "99999999999999999999"]) == "'--max-characters' is too big: at most 10000000 (got '99999999999999999999')")
        #expect(usageMessage(["a", "-o", "o", "--jobs", "5000"]) == "'--jobs' is too big: at most 1024 (got '5000')")
        #expect(usageMessage(["a", "-o", "o", "--jobs", "-99999999999999999999"])?.contains("needs a whole number of at least 1") == true)
    }

    @Test func aBadEndpointFromTheEnvironmentNamesTheVariableAndTheForm() throws {
        var options = ModelOptions()
        options.backend = .http
        #expect {
            _ = try AssistantBackend.make(options, maxCharacters: 3000, environment: ["CAPTION_ASSISTANT_ENDPOINT": "notaurl"])
        } throws: { error in
            let message = (error as? SettingsError)?.message ?? ""
            return message.hasPrefix("CAPTION_ASSISTANT_ENDPOINT (from the environment):") && message.contains("http://HOST:PORT")
                && message.contains("unset CAPTION_ASSISTANT_ENDPOINT")
        }
        options.endpoint = "notaurl"
        #expect {
            _ = try AssistantBackend.make(options, maxCharacters: 3000, environment: [:])
        } throws: { error in
            let message = (error as? SettingsError)?.message ?? ""
            return message.hasPrefix("--endpoint:") && message.contains("http://HOST:PORT") && !message.contains("CAPTION_ASSISTANT_ENDPOINT")
        }
    }

    // MARK: item 5: summaries

    func result(_ summary: BatchSummary, skipped: Int = 0, notProcessed: Int = 0, stoppedBy: Int32? = nil) -> BatchRunner.Result {
        BatchRunner.Result(summary: summary, files: [], missingInput: false, reportError: nil, skipped: skipped,
                           notProcessed: notProcessed, stoppedBy: stoppedBy)
    }

    @Test func aResumeThatSkippedEverythingSaysNothingWasWritten() {
        var summary = BatchSummary()
        summary.totals.files = 12
        summary.totals.written = 12
        let line = CaptionAssistantCommand.summary(summary, destination: .folder("out"), run: result(summary, skipped: 12), resume: true)
        #expect(line.hasPrefix("12 files: 0 written, 12 already done (skipped by --resume), 0 failed;"), "\(line)")
        let json = CaptionAssistantCommand.summaryJSON(summary, destination: .folder("out"), status: 0, run: result(summary, skipped: 12), resume: true).rendered()
        #expect(json.contains("\"written\": 0") && json.contains("\"skipped\": 12"))
    }

    @Test func filesAnInterruptedRunNeverStartedAreNotProcessedNotFailed() {
        var summary = BatchSummary()
        summary.totals.files = 1454
        summary.totals.failed = 1
        summary.totals.notProcessed = 1453
        let run = result(summary, notProcessed: 1453, stoppedBy: SIGINT)
        let line = CaptionAssistantCommand.summary(summary, destination: .folder("out"), run: run)
        #expect(line.hasPrefix("1454 files: 0 written, 1 failed, 1453 not processed;"), "\(line)")
        #expect(line.contains("interrupted by SIGINT"))
        #expect(line.contains("actions: 0 applied, 0 failed"), "a file never started has no failed action: \(line)")
        let json = CaptionAssistantCommand.summaryJSON(summary, destination: .folder("out"), status: 130, run: run).rendered()
        #expect(json.contains("\"failed\": 1,") && json.contains("\"notProcessed\": 1453"))
    }

    @Test func theSummaryCountsWarningsAndGivesTheModelsErrorText() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", sampleSRT)
        try dir.write("in/b.srt", "1\n00:00:01.000 --> 00:00:02,000\nThe rocket again.\n")
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let model = FailingAssistantModel(error: AssistantError.failed("HTTP 500: internal server error"))
        let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration(model: model)), destination: .folder(dir.path + "/out"), jobs: 1)
        let run = await runner.run(plan)
        let line = CaptionAssistantCommand.summary(run.summary, destination: .folder("out"), run: run)
        #expect(line.contains("(model failed: HTTP 500: internal server error)"), "\(line)")
        #expect(run.summary.totals.warnings > 0)
        #expect(line.contains("\(run.summary.totals.warnings) warning"))
        let json = CaptionAssistantCommand.summaryJSON(run.summary, destination: .folder("out"), status: 0, run: run).rendered()
        #expect(json.contains("\"error\": \"HTTP 500: internal server error\"") && json.contains("\"files\": 2"))
    }

    // MARK: item 3: failures said when they happen

    @Test func eachFailureIsReportedBeforeTheBatchGoesOn() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a-broken.srt", "")
        try dir.write("in/b.srt", sampleSRT)
        try dir.write("in/c.srt", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let events = Events()
        let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"), jobs: 1)
        let run = await runner.run(plan, progress: { events.add("done \($0)") }, failed: { events.add("failed \($0.input)") })
        #expect(events.all == ["failed \(dir.path)/in/a-broken.srt", "done 1", "done 2", "done 3"])
        #expect(run.summary.failures.count == 1)
    }

    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ s: String) { lock.withLock { list.append(s) } }
        var all: [String] { lock.withLock { list } }
    }

    // MARK: item 10: the progress line

    @Test func theProgressLineFitsTheTerminalAndStaysOffWithJSON() {
        let line = "120/5000 files, 240.0 files/s, about 20 s left"
        #expect(ProgressLine.fitted(line, columns: 30) == String(line.prefix(29)))
        #expect(ProgressLine.fitted(line, columns: 200) == line)
        #expect(ProgressLine.fitted(line, columns: nil) == line)
        #expect(!ProgressLine.wanted(quiet: false, json: true))
        #expect(!ProgressLine.wanted(quiet: true, json: false))
    }

    // MARK: item 2: nothing found

    @Test func aFolderWithNoCaptionFileIsNamed() throws {
        let dir = try TemporaryFolder()
        try dir.write("empty/rocket.txt", sampleSRT)
        try dir.write("full/a.srt", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/empty", dir.path + "/full"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.emptyFolders == [dir.path + "/empty"])
        #expect(plan.items.count == 1)
        #expect(try process(["a", "-o", "o", "--allow-empty"]).allowEmpty)
        #expect(usageMessage(["check", "--allow-empty"])?.contains("an option of 'process'") == true)
    }

    // MARK: item 11: output folder messages

    @Test func anOutputThatIsAFileIsNotToldToBeMadeWritable() throws {
        let dir = try TemporaryFolder()
        try dir.write("afile", "x")
        #expect {
            try OutputFolder.checkWritable(dir.path + "/afile")
        } throws: { error in
            let text = (error as? OutputFolderError)?.errorDescription ?? ""
            return text.contains("existing file, not a folder") && !text.contains("writable")
        }
        #expect(PathText.parent(of: "x") == ".")
        #expect(PathText.parent(of: "/x") == "/")
        #expect(PathText.parent(of: "a/b/") == "a")
    }

    #if os(Linux)
    @Test func anOutputUnderProcSaysNothingCanBeMadeThere() {
        #expect {
            try OutputFolder.checkWritable("/proc/caption-assistant-test")
        } throws: { error in
            let text = (error as? OutputFolderError)?.errorDescription ?? ""
            return text.contains("it does not exist, and /proc does not let a folder be made in it")
        }
    }
    #endif
}
