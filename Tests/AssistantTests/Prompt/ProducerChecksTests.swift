import JSON
import Testing
import TestSupport
@testable import Assistant

/// What a producer would publish: keyword candidates leave out stop words in
/// any letter case and web addresses, the schema's keyword count is the
/// prompt's, titles are bounded in words, and each field's reason is that of
/// the answer it was finally taken from or refused in.
@Suite struct ProducerChecksTests {
    func service(_ model: any AssistantModel) -> AssistantService {
        AssistantService(backendName: "test", model: model, availability: FixedAvailability(.available),
                         options: AssistantOptions(retryJitter: 0), clock: ManualWaitClock())
    }

    /// An all-caps French transcript (as 608-style captions write one) with a site credit's address.
    @Test func candidatesLeaveOutStopWordsInAnyCaseAndAddresses() {
        let transcript = """
            JE SUIS ALLÉ AU MARCHÉ AVEC LES ENFANTS ET DES AMIS.
            QUI VEUT DU RISOTTO AUX CHAMPIGNONS ? LE RISOTTO EST PRÊT.
            Visit www.AllSubs.org or AllSubs.org for more
            """
        let candidates = KeywordCandidates.from(transcript)
        for stop in ["SUIS", "DES", "LES", "ET", "QUI", "AU", "AVEC", "EST"] { #expect(!candidates.contains(stop), "\(stop)") }
        #expect(!candidates.contains { $0.lowercased().contains("allsubs") })
        #expect(candidates.first == "RISOTTO")
        #expect(candidates.contains("CHAMPIGNONS") && candidates.contains("MARCHÉ"))
        // Acronyms that are no stop word stay.
        #expect(KeywordCandidates.from("NASA and the ESA launched it. NASA again.").contains("NASA"))
    }

    @Test func theSchemasKeywordCountIsThePrompts() throws {
        #expect(PromptBuilder.instructions.contains("\"keywords\": up to \(AnswerSchema.maximumKeywords) important words"))
        let prompt = PromptBuilder().build(transcript: "The rocket launch was delayed. The rocket crew waited. Launch fans cheered the crew.")
        let schema = HTTPChatRequest.answerSchema(prompt.schema)
        guard case .object(let top) = schema, case .object(let properties)? = top.first(where: { $0.0 == "properties" })?.1,
              case .object(let keywords)? = properties.first(where: { $0.0 == "keywords" })?.1 else {
            Issue.record("no keywords schema")
            return
        }
        let bound = { (key: String) -> JSONValue? in keywords.first(where: { $0.0 == key })?.1 }
        #expect(bound("minItems") == .int(1))
        #expect(bound("maxItems") == .int(AnswerSchema.maximumKeywords))
    }

    /// Titles are bounded in words by a pattern; no character count is sent
    /// that a grammar would enforce by cutting.
    @Test func titlesAreBoundedInWordsNotCharacters() throws {
        let schema = HTTPChatRequest.answerSchema(AnswerSchema(keywords: ["rocket"]))
        let text = schema.oneLine(spaced: false)
        #expect(!text.contains("\"maxLength\":60") && !text.contains("\"minLength\":8"))
        let regex = try Regex(HTTPChatRequest.titlePattern)
        for fine in ["Rocket Launch at Dawn", "潮だまりの小さな世界", "Einstein", "One two three four five six seven", "« La Seine » au matin",
                     "Dunbar’s Compendium"] {
            #expect(fine.wholeMatch(of: regex) != nil, "\(fine)")
        }
        for refused in ["One two three four five six seven eight", " Leading space", "Two  spaces", "… (1)", "- dash", "{\"json\"",
                        "Austerleys”, “Tennis Factory”", "“Hope” Returns"] {
            #expect(refused.wholeMatch(of: regex) == nil, "\(refused)")
        }
    }

    /// A transcript written with spaces gets titles of two to seven words (the
    /// prompt's bound); one in Japanese keeps the pattern that allows one word.
    @Test func titlesHaveTwoWordsAtLeastInScriptsWrittenWithSpaces() throws {
        let transcript = """
            Every winter, humpback whales travel thousands of kilometres to the lagoons of Baja.
            The whales give birth in the warm, shallow lagoons. Calves stay near their mothers.
            """
        let prompt = PromptBuilder().build(transcript: transcript)
        #expect(HTTPChatRequest.isWrittenWithSpaces(prompt.schema.keywords))
        let pattern = HTTPChatRequest.titlePattern(twoWordsAtLeast: true)
        #expect(HTTPChatRequest.answerSchema(prompt.schema).oneLine(spaced: false).contains(Self.jsonString(pattern)))
        let regex = try Regex(pattern)
        for fine in ["Humpback Whales", "Where the Whales Go", "A Winter With the Whales of Baja"] {
            #expect(fine.wholeMatch(of: regex) != nil, "\(fine)")
        }
        for refused in ["Whales", "Lagoons", "One two three four five six seven eight", "- Whales of Baja", "Whales  of Baja"] {
            #expect(refused.wholeMatch(of: regex) == nil, "\(refused)")
        }
        // Japanese: the one-word pattern.
        let japanese = PromptBuilder().build(transcript: "こんにちは、京都からお届けします。今日は金閣寺に来ました。秋の紅葉がとてもきれいです。")
        #expect(!HTTPChatRequest.isWrittenWithSpaces(japanese.schema.keywords))
        #expect(HTTPChatRequest.answerSchema(japanese.schema).oneLine(spaced: false).contains(Self.jsonString(HTTPChatRequest.titlePattern)))
        #expect("秋の紅葉".wholeMatch(of: try Regex(HTTPChatRequest.titlePattern)) != nil)
    }

    /// `text` as a JSON string's content (escaped as the schema writes it).
    static func jsonString(_ text: String) -> String {
        let quoted = JSONValue.string(text).oneLine(spaced: false)
        return String(quoted.dropFirst().dropLast())
    }

    /// A repair asks for the unusable fields only: its schema and its note
    /// name them alone, and the usable fields of the first answer stand.
    @Test func aRepairAsksForTheUnusableFieldsOnly() async throws {
        let transcript = "The rocket launch was delayed. The rocket crew waited, and the launch window closed. Fans cheered anyway."
        let first = #"{"keywords": ["rocket"], "titles": ["A Tale of Two Cities", "Rocket at Dawn", "The Launch That Waited"], "emoji": "🚀"}"#
        let second = #"{"titles": ["Rocket at Dawn", "The Launch That Waited", "Fans of the Rocket Crew"]}"#
        let model = ScriptedAssistantModel(answers: [first, second])
        let result = await service(model).suggest(transcript: transcript)
        let suggestions = try #require(result.suggestions)
        #expect(model.calls == 2)
        #expect(suggestions.keywords == .applied(["rocket"]) && suggestions.emoji == .applied("🚀"))
        #expect(suggestions.titles == .applied(["Rocket at Dawn", "The Launch That Waited", "Fans of the Rocket Crew"]))
        let repair = try #require(model.log.received.last)
        #expect(repair.isRepair && repair.schema.fields == [.titles])
        // The note says what the titles were refused for, by kind, never the refused titles (a small model writes them
        // again), and names important words of the transcript (the candidates' most frequent); the report quotes them.
        #expect(repair.request.hasSuffix("""
            Your previous answer could not be used: "titles": 2 of your titles were usable and 3 are needed; 1 was refused: \
            shares no word with the captions (1). Answer again with a JSON object holding only "titles" (5 new titles, each a \
            headline of 2 to 7 words that names the topic with an important word of the transcript such as “rocket”, “launch” \
            or “delayed”).
            """))
        #expect(!repair.request.contains("Two Cities"))
        let schema = HTTPChatRequest.answerSchema(repair.schema).oneLine(spaced: false)
        #expect(schema.contains(#""required":["titles"]"#) && !schema.contains(#""keywords":"#) && !schema.contains(#""emoji":"#))
        // The first request asked for all three.
        #expect(model.log.received.first?.schema.fields == Set(AssistantAction.allCases))
        // Two unusable fields: both are asked for, in the answer's order.
        let both = AssistantService.repairPrompt(try #require(model.log.received.first),
                                                 Suggestions(keywords: .failed("no keyword"), titles: .failed("no title"), emoji: .applied("🚀")))
        #expect(both?.schema.fields == [.keywords, .titles])
        #expect(both?.request.hasSuffix("""
            Your previous answer could not be used: "keywords": no keyword "titles": no title Answer again with a JSON object \
            holding only "keywords" (copied exactly from the transcript) and "titles" (5 new titles, each a headline of 2 to \
            7 words that names the topic with an important word of the transcript such as “rocket”, “launch” or “delayed”).
            """) == true)
    }

    /// A field whose repairs do not help stops being repaired in the run (`RepairHistory`): after four repair
    /// requests for titles of which none made them usable, a file's refused titles are not asked for again, and
    /// the reason says why; a model whose repairs work keeps being asked.
    @Test func aRepairThatDoesNotHelpStopsBeingSent() async throws {
        let transcript = "The rocket launch was delayed. The rocket crew waited, and the launch window closed. Fans cheered anyway."
        let bad = #"{"keywords": ["rocket"], "titles": ["Rocket at Dawn", "The Launch That Waited", "Lights Out Tonight", "Frozen Tuna", "Rainy Days"], "emoji": "🚀"}"#
        let good = #"{"titles": ["Rocket at Dawn", "The Launch That Waited", "Fans of the Rocket Crew"]}"#
        let hopeless = ScriptedAssistantModel(answers: [bad])
        let run = service(hopeless)
        for file in 1...RepairHistory.trial {
            let result = await run.suggest(transcript: transcript)
            #expect(hopeless.calls == file * 2 && result.cost.requests == 2)
            #expect(result.suggestions?.titles.failureMessage?.contains("Not asked again") == false)
        }
        let fifth = await run.suggest(transcript: transcript)
        #expect(hopeless.calls == RepairHistory.trial * 2 + 1 && fifth.cost.requests == 1)
        let reason = try #require(fifth.suggestions?.titles.failureMessage)
        #expect(reason.hasSuffix("Not asked again: 0 of this run's 4 repair requests for it gave a usable answer (a field is repaired while at least 1 in 4 does)."), "\(reason)")
        #expect(fifth.suggestions?.keywords == .applied(["rocket"]))
        // Another run starts afresh; a model whose repairs work is repaired on every file.
        let working = ScriptedAssistantModel(answers: Array(repeating: [bad, good], count: 6).flatMap { $0 })
        let other = service(working)
        for _ in 1...6 {
            let result = await other.suggest(transcript: transcript)
            #expect(result.suggestions?.titles == .applied(["Rocket at Dawn", "The Launch That Waited", "Fans of the Rocket Crew"]))
        }
        #expect(working.calls == 12)
    }

    /// Refused titles with fewer than two usable are not repaired (one more is what a repair brings, seldom
    /// two or three), and the reason says so; two usable are; an answer with no titles list at all is.
    @Test func titlesFarFromUsableAreNotRepaired() async throws {
        let transcript = "The rocket launch was delayed. The rocket crew waited, and the launch window closed. Fans cheered anyway."
        let far = #"{"keywords": ["rocket"], "titles": ["Rocket at Dawn", "Lights Out Tonight", "Frozen Tuna", "Rainy Days", "A Tale of Two Cities"], "emoji": "🚀"}"#
        let good = #"{"titles": ["The Launch That Waited", "Fans of the Rocket Crew", "Rocket Crew on Hold"]}"#
        let model = ScriptedAssistantModel(answers: [far, good])
        let result = await service(model).suggest(transcript: transcript)
        #expect(model.calls == 1 && result.cost.requests == 1)
        let reason = try #require(result.suggestions?.titles.failureMessage)
        #expect(reason.hasPrefix("The model gave 1 usable title; exactly three are needed. Not usable: “Lights Out Tonight”"), "\(reason)")
        #expect(reason.hasSuffix("Not repaired: 1 usable title came back, and titles are repaired only when one more is needed."), "\(reason)")
        #expect(result.suggestions?.keywords == .applied(["rocket"]))
        // No titles list: asked for again.
        let missing = ScriptedAssistantModel(answers: [#"{"keywords": ["rocket"], "emoji": "🚀"}"#, good])
        let repaired = await service(missing).suggest(transcript: transcript)
        #expect(missing.calls == 2)
        #expect(repaired.suggestions?.titles == .applied(["The Launch That Waited", "Fans of the Rocket Crew", "Rocket Crew on Hold"]))
    }

    /// When the first answer held no JSON and the repair gave two fields,
    /// the third's reason is the repair's, not the first answer's.
    @Test func aFieldsReasonIsThatOfTheAnswerItWasRefusedIn() async throws {
        let first = "Sure! Here are some ideas for your video."
        let second = #"{"keywords": ["rocket"], "titles": ["Rocket at Dawn", "The Long Wait", "WOMAN: Fans cheer"], "emoji": "🚀"}"#
        let model = ScriptedAssistantModel(answers: [first, second])
        let transcript = "The rocket launch was delayed. The rocket crew waited, and the launch window closed. Fans cheered anyway."
        let result = await service(model).suggest(transcript: transcript)
        let suggestions = try #require(result.suggestions)
        #expect(model.calls == 2)
        #expect(suggestions.keywords == .applied(["rocket"]) && suggestions.emoji == .applied("🚀"))
        let reason = try #require(suggestions.titles.failureMessage)
        #expect(reason.contains("starts with a speaker label (WOMAN:)"))
        #expect(!reason.contains("holds no JSON object"))
        #expect(suggestions.answerError == nil && result.error == nil)
    }
}
