import Testing
@testable import Assistant

/// `ModelCall`, the time limit around every model call.
@Suite struct ModelCallTests {
    /// A call within its limit gives the model's own answer; a call made from
    /// a cancelled task throws `CancellationError`.
    @Test func aModelCalledWithATimeLimitAnswersAsItWouldAloneAndRefusesWhenCancelled() async throws {
        let fake = FakeAssistantModel(recordsPrompts: true)
        let prompt = PromptBuilder().build(transcript: "rocket rocket launch launch launch")
        let limited = try await ModelCall.answer(model: fake, prompt: prompt, timeout: .seconds(300))
        #expect(limited == (try await fake.respond(to: prompt)))
        #expect(fake.prompts.count == 2)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await ModelCall.answer(model: fake, prompt: prompt, timeout: .seconds(300)).text
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
