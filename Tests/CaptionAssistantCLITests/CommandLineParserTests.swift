import Assistant
import Captions
import Testing
import CaptionAssistant
@testable import CaptionAssistantCLI

@Suite struct CommandLineParserTests {

    @Test func processIsTheDefaultCommand() throws {
        let options = try processOptions(["a.srt", "shows", "-o", "out"])
        #expect(options.inputs == ["a.srt", "shows"])
        #expect(options.output == "out")
        #expect(options.jobs == 4)
        #expect(options.maxCharacters == 3000)
        #expect(options.model == ModelOptions())
        #expect(try processOptions(["process", "a.srt", "-o", "out"]).inputs == ["a.srt"])
    }

    @Test func optionsTakeSeparateOrInlineValues() throws {
        let options = try processOptions(["--jobs=2", "--max-characters", "100", "-test-fake-assistant", "x.vtt",
                                   "--to=ttml", "--output=out", "--quiet", "--json", "--require-model",
                                   "--wait-for-model", "2.5", "--simulate-availability=modelNotReady"])
        #expect(options.jobs == 2)
        #expect(options.maxCharacters == 100)
        #expect(options.model.fake)
        #expect(options.convertTo == .ttml)
        #expect(options.output == "out")
        #expect(options.quiet && options.json)
        #expect(options.model.requireModel)
        #expect(options.model.waitForModel == 2.5)
        #expect(options.model.simulatedAvailability == "modelNotReady")
    }

    @Test func producerOptions() throws {
        let options = try processOptions(["a.srt", "-o", "o", "--actions", "emoji,Keywords,emoji", "--emphasis", "FIRST",
                                          "--emphasis-per-cue", "2", "--fallback", "local"])
        #expect(options.actions == [.keywords, .emoji])
        #expect(options.emphasis == EmphasisDensity(mode: .first, perCue: 2))
        #expect(options.fallback == .local)
        let defaults = try processOptions(["a.srt", "-o", "o", "--fallback", "none"])
        #expect(defaults.actions == AssistantAction.allCases && defaults.emphasis == .all && defaults.fallback == nil)
    }

    @Test func httpOptions() throws {
        let options = try processOptions(["a.srt", "-o", "o", "--model", "http", "--endpoint", "http://localhost:8080/v1",
                                   "--model-name=llama", "--server-kind", "ollama", "--request-timeout", "30"])
        #expect(options.model.backend == .http)
        #expect(options.model.endpoint == "http://localhost:8080/v1")
        #expect(options.model.modelName == "llama")
        #expect(options.model.serverKind == "ollama")
        #expect(options.model.requestTimeout == 30)
    }

    @Test func fakeErrorFlagTurnsOnTheFake() throws {
        let options = try processOptions(["a.srt", "-o", "o", "-test-fake-assistant-error", "the model crashed"])
        #expect(options.model.fake)
        #expect(options.model.failingFake)
        #expect(options.model.fakeError == "the model crashed")
    }

    @Test func fakeDelayFlagTurnsOnASlowFake() throws {
        let options = try processOptions(["a.srt", "-o", "o", "-test-fake-assistant-delay", "200"])
        #expect(options.model.fake)
        #expect(!options.model.failingFake)
        #expect(options.model.fakeDelayMilliseconds == 200)
        #expect(throws: UsageError.self) { try processOptions(["a.srt", "-o", "o", "-test-fake-assistant-delay", "-1"]) }
        #expect(throws: UsageError.self) { try processOptions(["a.srt", "-o", "o", "-test-fake-assistant-delay", "soon"]) }
    }

    @Test func inputEncodingAndReportAreParsed() throws {
        let options = try processOptions(["-", "-o", "-", "--input-encoding", "sjis", "--report", "run.json"])
        #expect(options.inputEncoding?.rawValue == "Shift_JIS")
        #expect(options.reportFile == "run.json")
    }

    @Test func dashIsStandardInputAndDoubleDashEndsOptions() throws {
        #expect(try processOptions(["-", "-o", "-"]).inputs == ["-"])
        #expect(try processOptions(["-o", "out", "--", "--odd-name.srt"]).inputs == ["--odd-name.srt"])
    }

    @Test func checkTakesModelOptions() throws {
        let command = try CommandLineParser.parse(["check", "--json", "--model", "none", "--require-model"], defaultJobs: 1)
        guard case .check(let options) = command else { Issue.record("not check"); return }
        #expect(options.json)
        #expect(options.model.backend == .none)
        #expect(options.model.requireModel)
    }

    @Test func resumeIsAFlagOfProcess() throws {
        #expect(try processOptions(["a.srt", "-o", "out", "--resume"]).resume)
        #expect(try !processOptions(["a.srt", "-o", "out"]).resume)
    }

    @Test func helpAndVersion() throws {
        #expect(try CommandLineParser.parse(["--help"], defaultJobs: 1) == .help)
        #expect(try CommandLineParser.parse(["a.srt", "-h"], defaultJobs: 1) == .help)
        #expect(try CommandLineParser.parse(["--version"], defaultJobs: 1) == .version)
    }

    @Test(arguments: [
        (["a.srt"], "no output folder"),
        (["-o", "out"], "no input given"),
        (["a.srt", "-o", "out", "--frobnicate"], "unknown option '--frobnicate'"),
        (["a.srt", "-o"], "'-o' needs a value"),
        (["a.srt", "-o", "out", "--jobs", "0"], "'--jobs' needs a whole number"),
        (["a.srt", "-o", "out", "--jobs", "many"], "'--jobs' needs a whole number"),
        (["a.srt", "-o", "out", "--max-characters=-3"], "'--max-characters' needs a whole number"),
        (["a.srt", "-o", "out", "--to", "docx"], "'--to' must be one of srt, vtt (or webvtt), ttml (or dfxp)"),
        (["a.srt", "-o", "out", "--model", "gpt"], "'--model' must be one of"),
        (["a.srt", "-o", "out", "--encoding", "latin1"], "'--encoding' must be one of keep, utf-8 (got 'latin1')"),
        (["a.srt", "-o", "out", "--language", "en_GB"], "'--language' needs a BCP 47 language tag, such as en, en-GB, pt-BR or zh-Hant (got 'en_GB')"),
        (["a.srt", "-o", "out", "--language", ""], "'--language' needs a BCP 47 language tag"),
        (["a.srt", "-o", "out", "--quiet=yes"], "'--quiet' takes no value"),
        (["a.srt", "-o", "out", "--wait-for-model", "soon"], "'--wait-for-model' needs a number of seconds"),
        (["a.srt", "-o", "out", "--request-timeout", "0"], "'--request-timeout' needs a number of seconds above 0"),
        (["a.srt", "b.srt", "-o", "-"], "takes exactly one input"),
        (["a.srt", "-o", "-", "--json"], "'--json' prints to standard output"),
        (["check", "a.srt"], "'check' takes no inputs"),
        (["check", "--jobs", "2"], "'--jobs' is an option of 'process'"),
        (["a.srt", "-o", "o", "-test-fake-assistant", "--model", "none"], "choose two different models"),
        (["-", "-", "-o", "o"], "standard input ('-') can be given only once"),
        (["a.srt", "-o", "-", "--resume"], "'--resume' skips files already written to an output folder"),
        (["check", "--resume"], "'--resume' is an option of 'process'"),
        (["a.srt", "-o", "out", "--resume=yes"], "'--resume' takes no value"),
        (["a.srt", "-o", "out", "--actions", "titels"], "'--actions' must be one of keywords, titles, emoji (got 'titels'); did you mean 'titles'?"),
        (["a.srt", "-o", "out", "--actions", "titles,"], "'--actions' must be one of keywords, titles, emoji (got '')"),
        (["a.srt", "-o", "out", "--emphasis", "some"], "'--emphasis' must be one of all, first-in-cue, first"),
        (["a.srt", "-o", "out", "--emphasis-per-cue", "0"], "'--emphasis-per-cue' needs a whole number of at least 1"),
        (["a.srt", "-o", "out", "--fallback", "cloud"], "'--fallback' must be one of none, local"),
        (["a.srt", "-o", "out", "--input-encoding", "klingon-8"], "'--input-encoding' needs the name of a text encoding, such as GBK"),
        (["a.srt", "-o", "out", "--input-encoding", "utf-16"], "(UTF-16 and UTF-32 with their byte order: UTF-16LE); 'utf-16' is not one"),
        (["a.srt", "-o", "-", "--json"], "--report FILE writes the run's report to a file"),
        (["a.srt", "-o", "out", "--report", ""], "'--report' needs"),
        (["a.srt", "-o", "-", "--report", "-"], "'--report -' writes the report to standard output, which '-o -' already uses for the captions"),
        (["a.srt", "-o", "out", "--json", "--report", "-"], "'--report -' and '--json' both write to standard output"),
        (["a.srt", "-o", "out", "--shard", "0/2", "--report", "r.json"], "'--report' writes a whole run's report, and a shard writes only its part"),
    ])
    func badUsageSaysWhatIsWrong(args: [String], message: String) {
        #expect {
            try CommandLineParser.parse(args, defaultJobs: 1)
        } throws: { error in
            (error as? UsageError)?.message.contains(message) == true
        }
    }
}
