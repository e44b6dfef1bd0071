import Assistant
import Captions
import Foundation
import Testing
import TestSupport
@testable import CaptionAssistant
import JSON

/// A model that fails in every way over a batch of many files: every file
/// is still written, every report says what happened, and the batch ends.
@Suite struct FailingModelBatchTests {
    /// How the model treats a file, chosen by a word in the file's text.
    enum Mode: String, CaseIterable {
        case answers, throwsError, hangs, garbage, slowAnswers, halfValid
    }

    /// The thrown error, with a message the report must carry verbatim.
    struct ChaosError: Error, LocalizedError {
        var file: String
        var errorDescription: String? { "the chaos model broke down on \(file)" }
    }

    /// Answers, throws, hangs (ignoring cancellation), or talks nonsense, per file.
    final class ChaosModel: AssistantModel, @unchecked Sendable {
        private let lock = NSLock()
        private var hanging: [CheckedContinuation<ModelAnswer, any Error>] = []

        func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
            let transcript = prompt.transcript
            let mode = Mode.allCases.first { transcript.contains("mode-" + $0.rawValue) } ?? .answers
            let file = transcript.split(separator: " ").first { $0.hasPrefix("file-") }.map(String.init) ?? "?"
            switch mode {
            case .answers:
                return try await FakeAssistantModel().respond(to: prompt)
            case .throwsError:
                throw ChaosError(file: file)
            case .hangs:
                // Never answers and ignores cancellation: only the service's time limit ends the wait.
                return try await withCheckedThrowingContinuation { continuation in lock.withLock { hanging.append(continuation) } }
            case .garbage:
                return ModelAnswer(text: "}}{{ not JSON at all \u{0} \u{FFFD}")
            case .slowAnswers:
                try await Task.sleep(for: .milliseconds(20))
                return try await FakeAssistantModel().respond(to: prompt)
            case .halfValid:
                return ModelAnswer(text: #"{"keywords": ["rocket", "zebra"], "titles": ["Only one title"], "emoji": "not an emoji"}"#)
            }
        }

        /// Ends every hanging call (so no task is left waiting after the test).
        func release() -> Int {
            let all = lock.withLock { let h = hanging; hanging = []; return h }
            for continuation in all { continuation.resume(throwing: CancellationError()) }
            return all.count
        }
    }

    /// The model's time limit is 5 s, far from what an answering file needs
    /// (milliseconds), so a loaded machine cannot turn an answer into a
    /// timeout; the hanging files still end by that limit only. Eight jobs let
    /// the hanging files (about seven reach the model) wait out their two
    /// attempts side by side, about 10 s in all, not in turns.
    @Test(.timeLimit(.minutes(2)))
    func everyFileIsWrittenAndEveryReportSaysWhatHappened() async throws {
        let dir = try TemporaryFolder()
        let count = 60
        var inputs: [String: String] = [:]
        for i in 0..<count {
            let mode = Mode.allCases[i % Mode.allCases.count]
            let name = String(format: "ep%02d.srt", i)
            let text = sampleSRT.replacingOccurrences(of: "The rocket is on the pad.", with: "file-\(i) mode-\(mode.rawValue) The rocket is on the pad.")
            try dir.write("in/" + name, text)
            inputs[name] = text
        }
        // Available for 20 checks, then unavailable for 15 (the server goes away), then available again.
        let availability = ScriptedAvailability(Array(repeating: .available, count: 20)
            + Array(repeating: .unavailable(.serverUnreachable), count: 15) + [.available])
        let model = ChaosModel()
        let service = AssistantService(
            backendName: "http", model: model, availability: availability,
            options: AssistantOptions(timeout: .seconds(5), maxAttempts: 2, retryDelay: .milliseconds(5), retryJitter: 0))
        let configuration = PipelineConfiguration(backend: "http", source: service,
                                                  diagnosticsContext: DiagnosticsContext(endpoint: "http://127.0.0.1:9/v1"))
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let result = await BatchRunner(processor: FileProcessor(configuration: configuration), destination: .folder(dir.path + "/out"),
                                       jobs: 8, keepsReports: true).run(plan)
        _ = model.release()

        #expect(availability.checks == count)
        let files = result.files
        #expect(files.count == count)
        #expect(result.summary.totals.written == count)
        #expect(result.summary.totals.modelUnavailable == 15)
        var seen: [Mode: Int] = [:]
        for file in files {
            let name = (file.input as NSString).lastPathComponent
            let input = try #require(inputs[name])
            let mode = try #require(Mode.allCases.first { input.contains("mode-" + $0.rawValue + " ") })
            let written = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/" + name))
            let sidecar = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/" + name + ".assistant.json"))
            #expect(sidecar == Data(file.json.rendered().utf8), "\(name): the sidecar differs from its report entry")
            #expect(file.output == name)
            let states = file.actions.map(\.state)
            #expect(file.actions.map(\.id) == AssistantAction.allCases)

            if case .unavailable(let info)? = file.model.availability {
                #expect(info.reason == "serverUnreachable")
                #expect(states == [.disabled, .disabled, .disabled], "\(name)")
                #expect(file.reasonRow?.isEmpty == false)
                #expect(file.reasonRow == Diagnostics(.serverUnreachable).reasonRow)
                #expect(file.error == nil)
                #expect(written == Data(input.utf8), "\(name): captions must be unchanged when the model is unavailable")
                continue
            }
            seen[mode, default: 0] += 1
            switch mode {
            case .answers, .slowAnswers:
                #expect(states == [.applied, .applied, .applied], "\(name)")
                #expect(file.error == nil && file.reasonRow == nil)
                #expect(String(decoding: written, as: UTF8.self).contains("<b>rocket</b>"))
            case .throwsError:
                let index = Int(name.dropFirst(2).prefix(2)) ?? -1
                #expect(file.error == "the chaos model broke down on file-\(index)", "\(name): \(file.error ?? "nil")")
                #expect(states == [.failed, .failed, .failed])
                #expect(file.reasonRow == FileProcessor.modelFailedRow)
                #expect(written == Data(input.utf8), "\(name): captions must be unchanged when the model failed")
            case .hangs:
                #expect(file.error?.contains("did not answer within") == true, "\(name): \(file.error ?? "nil")")
                #expect(states == [.failed, .failed, .failed])
                #expect(file.reasonRow == FileProcessor.modelFailedRow)
                #expect(written == Data(input.utf8))
            case .garbage:
                #expect(file.error?.isEmpty == false, "\(name)")
                #expect(states == [.failed, .failed, .failed])
                #expect(file.reasonRow == FileProcessor.modelFailedRow)
                #expect(written == Data(input.utf8))
            case .halfValid:
                // Each action is judged on its own: the keyword that is in the text is used; the rest fail with reasons.
                #expect(states == [.applied, .failed, .failed], "\(name)")
                #expect(file.actions.dropFirst().allSatisfy { $0.reason?.isEmpty == false })
                #expect(String(decoding: written, as: UTF8.self).contains("<b>rocket</b>"))
            }
        }
        // Every kind of failure happened while the model was available.
        #expect(Set(seen.keys) == Set(Mode.allCases), "\(seen)")
        let report = try #require(JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/report.json")))))
        #expect(report["totals"]?["written"] == .int(count))
        #expect(report["totals"]?["modelUnavailable"] == .int(15))
    }
}
