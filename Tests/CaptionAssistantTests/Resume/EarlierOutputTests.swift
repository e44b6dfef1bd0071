import Assistant
import Captions
import Foundation
import Testing
import TestSupport
@testable import CaptionAssistant
import JSON

/// A re-run whose model gives nothing (unavailable, turned off, failing)
/// never replaces what an earlier run got from a real model (`EarlierOutput`),
/// and says which files it kept and why; it replaces them when the input
/// changed, when the earlier files cannot be trusted, or when asked. Per
/// action: fewer actions, or a partial answer, keep the others' results.
@Suite struct EarlierOutputTests {
    /// A model that always throws, as a server answering 500 would.
    struct FailingModel: AssistantModel {
        struct Failure: Error, LocalizedError { var errorDescription: String? { "HTTP 500: the server failed" } }
        func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer { throw Failure() }
    }

    struct Setup {
        let dir: TemporaryFolder
        var input: String { dir.path + "/in" }
        var output: String { dir.path + "/out" }
        static let names = ["a.srt", "s1/b.srt", "s1/c.srt"]

        init() throws {
            dir = try TemporaryFolder()
            for name in Self.names { try dir.write("in/" + name, sampleSRT) }
        }

        func run(_ configuration: PipelineConfiguration = realModelConfiguration(), replace: Bool = false,
                 resume: Bool = false) async throws -> BatchRunner.Result {
            let plan = try InputPlan.make(inputs: [input], outputFolder: output, convertTo: configuration.convertTo)
            var runner = BatchRunner(processor: FileProcessor(configuration: configuration), destination: .folder(output), jobs: 2,
                                     resume: resume, keepsReports: true)
            runner.replaceModelResults = replace
            return await runner.run(plan)
        }

        func read(_ relative: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: output + "/" + relative)) }
        func write(_ relative: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: output + "/" + relative)) }

        /// Every caption and sidecar in the output folder, by name.
        func outputs() throws -> [String: Data] {
            var all: [String: Data] = [:]
            for name in Self.names { all[name] = try read(name); all[name + ".assistant.json"] = try read(name + ".assistant.json") }
            return all
        }

        /// `report.json`'s entries, read strictly, and its totals.
        func report() throws -> ([FileReport], BatchReport.Totals) {
            let fd = open(output + "/report.json", O_RDONLY)
            defer { close(fd) }
            var files: [FileReport] = []
            let envelope = try ReportEnvelope.read(fd, name: "report.json", entry: { files.append(try FileReport(reportJSON: $0)) })
            return (files, envelope.totals)
        }
    }

    static let unavailable = fakeConfiguration(.unavailable(.serverUnreachable))
    static let failing = fakeConfiguration(model: FailingModel())

    @Test(arguments: ["unavailable", "failing"])
    func aRunWhoseModelGivesNothingKeepsTheModelsEarlierOutputs(model: String) async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let before = try setup.outputs()
        #expect(String(decoding: before["a.srt"] ?? Data(), as: UTF8.self).contains("<b>"))
        let result = try await setup.run(model == "unavailable" ? Self.unavailable : Self.failing)
        // Not a byte changed: the captions keep the bold keywords and the emoji, the sidecars the titles.
        #expect(try setup.outputs() == before)
        let (files, totals) = try setup.report()
        #expect(files.count == 3)
        for file in files {
            #expect(file.outcome == .kept)
            let kept = try #require(file.kept)
            #expect(file.hasModelResults)
            #expect(file.sidecarEntry.json.renderedBytes() == Array(before[file.output! + ".assistant.json"] ?? Data()))
            if model == "unavailable" {
                #expect(kept.unavailableReason == "serverUnreachable")
                #expect(kept.reasonRow?.isEmpty == false)
            } else {
                #expect(kept.unavailableReason == nil)
                #expect(kept.error?.contains("HTTP 500") == true)
            }
            #expect(kept.options == nil)
        }
        #expect(totals.kept == 3 && totals.written == 3 && totals.failed == 0)
        #expect(totals == result.summary.totals)
        #expect(result.summary.keptOutputs.map(\.input) == Setup.names.map { setup.input + "/" + $0 })
        #expect(result.summary.failures.isEmpty)
        let counts = RunSummary.FileCounts(totals, skipped: 0, notProcessed: 0)
        #expect(counts.written == 0 && counts.kept == 3 && counts.files == 3)
        // A later run whose model answers again replaces them, as any run does.
        let third = try await setup.run()
        #expect(third.summary.totals.kept == 0 && third.summary.keptOutputs.isEmpty)
    }

    /// Content from `--fallback local` is not the model's: a re-run whose model is unavailable
    /// (or failing) keeps the model's earlier outputs rather than writing the fallback's over them.
    @Test(arguments: ["unavailable", "failing"])
    func theFallbacksContentNeverReplacesTheModelsEarlierOutputs(model: String) async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let before = try setup.outputs()
        var fallback = model == "unavailable" ? Self.unavailable : Self.failing
        fallback.settings.fallback = .local
        _ = try await setup.run(fallback)
        #expect(try setup.outputs() == before)
        let (files, totals) = try setup.report()
        #expect(files.count == 3 && files.allSatisfy { $0.outcome == .kept && $0.hasModelResults })
        #expect(totals.kept == 3)
    }

    @Test func theRunIsToldWhichOptionsTheKeptOutputDoesNotFollow() async throws {
        let setup = try Setup()
        _ = try await setup.run()
        var utf8 = Self.unavailable
        utf8.writeOptions = WriteOptions(encoding: .utf8)
        utf8.settings.writeOptions = utf8.writeOptions
        _ = try await setup.run(utf8)
        let (files, _) = try setup.report()
        #expect(files.allSatisfy { $0.kept?.options?.writeOptions.encoding == .utf8 })
    }

    /// `--actions` and `--emphasis` shape the file too: a kept output made with others says so.
    @Test(arguments: ["actions", "emphasis"])
    func theRunIsToldWhenTheKeptOutputHasOtherActionsOrEmphasis(option: String) async throws {
        let setup = try Setup()
        _ = try await setup.run()
        var other = Self.unavailable
        if option == "actions" { other.settings.actions = [.titles] } else { other.settings.emphasis = EmphasisDensity(mode: .firstInCue, perCue: 1) }
        _ = try await setup.run(other)
        let (files, _) = try setup.report()
        #expect(files.count == 3 && files.allSatisfy { $0.outcome == .kept && $0.kept?.options == other.settings })
    }

    @Test func replaceModelResultsReplacesThemAndSaysSo() async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let result = try await setup.run(Self.unavailable, replace: true)
        #expect(!String(decoding: try setup.read("a.srt"), as: UTF8.self).contains("<b>"))
        #expect(try setup.read("a.srt") == Data(sampleSRT.utf8))
        let (files, totals) = try setup.report()
        #expect(files.allSatisfy { $0.replaced == ReplacedOutput(because: .replaceRequested) && $0.kept == nil })
        #expect(totals.kept == 0 && totals.written == 3)
        #expect(result.summary.replacedOutputs.count == 3)
        // The sidecar holds no `replaced`: it is what report.json's entry is without the keys only report.json has.
        let sidecar = try #require(JSONValue.parse(Array(try setup.read("a.srt.assistant.json"))))
        #expect(sidecar["replaced"] == nil)
        #expect(FileReport.sidecarJSON(files[0].json) == sidecar)
    }

    @Test func anInputThatChangedHasNothingToKeep() async throws {
        let setup = try Setup()
        _ = try await setup.run()
        try setup.dir.write("in/a.srt", sampleSRT + "3\n00:00:07,000 --> 00:00:08,000\nMore.\n")
        _ = try await setup.run(Self.unavailable)
        let (files, _) = try setup.report()
        let a = try #require(files.first { $0.output == "a.srt" })
        #expect(a.outcome == .written && a.replaced == ReplacedOutput(because: .inputChanged))
        #expect(!a.hasModelResults)
        #expect(files.filter { $0.kept != nil }.count == 2)
    }

    /// A sidecar that is not exactly what this tool writes, or a caption that is not the one its
    /// sidecar describes, is not trusted: nothing is kept on its word.
    @Test(arguments: ["truncated", "edited value", "caption changed"])
    func anEarlierOutputThatCannotBeTrustedIsNotKept(damage: String) async throws {
        let setup = try Setup()
        _ = try await setup.run()
        var sidecar = try setup.read("a.srt.assistant.json")
        switch damage {
        case "truncated": sidecar = sidecar.prefix(sidecar.count / 2)
        case "edited value":
            // Still JSON, but a count no report holds.
            sidecar = Data(String(decoding: sidecar, as: UTF8.self).replacingOccurrences(of: "\"cues\": 2", with: "\"cues\": -2").utf8)
        default: try setup.write("a.srt", Data((sampleSRT + "edited by hand\n").utf8))
        }
        try setup.write("a.srt.assistant.json", sidecar)
        _ = try await setup.run(Self.unavailable)
        let (files, _) = try setup.report()
        let a = try #require(files.first { $0.output == "a.srt" })
        #expect(a.kept == nil)
        #expect(a.replaced?.because == .notTrusted)
        #expect(a.replaced?.detail?.contains(damage == "caption changed" ? "not the one its sidecar describes" : "a.srt.assistant.json") == true,
                "\(a.replaced?.detail ?? "")")
    }

    /// `--resume` skips a kept output as any complete one (its sidecar is the earlier run's, untouched).
    @Test func resumeSkipsAKeptOutput() async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let kept = try await setup.run(Self.unavailable)
        #expect(kept.summary.totals.kept == 3)
        let model = ResumeTests.CountingModel()
        let resumed = try await setup.run(realModelConfiguration(model: model), resume: true)
        #expect(resumed.skipped == 3 && model.calls == 0)
    }
    /// `--model none`: no model, its availability `modelTurnedOff`.
    static var noModel: PipelineConfiguration {
        var configuration = fakeConfiguration(.unavailable(.modelTurnedOff))
        configuration.backend = BackendSelection.Kind.none.rawValue
        configuration.settings.backend = BackendSelection.Kind.none.rawValue
        return configuration
    }

    /// A run that kept a real model's outputs whole (`--model none`, or the fake,
    /// after a real model's run), run again with the same options and `--resume`,
    /// skips them: they are complete for those options (`ResumeCheck.isComplete`).
    /// They were processed again every time (0 skipped).
    @Test(arguments: ["none", "fake"])
    func aKeptWholeOutputIsCompleteForTheOptionsThatKeptIt(_ which: String) async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let before = try setup.outputs()
        let configuration = which == "none" ? Self.noModel : fakeConfiguration()
        let kept = try await setup.run(configuration)
        #expect(kept.summary.totals.kept == 3)
        let resumed = try await setup.run(configuration, resume: true)
        #expect(resumed.skipped == 3)
        #expect(try setup.outputs() == before)
        // The fallback never replaces a model's result: with every action's kept, still complete.
        var fallback = configuration
        fallback.settings.fallback = .local
        #expect(try await setup.run(fallback, resume: true).skipped == 3)
        // Another real model may answer: not complete for it, so processed again.
        var other = realModelConfiguration()
        other.settings.model = "another-model"
        #expect(try await setup.run(other, resume: true).skipped == 0)
    }

    /// The fake model answered: the kept reason says so, not "model failed".
    @Test func aKeptOutputSaysTheFakeAnsweredNotThatTheModelFailed() async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let result = try await setup.run(fakeConfiguration())
        let kept = try #require(result.summary.keptOutputs.first?.record)
        #expect(kept.cause == KeptOutput.fakeModel)
        #expect(kept.why.contains("the fake model answered") && !kept.why.contains("failed"))
        let failed = try await setup.run(Self.failing)
        #expect(failed.summary.keptOutputs.first?.record.why == "model failed")
        #expect(RunSummary.OutputNote(try #require(result.summary.keptOutputs.first)).because == "fakeModel")
    }

    /// A valid answer's three titles, other than the fake's.
    static let otherTitles = #"["Waiting for the launch", "Countdown on hold", "Crew on the pad"]"#

    /// A re-run with fewer `--actions` keeps the earlier emphasis and emoji in the caption
    /// (its bytes untouched) and takes this run's titles; each kept action says so.
    @Test func aRerunWithFewerActionsKeepsTheEarlierEmphasisAndEmoji() async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let caption = try setup.read("a.srt")
        #expect(String(decoding: caption, as: UTF8.self).contains("<b>rocket</b>"))
        var titlesOnly = realModelConfiguration(model: ScriptedAssistantModel(answers: [#"{"keywords": [], "titles": \#(Self.otherTitles), "emoji": ""}"#]))
        titlesOnly.settings.actions = [.titles]
        let result = try await setup.run(titlesOnly)
        #expect(try setup.read("a.srt") == caption)
        let (files, totals) = try setup.report()
        for file in files {
            #expect(file.outcome == .written && file.kept == nil)
            #expect(file.actions.map(\.source) == [.earlier, .model, .earlier])
            #expect(file.actions.map(\.state) == [.applied, .applied, .applied])
            #expect(file.actions[0].reason?.hasPrefix("not requested") == true)
            #expect(file.actions[1].titles == ["Waiting for the launch", "Countdown on hold", "Crew on the pad"])
            #expect(file.actions[2].emoji == "🎬")
        }
        #expect(totals.actions.kept == 6 && totals.actions.applied == 3)
        #expect(result.summary.keptResults.map(\.actions) == Array(repeating: [.keywords, .emoji], count: 3))
        // A later run with every action and the real model replaces them, as any run does.
        _ = try await setup.run()
        #expect(try setup.report().0.allSatisfy { $0.actions.allSatisfy { $0.source == .model } })
    }

    /// A partial answer (titles fine, keywords and emoji unusable) keeps the earlier emphasis and emoji.
    @Test func aPartialAnswerKeepsTheEarlierResultsOfTheActionsItFailed() async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let caption = try setup.read("a.srt")
        let partial = realModelConfiguration(model: ScriptedAssistantModel(answers: [#"{"keywords": ["submarine"], "titles": \#(Self.otherTitles), "emoji": "no"}"#]))
        _ = try await setup.run(partial)
        #expect(try setup.read("a.srt") == caption)
        let (files, _) = try setup.report()
        for file in files {
            #expect(file.actions.map(\.source) == [.earlier, .model, .earlier])
            #expect(file.actions.map(\.state) == [.applied, .applied, .applied])
            #expect(file.actions[0].reason != nil && file.actions[2].reason != nil, "why this run's model's was not used")
            #expect(file.actions[0].keywords == ["rocket", "launch"] || file.actions[0].keywords == ["launch", "rocket"])
        }
    }

    /// New emphasis with the earlier emoji kept: the caption is made again from the input, with
    /// the new keywords and the earlier emoji (the rule `EarlierOutput` documents).
    @Test func newEmphasisWithTheEarlierEmojiIsMadeFromTheInput() async throws {
        let setup = try Setup()
        _ = try await setup.run()
        let answer = realModelConfiguration(model: ScriptedAssistantModel(answers: [#"{"keywords": ["ready"], "titles": \#(Self.otherTitles), "emoji": "no"}"#]))
        _ = try await setup.run(answer)
        let caption = String(decoding: try setup.read("a.srt"), as: UTF8.self)
        #expect(caption == sampleSRT.replacingOccurrences(of: "is ready for launch.", with: "is <b>ready</b> for launch. 🎬"), "\(caption)")
        let (files, _) = try setup.report()
        #expect(files.allSatisfy { $0.actions.map(\.source) == [.model, .model, .earlier] && $0.actions[2].cue == 2 })
    }

    /// The fake is a test double: its results are not kept (the README's order: the fake job,
    /// then the first command, writes every caption as it came), nor do they replace a real model's.
    @Test func theFakesResultsAreNeitherKeptNorReplaceARealModels() async throws {
        let setup = try Setup()
        _ = try await setup.run(fakeConfiguration())
        let plain = try await setup.run(Self.unavailable)
        #expect(try setup.read("a.srt") == Data(sampleSRT.utf8))
        #expect(plain.summary.keptOutputs.isEmpty && plain.summary.replacedOutputs.isEmpty && plain.summary.keptResults.isEmpty)

        _ = try await setup.run()
        let before = try setup.outputs()
        let fake = try await setup.run(fakeConfiguration())
        #expect(try setup.outputs() == before)
        #expect(fake.summary.totals.kept == 3)
    }
}
