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
    }

    /// Words are the one word rule's: `rocket_launch` and `don't` are one word
    /// each, and a Japanese sentence is cut into its words, not taken whole.
    @Test func wordsAreTheWordRulesInEveryScript() {
        #expect(FakeAssistantModel.keywords(in: "apple\r\napple\r\nmango rocket_launch rocket_launch rocket") == ["apple", "rocket_launch"])
        #expect(FakeAssistantModel.keywords(in: "doesn't doesn't doesn't stars stars") == ["doesn't", "stars"])
        #expect(FakeAssistantModel.keywords(in: "このラーメンはスープがとても濃厚です。インターネットのラーメン") == ["インターネット"])
        #expect(FakeAssistantModel.keywords(in: "今日は東京の新しいラーメン店を紹介します") == [])
    }

    @Test func itReadsOnlyTheTranscriptPartAndRecordsEveryPrompt() async throws {
        let fake = FakeAssistantModel()
        let prompt = PromptBuilder().build(transcript: "Galaxy galaxy nebula")
        let answer = try await fake.respond(to: prompt).text
        // The instructions mention "keywords", "titles" and "transcript" many times; none of that counts.
        #expect(answer == #"{"keywords": ["galaxy", "nebula"], "titles": ["Highlights from the captions", "What this video covers", "The story in brief"], "emoji": "🎬"}"#)
        // Only the transcript part of the value is read, whatever the request's text says.
        let other = AssistantPrompt(instructions: "Galaxy galaxy galaxy", request: "comets comets comets", transcript: "stars stars",
                                    schema: AnswerSchema(keywords: []), characters: 11, sentCharacters: 11, truncated: false)
        #expect(try await fake.respond(to: other).text.hasPrefix(#"{"keywords": ["stars"],"#))
        #expect(fake.log.received == [prompt, other])
        #expect(fake.prompts == [prompt.text, other.text])
        #expect(await fake.currentAvailability() == .available)
    }

    @Test func theCommandLinesFakeKeepsNoPromptsAndCanBeSlow() async throws {
        let quiet = FakeAssistantModel(recordsPrompts: false, delay: .milliseconds(20))
        let prompt = PromptBuilder().build(transcript: "Galaxy galaxy nebula")
        let answer = try await quiet.respond(to: prompt)
        #expect(answer == (try await FakeAssistantModel().respond(to: prompt)))
        #expect(quiet.prompts.isEmpty)
        #expect(quiet.delay == .milliseconds(20))
    }

    @Test func aSlowFakeStopsWaitingWhenCancelled() async {
        let slow = FakeAssistantModel(delay: .seconds(600))
        let call = Task { try await slow.respond(to: PromptBuilder().build(transcript: "x")) }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test func answersEscapeEverything() {
        #expect(SuggestionDecoder.answer(keywords: ["a\"b\\c\nd\u{1}"], titles: [], emoji: "\u{2028}")
                == #"{"keywords": ["a\"b\\c\nd\u0001"], "titles": [], "emoji": "\u2028"}"#)
    }
}
