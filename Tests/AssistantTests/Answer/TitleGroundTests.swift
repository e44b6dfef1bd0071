import Testing
@testable import Assistant

/// A title shares a word with the captions it names (`TitleGround`).
@Suite struct TitleGroundTests {
    static let transcript = """
        The launch was delayed twice because of the weather over the coast.
        Engineers checked the guidance computer before the crew walked to the rocket.
        At the café nearby, owners expected a crowd for the liftoff.
        """
    let ground = TitleGround(transcript: Self.transcript)

    /// Titles a 135M model's answer had applied (the README's recipe, a public documentary): letters of no
    /// language pass every form rule; they share no word with what was said.
    @Test(arguments: ["follsti llyth", "toil yllysh", "Qorvex Tampil Dune", "What Is It All About"])
    func titlesOfNoWordOfTheCaptionsAreRefused(title: String) {
        #expect(ground.flaw(title) == "shares no word with the captions")
    }

    /// One word is enough, by its stem, in any letter case and with or without diacritics.
    @Test(arguments: ["Launch Day Delayed Again", "ROCKETS AND WEATHER", "Cafe Owners Wait", "Delays at the Coast",
                      "The Engineers' Long Night"])
    func aTitleSharingAStemIsKept(title: String) {
        #expect(ground.flaw(title) == nil)
    }

    /// Stop words and words under three characters ground nothing: "The Day of It" shares "the" and "of" only.
    @Test func stopWordsAndShortWordsGroundNothing() {
        #expect(!TitleGround.isContentWord("the"))
        #expect(!TitleGround.isContentWord("of"))
        #expect(TitleGround.isContentWord("pad"))
        #expect(ground.flaw("Over the Top of It") == "shares no word with the captions")
    }

    /// Scripts written without spaces are not checked (the word rule cannot pair their words), nor is anything
    /// against a transcript of no words.
    @Test func unspacedScriptsAndEmptyTranscriptsAreNotChecked() {
        #expect(ground.flaw("ロケットの打ち上げ") == nil)
        #expect(ground.flaw("火箭发射") == nil)
        #expect(ground.flaw("로켓 발사") == nil)
        #expect(TitleGround(transcript: " \n").flaw("follsti llyth") == nil)
    }

    /// Through the decoder: the refused title is named with the reason, and the fake's fixed titles (a test
    /// double of the plumbing, about no transcript) are not checked when the decoder is told so.
    @Test func theDecoderRefusesAndNamesIt() {
        let answer = #"{"keywords": ["rocket"], "titles": ["follsti llyth", "Rocket Day Delayed", "Stormy Coast Weather", "Engineers Check the Guidance"], "emoji": "🚀"}"#
        let result = SuggestionDecoder().decode(answer, transcript: Self.transcript)
        #expect(result.titles == .applied(["Rocket Day Delayed", "Stormy Coast Weather", "Engineers Check the Guidance"]))
        #expect(result.warnings.contains("Not usable: “follsti llyth” shares no word with the captions."), "\(result.warnings)")
        let fake = SuggestionDecoder.answer(keywords: ["rocket"], titles: FakeAssistantModel.titles, emoji: "🎬")
        #expect(SuggestionDecoder().decode(fake, transcript: Self.transcript).titles.value == nil)
        #expect(SuggestionDecoder(groundsTitles: false).decode(fake, transcript: Self.transcript).titles.value == FakeAssistantModel.titles)
    }
}
