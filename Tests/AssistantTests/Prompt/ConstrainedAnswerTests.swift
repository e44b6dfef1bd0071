import Foundation
import Testing
import Captions
import TestSupport
@testable import Assistant
import Words

/// What the answer's schema offers (emoji table, keyword candidates), the one
/// repair request, the file's model time bound and the cost a service records.
@Suite struct ConstrainedAnswerTests {
    static let transcript = "The rocket launch was delayed. The rocket crew waited, and the launch window closed. Rocket fans cheered anyway."

    func service(_ model: any AssistantModel, options: AssistantOptions = AssistantOptions(retryJitter: 0)) -> AssistantService {
        AssistantService(backendName: "test", model: model, availability: FixedAvailability(.available), options: options, clock: ManualWaitClock())
    }

    // MARK: Emoji table

    @Test func everyEmojiInTheTableIsOneEmojiTheDecoderAccepts() {
        let emoji = EmojiTable.entries.map(\.emoji)
        #expect(emoji.count >= 300 && emoji.count <= 800)
        #expect(Set(emoji).count == emoji.count)
        let decoder = SuggestionDecoder()
        for e in emoji {
            #expect(e.count == 1, "\(e) is not one Character")
            #expect(decoder.validateEmoji(.string(e)) == .applied(e), "\(e) is refused by the decoder")
        }
        #expect(EmojiTable.entries.allSatisfy { !$0.name.isEmpty })
        // One scalar each, so the pattern form's character class offers exactly these.
        #expect(EmojiTable.entries.allSatisfy { $0.emoji.unicodeScalars.count == 1 })
        #expect(emoji.contains("🚀") && emoji.contains("🎬") && emoji.contains("🌊"))
        #expect(!emoji.contains("❌") && !emoji.contains("💩"))
    }

    // MARK: Keyword candidates

    @Test func keywordCandidatesAreWholeWordsAndPhrasesOfTheTranscript() {
        let transcript = """
            Interviewer: When did you first come to the city?
            Margaret: It was 1962. I was nineteen years old.
            I worked at the textile mill on Canal Street, and the textile mill closed in 1979.
            """
        let candidates = KeywordCandidates.from(transcript)
        #expect(!candidates.isEmpty)
        #expect(candidates.allSatisfy { WholeWords.contains($0, in: transcript) })
        #expect(WholeWords.found(candidates, in: transcript).allSatisfy { $0 })
        #expect(candidates.first == "textile" || candidates.first == "mill" || candidates.first == "textile mill")
        #expect(candidates.contains("textile mill"))   // a phrase said twice
        #expect(candidates.contains("Canal Street"))   // a name
        #expect(candidates.contains("1962") && candidates.contains("Margaret"))
        for word in ["When", "did", "the", "was", "It"] { #expect(!candidates.contains(word)) }
        #expect(Set(candidates.map { $0.lowercased() }).count == candidates.count)
    }

    /// The candidates are cut by the one word rule, so a part of a word
    /// (`rocket` in `rocket_launch` or `rocket's`) is never offered: every
    /// candidate is one the decoder keeps.
    @Test func keywordCandidatesFollowTheWordRule() {
        let transcript = "Tag it rocket_launch. Then rocket_launch again, and the rocket's fins once more before the countdown countdown."
        let candidates = KeywordCandidates.from(transcript)
        #expect(!candidates.contains("rocket") && !candidates.contains("launch"))
        #expect(candidates.contains("rocket_launch") && candidates.contains("rocket's") && candidates.contains("countdown"))
        #expect(WholeWords.found(candidates, in: transcript).allSatisfy { $0 })
    }

    /// In scripts written without spaces the candidates are words, not whole
    /// clauses; particles and endings (all hiragana) are left out.
    @Test func keywordCandidatesInJapaneseAndChineseAreWords() {
        let japanese = "今日は東京の新しいラーメン店を紹介します\nこのラーメンはスープがとても濃厚です"
        let candidates = KeywordCandidates.from(japanese)
        #expect(candidates.first == "ラーメン")   // said twice
        #expect(candidates.contains("東京") && candidates.contains("スープ") && candidates.contains("濃厚"))
        #expect(!candidates.contains("は") && !candidates.contains("とても") && !candidates.contains("します"))
        #expect(!candidates.contains { $0.contains("今日は東京") })
        #expect(WholeWords.found(candidates, in: japanese).allSatisfy { $0 })
        let chinese = KeywordCandidates.from("我们今天去北京吃烤鸭。北京的烤鸭很有名。")
        #expect(chinese.prefix(2).sorted() == ["北京", "烤鸭"])
        #expect(chinese.contains("北京烤鸭") == false)   // not side by side in the text
    }

    @Test func keywordCandidatesAreBoundedForALongTranscript() {
        let words = (0..<2000).map { "word\($0)" }.joined(separator: " ")
        let candidates = KeywordCandidates.from(words)
        #expect(candidates.count == KeywordCandidates.maximumCount)
        #expect(KeywordCandidates.from("a an of to").isEmpty)
        #expect(KeywordCandidates.from(words, limit: 0).isEmpty)
    }

    // MARK: Repair

    @Test func anInvalidFieldIsAskedForOnceMoreAndTheRepairedFieldIsMarked() async throws {
        let first = #"{"keywords": ["rocket"], "titles": ["Alpha rocket", "Beta launch", "Gamma crew"], "emoji": "Tonight we ["}"#
        let second = #"{"keywords": ["crew"], "titles": ["Delta rocket", "Epsilon launch", "Zeta crew"], "emoji": "🚀"}"#
        let model = ScriptedAssistantModel(answers: [first, second])
        let result = await service(model).suggest(transcript: Self.transcript)
        let suggestions = try #require(result.suggestions)
        #expect(model.calls == 2)
        #expect(suggestions.emoji == .applied("🚀"))
        #expect(suggestions.repaired == ["emoji"])
        // Only the invalid field is taken from the repair answer.
        #expect(suggestions.keywords == .applied(["rocket"]))
        #expect(suggestions.titles == .applied(["Alpha rocket", "Beta launch", "Gamma crew"]))
        #expect(result.cost.requests == 2)
        let repairPrompt = try #require(model.log.prompts.last)
        #expect(repairPrompt.contains("\"emoji\": "))
        #expect(repairPrompt.contains(Self.transcript))
    }

    /// A title that copies a caption line is refused, and the repair is asked
    /// for new words; titles are alternatives, so the usable titles of both
    /// answers together make up the three (the first answer's first).
    @Test func titlesThatCopyTheCaptionsAreRepairedFromBothAnswers() async throws {
        let first = #"{"keywords": ["rocket"], "titles": ["The rocket launch was delayed", "Countdown for the rocket", "Crew on standby"], "emoji": "🚀"}"#
        let second = #"{"keywords": ["crew"], "titles": ["Countdown for the rocket", "The rocket crew waited", "Fans cheer anyway"], "emoji": "🎬"}"#
        let model = ScriptedAssistantModel(answers: [first, second])
        let result = await service(model).suggest(transcript: Self.transcript)
        let suggestions = try #require(result.suggestions)
        #expect(model.calls == 2)
        #expect(suggestions.titles == .applied(["Countdown for the rocket", "Crew on standby", "Fans cheer anyway"]))
        #expect(suggestions.repaired == ["titles"])
        #expect(suggestions.keywords == .applied(["rocket"]) && suggestions.emoji == .applied("🚀"))
        let repairPrompt = try #require(model.log.prompts.last)
        #expect(repairPrompt.contains("2 of your titles were usable and 3 are needed; 1 was refused: copies a caption line (1)."))
        #expect(!repairPrompt.contains("“The rocket launch was delayed”"))
        // Too few usable titles in both answers: the titles fail.
        let again = ScriptedAssistantModel(answers: [first, first])
        let failed = try #require(await service(again).suggest(transcript: Self.transcript).suggestions)
        #expect(failed.titles.failureMessage?.hasPrefix("The model gave 2 usable titles; exactly three are needed.") == true)
        #expect(failed.repaired.isEmpty)
    }

    @Test func thereIsNeverMoreThanOneRepairRequest() async throws {
        let bad = #"{"keywords": ["rocket"], "titles": ["Alpha rocket", "Beta launch", "Gamma crew"], "emoji": "🚀🚀🚀"}"#
        let model = ScriptedAssistantModel(answers: [bad, bad, bad])
        let result = await service(model).suggest(transcript: Self.transcript)
        #expect(model.calls == 2)
        #expect(result.suggestions?.emoji.failureMessage != nil)
        #expect(result.suggestions?.repaired.isEmpty == true)
    }

    @Test func anUndecodableAnswerIsAskedForOnceMore() async throws {
        let good = #"{"keywords": ["rocket"], "titles": ["Alpha rocket", "Beta launch", "Gamma crew"], "emoji": "🚀"}"#
        let model = ScriptedAssistantModel(answers: ["no json here", good])
        let result = await service(model).suggest(transcript: Self.transcript)
        #expect(model.calls == 2)
        #expect(result.error == nil)
        let suggestions = try #require(result.suggestions)
        #expect(suggestions.repaired == ["keywords", "titles", "emoji"])
        #expect(suggestions.emoji == .applied("🚀"))
        let twice = ScriptedAssistantModel(answers: ["no json here"])
        let failed = await service(twice).suggest(transcript: Self.transcript)
        #expect(twice.calls == 2)
        #expect(failed.error == "The model's answer holds no JSON object: “no json here”.")
    }

    /// A field the run did not ask for (`--actions`) never costs a repair request.
    @Test func aFieldNotAskedForIsNotRepaired() async throws {
        let badEmoji = #"{"keywords": ["rocket"], "titles": ["Alpha rocket", "Beta launch", "Gamma crew"], "emoji": "🚀🚀🚀"}"#
        var options = AssistantOptions(retryJitter: 0)
        options.actions = [.keywords, .titles]
        let model = ScriptedAssistantModel(answers: [badEmoji, badEmoji])
        let result = await service(model, options: options).suggest(transcript: Self.transcript)
        #expect(model.calls == 1)
        #expect(result.suggestions?.keywords == .applied(["rocket"]))
        // Asked for, the same answer is repaired.
        options.actions = [.emoji]
        let asked = ScriptedAssistantModel(answers: [badEmoji, badEmoji])
        _ = await service(asked, options: options).suggest(transcript: Self.transcript)
        #expect(asked.calls == 2)
    }

    @Test func aValidAnswerOrAFailedRequestIsNotRepaired() async {
        let good = #"{"keywords": ["rocket"], "titles": ["Alpha rocket", "Beta launch", "Gamma crew"], "emoji": "🚀"}"#
        let model = ScriptedAssistantModel(answers: [good])
        _ = await service(model).suggest(transcript: Self.transcript)
        #expect(model.calls == 1)
        let throwing = FailingAssistantModel(error: AssistantError.failed("permanent"))
        _ = await service(throwing).suggest(transcript: Self.transcript)
        #expect(throwing.log.prompts.count == 1)
        let off = ScriptedAssistantModel(answers: [#"{"keywords": ["rocket"], "titles": ["Alpha rocket"], "emoji": "🚀"}"#])
        _ = await service(off, options: AssistantOptions(retryJitter: 0, repairs: false)).suggest(transcript: Self.transcript)
        #expect(off.calls == 1)
    }

    // MARK: The file's model time bound and the retry policy

    @Test func theFileTimeLimitStopsRetriesAndSaysSo() async {
        let options = AssistantOptions(timeout: .seconds(20), maxAttempts: 3, retryJitter: 0, fileTimeLimit: .milliseconds(300))
        let result = await service(HangingModel(), options: options).suggest(transcript: Self.transcript)
        #expect(result.attempts == 1)
        #expect(result.cost.requests == 1)
        let reason = result.suggestions?.emoji.failureMessage ?? ""
        #expect(reason.contains("(`modelTimeLimit`)"))
        #expect(reason.contains("after 1 attempt"))
    }

    @Test func theRetryPolicyIsNamedWithItsPauses() {
        #expect(AssistantOptions(retryJitter: 0).retryPolicy
                == "a request that fails for a temporary reason (no answer in time, a refused, dropped or reset connection, "
                + "an answer cut short, HTTP 408, 429, 502, 503 or 504) is tried up to 3 times in all, with pauses of 2 s and 4 s, "
                + "or as long as the server asks in Retry-After up to 30 s (a server that asks for longer is not tried again)")
        #expect(AssistantOptions(maxAttempts: 4).retryPolicy.contains("up to 4 times in all, with pauses of about 2 s, 4 s and 8 s (each ±20 %)"))
        #expect(AssistantOptions(maxAttempts: 1).retryPolicy == "no retries")
    }

    // MARK: Cost

    @Test func theHTTPBackendReportsRequestsAndTokenUsage() async throws {
        let body = #"{"choices":[{"index":0,"message":{"role":"assistant","content":"{\"keywords\":[\"rocket\"],\"titles\":[\"Up the rocket goes\",\"Launch day\",\"Crew waits\"],\"emoji\":\"🚀\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":321,"completion_tokens":45,"total_tokens":366}}"#
        let server = try HTTPTestServer { _, _ in .respond(200, body) }
        defer { server.stop() }
        let configuration = try HTTPConfiguration(endpoint: server.endpoint, serverKind: .llamaCppPython, requestTimeout: 10)
        let model = HTTPAssistantModel(configuration: configuration)
        let result = await service(model).suggest(transcript: Self.transcript)
        #expect(result.error == nil)
        #expect(result.cost.requests == 1)
        #expect(result.cost.promptTokens == 321)
        #expect(result.cost.completionTokens == 45)
        #expect(result.cost.seconds > 0)
    }
}
