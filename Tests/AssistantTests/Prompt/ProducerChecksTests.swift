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
        for fine in ["Rocket Launch at Dawn", "潮だまりの小さな世界", "Einstein", "One two three four five six seven"] {
            #expect(fine.wholeMatch(of: regex) != nil, "\(fine)")
        }
        for refused in ["One two three four five six seven eight", " Leading space", "Two  spaces", "… (1)", "- dash", "{\"json\""] {
            #expect(refused.wholeMatch(of: regex) == nil, "\(refused)")
        }
    }

    /// With words of the transcript to name it by, every title the schema
    /// allows carries one of them (the check `TitleGround` makes afterwards)
    /// among its first three words and has two to seven words; a transcript in
    /// a script written without spaces, or one offering too few words, keeps
    /// the plain word pattern.
    @Test func titlesCarryAWordOfTheTranscriptWhenItOffersSome() throws {
        let transcript = """
            Every winter, humpback whales travel thousands of kilometres to the lagoons of Baja.
            The whales give birth in the warm, shallow lagoons. Calves stay near their mothers.
            """
        let prompt = PromptBuilder().build(transcript: transcript)
        let anchors = HTTPChatRequest.titleAnchors(prompt.schema.keywords)
        #expect(anchors.contains("whales") && anchors.contains("lagoons"))
        #expect(!anchors.contains { $0.contains(" ") })
        let pattern = HTTPChatRequest.titlePattern(anchors: anchors)
        let regex = try Regex(pattern)
        for fine in ["Humpback Whales", "Whalesong Nights Below", "Whales of Baja", "Where the Whales Go", "The Lagoons' Calves",
                     "A Winter With the Whales of Baja", "Mothers and Calves"] {
            #expect(fine.wholeMatch(of: regex) != nil, "\(fine)")
        }
        for refused in ["A Tale of Two Cities", "Whales", "Lagoons", "1895 2014",
                        "One two three four five six whales eight", "One two three Whales", "- Whales of Baja", "Whales  of Baja", "Whaling Nights Below"] {
            #expect(refused.wholeMatch(of: regex) == nil, "\(refused)")
        }
        // The schema sends it; a title it allows passes TitleGround.
        let schema = HTTPChatRequest.answerSchema(prompt.schema).oneLine(spaced: false)
        #expect(schema.contains("[wW]hales"))
        #expect(TitleGround(transcript: transcript).flaw("Where the Whales Go") == nil)

        // Japanese: no anchors, the plain pattern (one word allowed).
        let japanese = PromptBuilder().build(transcript: "こんにちは、京都からお届けします。今日は金閣寺に来ました。秋の紅葉がとてもきれいです。")
        #expect(HTTPChatRequest.titleAnchors(japanese.schema.keywords).isEmpty)
        #expect(HTTPChatRequest.titlePattern(anchors: []) == HTTPChatRequest.titlePattern)
        // Too few words to bind every title to.
        #expect(HTTPChatRequest.titleAnchors(["rocket", "launch"]).isEmpty)
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
