import Testing
@testable import Assistant

@Suite struct FakeAssistantModelTests {
    @Test func keywordsAreTheTwoMostFrequentLongWordsInLowerCase() {
        #expect(FakeAssistantModel.keywords(in: "Rocket rocket ROCKET launch Launch crew crew crew crew") == ["rocket", "launch"])
    }

    @Test func tiesAreBrokenAlphabetically() {
        #expect(FakeAssistantModel.keywords(in: "zebra apple mango apple zebra mango") == ["apple", "mango"])
    }

    @Test func onlyWordsOfFiveOrMoreLettersInAnyScriptCount() {
        #expect(FakeAssistantModel.keywords(in: "four four four four café café éclair éclair éclair 12345 12345") == ["éclair"])
        #expect(FakeAssistantModel.keywords(in: "Привет привет мир") == ["привет"])
        #expect(FakeAssistantModel.keywords(in: "tiny") == [])
    }

    @Test func wordsAreCountedAsStringsSoEquivalentSpellingsAndTheKelvinSignCountAsOne() {
        // "cre\u{300}me" is canonically equivalent to "crème"; the Kelvin sign lower-cases to "k".
        #expect(FakeAssistantModel.keywords(in: "Crème crème cre\u{300}me zebra zebra") == ["crème", "zebra"])
        #expect(FakeAssistantModel.keywords(in: "\u{212A}elvin zebra kelvin") == ["kelvin", "zebra"])
        #expect(FakeAssistantModel.keywords(in: "apple\r\napple\r\nmango rocket_launch rocket") == ["apple", "rocket"])
    }

    @Test func itReadsOnlyTheTranscriptPartAndRecordsEveryPrompt() async throws {
        let fake = FakeAssistantModel()
        let prompt = PromptBuilder().build(transcript: "Galaxy galaxy nebula")
        let answer = try await fake.respond(to: prompt.text)
        // The instructions mention "keywords", "titles" and "transcript" many times; none of that counts.
        #expect(answer == #"{"keywords": ["galaxy", "nebula"], "titles": ["Highlights from the captions", "What this video covers", "The story in brief"], "emoji": "🎬"}"#)
        _ = try await fake.respond(to: "no transcript here at all")
        #expect(fake.prompts == [prompt.text, "no transcript here at all"])
        #expect(await fake.currentAvailability() == .available)
    }

    @Test func theCommandLinesFakeKeepsNoPromptsAndCanBeSlow() async throws {
        let quiet = FakeAssistantModel(recordsPrompts: false, delay: .milliseconds(20))
        let prompt = PromptBuilder().build(transcript: "Galaxy galaxy nebula")
        let answer = try await quiet.respond(to: prompt.text)
        #expect(answer == (try await FakeAssistantModel().respond(to: prompt.text)))
        #expect(quiet.prompts.isEmpty)
        #expect(quiet.delay == .milliseconds(20))
    }

    @Test func aSlowFakeStopsWaitingWhenCancelled() async {
        let slow = FakeAssistantModel(delay: .seconds(600))
        let call = Task { try await slow.respond(to: "x") }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test func answersEscapeEverything() {
        #expect(SuggestionDecoder.answer(keywords: ["a\"b\\c\nd\u{1}"], titles: [], emoji: "\u{2028}")
                == #"{"keywords": ["a\"b\\c\nd\u0001"], "titles": [], "emoji": "\u2028"}"#)
    }
}
