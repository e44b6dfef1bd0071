import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant
import JSON

/// `--resume` at the pipeline level: what is skipped, what is redone, and
/// that the report of a resumed run equals the report of one run.
@Suite struct ResumeTests {
    /// A model that counts its calls (and answers like the fake).
    final class CountingModel: AssistantModel, @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
            lock.withLock { count += 1 }
            return try await FakeAssistantModel().respond(to: prompt)
        }
        var calls: Int { lock.withLock { count } }
    }

    struct Setup {
        let dir: TemporaryFolder
        var input: String { dir.path + "/in" }
        var output: String { dir.path + "/out" }

        init() throws {
            dir = try TemporaryFolder()
            for i in 0..<6 { try dir.write("in/s\(i % 2)/ep\(i).srt", sampleSRT.replacingOccurrences(of: "pad", with: "pad \(i)")) }
            try dir.write("in/s0/broken.srt", "")
        }

        func run(resume: Bool, model: CountingModel = CountingModel(), maxCharacters: Int = 3000,
                 convertTo: CaptionFormat? = nil) async throws -> (BatchRunner.Result, CountingModel) {
            let plan = try InputPlan.make(inputs: [input], outputFolder: output, convertTo: convertTo)
            let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration(model: model, maxCharacters: maxCharacters,
                                                                                                convertTo: convertTo)),
                                     destination: .folder(output), jobs: 3, resume: resume, keepsReports: true)
            return (await runner.run(plan), model)
        }

        func read(_ relative: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: output + "/" + relative)) }
        func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: output + "/" + relative) }
    }

    @Test func aCompleteRunIsSkippedWholeAndGivesTheSameReport() async throws {
        let setup = try Setup()
        let (first, firstModel) = try await setup.run(resume: false)
        #expect(firstModel.calls == 6)
        let report = try setup.read("report.json")
        let sidecar = try setup.read("s1/ep3.srt.assistant.json")
        let (second, model) = try await setup.run(resume: true)
        #expect(model.calls == 0)
        #expect(second.skipped == 6)  // the broken file is redone: it has an error
        #expect(try setup.read("report.json") == report)
        #expect(try setup.read("s1/ep3.srt.assistant.json") == sidecar)
        #expect(first.summary.totals == second.summary.totals)
    }

    @Test func onlyWhatIsMissingOrIncompleteIsRedone() async throws {
        let setup = try Setup()
        _ = try await setup.run(resume: false)
        let report = try setup.read("report.json")
        let caption = try setup.read("s0/ep2.srt")
        try setup.remove("s0/ep0.srt.assistant.json")        // killed between caption and sidecar
        try setup.remove("s1/ep1.srt")                       // caption gone
        try Data("1\n00:00:01,000 --> 00:00:02,000\nedited\n".utf8).write(to: URL(fileURLWithPath: setup.output + "/s0/ep2.srt"))
        try Data("{\"schemaVersion\": 1".utf8).write(to: URL(fileURLWithPath: setup.output + "/s1/ep3.srt.assistant.json"))
        try setup.remove("report.json")
        // A temporary file left by a killed writer (process 999999 does not exist).
        try Data("half".utf8).write(to: URL(fileURLWithPath: setup.output + "/s0/.ep4.srt.tmp-999999-12345-0"))
        let (result, model) = try await setup.run(resume: true)
        #expect(model.calls == 4)
        #expect(result.skipped == 2)
        #expect(try setup.read("report.json") == report)
        #expect(try setup.read("s0/ep2.srt") == caption)
        #expect(!FileManager.default.fileExists(atPath: setup.output + "/s0/.ep4.srt.tmp-999999-12345-0"))
    }

    @Test func aChangedInputIsRedoneEvenWhenTimesSayOtherwise() async throws {
        let setup = try Setup()
        _ = try await setup.run(resume: false)
        let path = setup.input + "/s1/ep5.srt"
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        try Data(sampleSRT.replacingOccurrences(of: "pad", with: "beach").utf8).write(to: URL(fileURLWithPath: path))
        // Put the old time back: only the content hash can tell.
        try FileManager.default.setAttributes([.modificationDate: before ?? Date(timeIntervalSince1970: 0)], ofItemAtPath: path)
        let (result, model) = try await setup.run(resume: true)
        #expect(model.calls == 1)
        #expect(result.skipped == 5)
        let written = String(decoding: try setup.read("s1/ep5.srt"), as: UTF8.self)
        #expect(written.contains("beach"))
    }

    @Test func anInputNewerThanItsOutputIsRedone() async throws {
        let setup = try Setup()
        _ = try await setup.run(resume: false)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)],
                                              ofItemAtPath: setup.input + "/s0/ep4.srt")
        let (result, model) = try await setup.run(resume: true)
        #expect(model.calls == 1)
        #expect(result.skipped == 5)
    }

    @Test func differentOptionsRedoEveryFile() async throws {
        let setup = try Setup()
        _ = try await setup.run(resume: false)
        let (capped, cappedModel) = try await setup.run(resume: true, maxCharacters: 20)
        #expect(cappedModel.calls == 6)
        #expect(capped.skipped == 0)
        #expect(capped.files.allSatisfy { $0.error != nil || $0.transcript?.truncated == true })
        let (again, againModel) = try await setup.run(resume: true, maxCharacters: 20)
        #expect(againModel.calls == 0)
        #expect(again.skipped == 6, "not skipped: \(again.files.filter { $0.error != nil }.map { "\($0.input): \($0.error ?? "")" })")
    }

    @Test func aFileWhoseModelFailedIsRedone() async throws {
        let setup = try Setup()
        let plan = try InputPlan.make(inputs: [setup.input], outputFolder: setup.output, convertTo: nil)
        let failing = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration(model: FailingAssistantModel())),
                                  destination: .folder(setup.output), jobs: 2)
        _ = await failing.run(plan)
        let (result, model) = try await setup.run(resume: true)
        #expect(result.skipped == 0)
        #expect(model.calls == 6)
    }

    @Test func aSidecarReadsBackToTheSameReport() async throws {
        let setup = try Setup()
        let (result, _) = try await setup.run(resume: false, convertTo: .vtt)
        for file in result.files where file.written {
            let bytes = try setup.read((file.output ?? "") + ".assistant.json")
            let json = try #require(JSONValue.parse(Array(bytes)))
            let back = try FileReport(reportJSON: json)
            #expect(back.json == file.json)
            #expect(Data(back.json.rendered().utf8) == bytes)
        }
    }

    @Test func aSidecarThatSaysSomethingElseIsNotReadBack() throws {
        var report = FileReport(input: "in/a.srt", output: "a.srt", format: .srt, cues: 1, warnings: [], transcript: nil,
                                model: .init(backend: "fake", availability: .available),
                                actions: [ActionReport(id: .titles, state: .applied)], reasonRow: nil, error: nil)
        report.actions[0].titles = ["x"]
        #expect(try FileReport(reportJSON: report.json) == report)
        guard case .object(var pairs) = report.json else { Issue.record("not an object"); return }
        pairs.append(("extra", .int(1)))
        #expect(throws: ReportError.self) { try FileReport(reportJSON: .object(pairs)) }
    }

    /// The strict reader reads a sidecar that records an unavailable model;
    /// `--resume` still redoes that file, since the model may be there now.
    @Test func aFileWhoseModelWasUnavailableIsRedone() async throws {
        let setup = try Setup()
        let plan = try InputPlan.make(inputs: [setup.input], outputFolder: setup.output, convertTo: nil)
        let unavailable = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration(.unavailable(.modelNotReady))),
                                      destination: .folder(setup.output), jobs: 2)
        _ = await unavailable.run(plan)
        let sidecar = try setup.read("s1/ep3.srt.assistant.json")
        let read = try FileReport(reportJSON: try #require(JSONValue.parse(Array(sidecar))))
        guard case .unavailable? = read.model.availability else { Issue.record("the sidecar does not record an unavailable model"); return }
        let (result, model) = try await setup.run(resume: true)
        #expect(result.skipped == 0)
        #expect(model.calls == 6)
    }

    /// A finished batch whose model cannot answer under its options (`--model none`, with
    /// `--fallback local` or not) is complete: `--resume` skips every file instead of redoing it.
    @Test func aFinishedFallbackBatchIsSkippedByResume() async throws {
        let setup = try Setup()
        let plan = try InputPlan.make(inputs: [setup.input], outputFolder: setup.output, convertTo: nil)
        let service = AssistantService(backendName: "none", model: FakeAssistantModel(), availability: FixedAvailability(.unavailable(.modelTurnedOff)))
        let configuration = PipelineConfiguration(backend: "none", source: service,
                                                  settings: OutputSettings(backend: "none", fallback: .local))
        let runner = BatchRunner(processor: FileProcessor(configuration: configuration), destination: .folder(setup.output), jobs: 2, resume: true)
        let first = await runner.run(plan)
        #expect(first.skipped == 0 && first.summary.totals.written == 6)
        let report = try setup.read("report.json")
        let again = await runner.run(plan)
        #expect(again.skipped == 6)  // the broken file is redone: it has an error
        #expect(try setup.read("report.json") == report)
    }

    /// The one rule for "complete": a model that answered, or one that cannot answer under
    /// the options given; never a file with an error, other options, or a reason that may pass.
    @Test func completeMeansNothingTheSameOptionsCouldChange() {
        func report(_ availability: ModelAvailability?, error: String? = nil, settings: OutputSettings) -> FileReport {
            FileReport(input: "in/a.srt", output: "a.srt", format: .srt, cues: 1, warnings: [], transcript: nil,
                       model: .init(backend: settings.backend, availability: availability), actions: [], reasonRow: nil, error: error,
                       fingerprint: OutputFingerprint(inputSHA256: String(repeating: "a", count: 64), outputSHA256: String(repeating: "b", count: 64),
                                                      settings: settings))
        }
        func unavailable(_ reason: UnavailableReason) -> ModelAvailability { .unavailable(ModelUnavailability(Diagnostics(reason))) }
        func complete(_ r: FileReport, _ settings: OutputSettings) -> Bool {
            ResumeCheck.isComplete(r, input: "in/a.srt", output: "a.srt", settings: settings)
        }
        let http = OutputSettings(backend: "http", endpoint: "http://127.0.0.1:8080")
        let none = OutputSettings(backend: "none", fallback: .local)
        let forced = OutputSettings(backend: "fake", simulatedAvailability: "modelNotReady")
        #expect(complete(report(.available, settings: http), http))
        #expect(!complete(report(.available, error: "HTTP 500", settings: http), http))
        #expect(!complete(report(.available, settings: http), none))
        #expect(!complete(report(unavailable(.serverUnreachable), settings: http), http))
        #expect(!complete(report(unavailable(.modelMissing), settings: http), http))
        #expect(complete(report(unavailable(.modelTurnedOff), settings: none), none))
        #expect(complete(report(unavailable(.unsupportedPlatform), settings: OutputSettings(backend: "foundation")), OutputSettings(backend: "foundation")))
        #expect(complete(report(unavailable(.modelNotReady), settings: forced), forced))
        #expect(!complete(report(nil, settings: none), none))
    }

    /// `--encoding` and `--language` are options that shape the output: a run
    /// with another value redoes the file. They are recorded only when given,
    /// and read back exactly or not at all.
    @Test func encodingAndLanguageAreRecordedOptions() throws {
        let plain = OutputSettings(backend: "fake")
        guard case .object(let plainPairs) = plain.json else { Issue.record("not an object"); return }
        #expect(plainPairs.count == 7)
        let given = OutputSettings(backend: "fake", writeOptions: WriteOptions(encoding: .utf8, language: "en-GB"))
        #expect((try? OutputSettings(reportJSON: given.json)) == given)
        #expect(given != plain)
        guard case .object(let pairs) = given.json else { Issue.record("not an object"); return }
        #expect(pairs.suffix(2).map(\.0) == ["encoding", "language"])
        #expect((try? OutputSettings(reportJSON: .object(pairs + [("language", .string("fr"))]))) == nil)
        #expect((try? OutputSettings(reportJSON: .object(pairs.dropLast(2) + [pairs[8], pairs[7]]))) == nil)
        #expect((try? OutputSettings(reportJSON: .object(pairs.dropLast(2) + [("encoding", .string("latin1"))]))) == nil)
        #expect((try? OutputSettings(reportJSON: .object(pairs.dropLast(2) + [("encoding", .string("keep"))]))) == nil)
    }
}
