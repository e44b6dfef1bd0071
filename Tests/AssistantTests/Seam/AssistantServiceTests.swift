import Foundation
import Testing
import TestSupport
@testable import Assistant

/// A backend error that says whether it is temporary, as the HTTP backend's errors do.
struct HTTPStatusError: TemporaryError, Sendable, CustomStringConvertible {
    let status: Int
    var isTemporary: Bool { status == 429 || status == 503 }
    var description: String { "The server answered HTTP \(status)." }
}

/// A model that answers only after 30 s, and then with an answer that is no
/// use (`{}`): far past the limits the tests set, so a timeout error can come
/// from the service's time limit only.
struct HangingModel: AssistantModel {
    func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
        try? await Task.sleep(for: .seconds(30))
        return ModelAnswer(text: "{}")
    }
}

@Suite struct AssistantServiceTests {
    static let transcript = "The rocket launch was delayed. The rocket crew waited, and the launch window closed. Rocket fans cheered anyway."
    static let goodAnswer = #"{"keywords": ["rocket", "launch"], "titles": ["Alpha title", "Beta title", "Gamma title"], "emoji": "🚀"}"#

    func service(_ model: any AssistantModel, availability: Availability = .available, options: AssistantOptions = AssistantOptions(retryJitter: 0), clock: ManualWaitClock = ManualWaitClock()) -> AssistantService {
        AssistantService(backendName: "test", model: model, availability: FixedAvailability(availability), options: options, clock: clock)
    }

    @Test func theFakeGivesItsTwoMostFrequentLongWords() async throws {
        let fake = FakeAssistantModel()
        let result = await AssistantService(backendName: FakeAssistantModel.backendName, model: fake, availability: fake, clock: ManualWaitClock())
            .suggest(transcript: Self.transcript)
        let suggestions = try #require(result.suggestions)
        #expect(suggestions.keywords == .applied(["rocket", "launch"]))
        #expect(suggestions.titles == .applied(FakeAssistantModel.titles))
        #expect(suggestions.emoji == .applied("🎬"))
        #expect(result.attempts == 1)
        #expect(result.error == nil)
        #expect(result.backend == "fake")
        #expect(result.availability == .available)
        #expect(fake.prompts.count == 1)
    }

    @Test func anUnavailableModelIsNeverCalled() async {
        let model = ScriptedAssistantModel(answers: [Self.goodAnswer])
        let result = await service(model, availability: .unavailable(.appleIntelligenceNotEnabled)).suggest(transcript: Self.transcript)
        #expect(result.availability == .unavailable(.appleIntelligenceNotEnabled))
        #expect(result.suggestions == nil)
        #expect(result.attempts == 0)
        #expect(model.calls == 0)
        #expect(result.characters == 0 && result.sentCharacters == 0, "nothing was sent")
    }

    /// With no model to send it to, the transcript is never made (a `--model none` run of a large
    /// TTML file spent a third of its time building text nobody read); with one, it is made once.
    @Test func theTranscriptIsMadeOnlyWhenTheModelMayBeCalled() async {
        let made = Counter()
        let unavailable = await service(ScriptedAssistantModel(answers: [Self.goodAnswer]), availability: .unavailable(.modelTurnedOff))
            .suggest(transcript: { made.add(); return Self.transcript })
        #expect(unavailable.suggestions == nil)
        #expect(made.value == 0)
        let available = await service(ScriptedAssistantModel(answers: [Self.goodAnswer])).suggest(transcript: { made.add(); return Self.transcript })
        #expect(available.characters == Self.transcript.count)
        #expect(made.value == 1)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// A batch stopped by Ctrl-C cancels the task: the call in flight ends at
    /// once, and the result is marked interrupted (no suggestions to apply, no
    /// failure to report, no retry), whatever the model does meanwhile.
    @Test func aCancelledCallIsInterruptedNotFailedNorRetried() async {
        final class CalledModel: AssistantModel, @unchecked Sendable {
            private let lock = NSLock()
            private var calls = 0
            var count: Int { lock.withLock { calls } }
            func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
                lock.withLock { calls += 1 }
                try? await Task.sleep(for: .seconds(30))  // ignores the cancellation, as a stuck backend may
                return ModelAnswer(text: "{}")
            }
        }
        let model = CalledModel()
        let service = service(model, options: AssistantOptions(maxAttempts: 3, retryJitter: 0))
        let call = Task { await service.suggest(transcript: Self.transcript) }
        while model.count == 0 { try? await Task.sleep(for: .milliseconds(1)) }
        call.cancel()
        let result = await call.value
        #expect(result.interrupted)
        #expect(result.suggestions == nil)
        #expect(model.count == 1)
    }

    @Test func aThrownErrorFailsEveryActionAndKeepsItsText() async {
        let model = FailingAssistantModel(error: AssistantError.failed("llama-server: context size exceeded (4096 tokens)"))
        let result = await service(model).suggest(transcript: Self.transcript)
        #expect(result.error == "llama-server: context size exceeded (4096 tokens)")
        #expect(result.suggestions == .allFailed("llama-server: context size exceeded (4096 tokens)"))
        #expect(result.attempts == 1, "a permanent error is not retried")
        #expect(model.log.prompts.count == 1)
    }

    @Test func aPlainSwiftErrorKeepsItsRealText() async {
        let result = await service(FailingAssistantModel(error: HTTPStatusError(status: 400))).suggest(transcript: Self.transcript)
        #expect(result.error == "The server answered HTTP 400.")
        #expect(result.attempts == 1)
    }

    @Test func aTemporaryErrorIsRetriedThenSucceeds() async throws {
        let model = ScriptedAssistantModel([.failure(HTTPStatusError(status: 503)), .success(Self.goodAnswer)])
        let clock = ManualWaitClock()
        let result = await service(model, clock: clock).suggest(transcript: Self.transcript)
        #expect(result.attempts == 2)
        #expect(result.error == nil)
        #expect(try #require(result.suggestions).keywords == .applied(["rocket", "launch"]))
        #expect(clock.sleeps == [.seconds(2)])
    }

    @Test func temporaryErrorsAreRetriedABoundedNumberOfTimesWithBackoff() async {
        let model = FailingAssistantModel(error: AssistantError.busy("HTTP 429 Too Many Requests"))
        let clock = ManualWaitClock()
        let result = await service(model, options: AssistantOptions(maxAttempts: 4, retryJitter: 0), clock: clock).suggest(transcript: Self.transcript)
        #expect(result.attempts == 4)
        #expect(model.log.prompts.count == 4)
        #expect(clock.sleeps == [.seconds(2), .seconds(4), .seconds(8)])
        #expect(result.error == "The model is busy: HTTP 429 Too Many Requests")
        #expect(result.suggestions?.titles == .failed("The model is busy: HTTP 429 Too Many Requests (after 4 attempts)"))
    }

    @Test func retryPausesAreJitteredWithinTheirBounds() async {
        let model = FailingAssistantModel(error: AssistantError.busy("HTTP 503"))
        let clock = ManualWaitClock()
        let options = AssistantOptions(maxAttempts: 4, retryJitter: 0.5)
        _ = await service(model, options: options, clock: clock).suggest(transcript: Self.transcript)
        #expect(clock.sleeps.count == 3)
        for (pause, base) in zip(clock.sleeps, [2.0, 4.0, 8.0]) {
            #expect(pause >= .seconds(base * 0.5) && pause <= .seconds(base * 1.5))
        }
    }

    @Test func aPermanentErrorIsNotRetried() async {
        let model = ScriptedAssistantModel([.failure(HTTPStatusError(status: 404)), .success(Self.goodAnswer)])
        let clock = ManualWaitClock()
        let result = await service(model, clock: clock).suggest(transcript: Self.transcript)
        #expect(result.attempts == 1)
        #expect(model.calls == 1)
        #expect(clock.sleeps.isEmpty)
        #expect(result.error == "The server answered HTTP 404.")
    }

    /// No wall-clock bound here (a loaded machine can delay any test): the
    /// outcome itself shows that the 0.1 s limit ended both calls, since the
    /// model's own answer would fail with another error.
    @Test func aModelThatHangsTimesOut() async {
        let result = await service(HangingModel(), options: AssistantOptions(timeout: .milliseconds(100), maxAttempts: 2)).suggest(transcript: Self.transcript)
        #expect(result.attempts == 2, "a timeout is temporary, so it is retried")
        #expect(result.error == "The model did not answer within 0.1 s.")
        #expect(result.suggestions?.emoji.failureMessage?.hasPrefix("The model did not answer within 0.1 s.") == true)
    }

    @Test func anEmptyAnswerIsAnErrorInTheResult() async {
        let result = await service(ScriptedAssistantModel(answers: [""])).suggest(transcript: Self.transcript)
        #expect(result.error == "The model returned an empty answer.")
        #expect(result.suggestions == .allFailed("The model returned an empty answer."))
        #expect(result.attempts == 1)
    }

    @Test func anUndecodableAnswerIsAnErrorInTheResult() async {
        let result = await service(ScriptedAssistantModel(answers: ["I cannot help with that."])).suggest(transcript: Self.transcript)
        #expect(result.error == "The model's answer holds no JSON object: “I cannot help with that.”.")
        #expect(result.suggestions?.keywords == .failed("The model's answer holds no JSON object: “I cannot help with that.”."))
    }

    @Test func aPartlyValidAnswerIsNotAnError() async throws {
        let answer = #"{"keywords": ["rocket"], "titles": ["Alpha title", "Beta title"], "emoji": "🚀"}"#
        let result = await service(ScriptedAssistantModel(answers: [answer])).suggest(transcript: Self.transcript)
        #expect(result.error == nil)
        let suggestions = try #require(result.suggestions)
        #expect(suggestions.keywords == .applied(["rocket"]))
        #expect(suggestions.titles.failureMessage != nil)
    }

    @Test func emptyCaptionsAreNotSentToTheModel() async {
        let model = ScriptedAssistantModel(answers: [Self.goodAnswer])
        let result = await service(model).suggest(transcript: " \n ")
        #expect(model.calls == 0)
        #expect(result.attempts == 0)
        #expect(result.error == "The captions hold no text to send to the model.")
    }

    @Test func aModelThatIsGettingReadyIsWaitedForWhenAsked() async {
        let provider = ScriptedAvailability.readyAfter(2)
        let clock = ManualWaitClock()
        let service = AssistantService(backendName: "test", model: ScriptedAssistantModel(answers: [Self.goodAnswer]), availability: provider, options: AssistantOptions(waitForModel: .seconds(30)), clock: clock)
        let result = await service.suggest(transcript: Self.transcript)
        #expect(result.availability == .available)
        #expect(result.attempts == 1)
        #expect(provider.checks == 3)
    }

    @Test func errorsSayWhetherTheyAreTemporary() {
        #expect(AssistantError.unavailable(.modelNotReady).isTemporary)
        #expect(!AssistantError.unavailable(.deviceNotEligible).isTemporary)
        #expect(AssistantError.timedOut(.seconds(60)).isTemporary)
        #expect(AssistantError.busy("503").isTemporary)
        #expect(!AssistantError.failed("bad request").isTemporary)
        #expect(AssistantError.timedOut(.seconds(60)).errorDescription == "The model did not answer within 60 s.")
        #expect(AssistantError.unavailable(.modelMissing).errorDescription == "The model is unavailable: The server does not offer the requested model.")
    }
}
