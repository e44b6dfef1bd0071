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

    /// Nothing is checked against a transcript of no words.
    @Test func anEmptyTranscriptChecksNothing() {
        #expect(TitleGround(transcript: " \n").flaw("follsti llyth") == nil)
    }

    /// Scripts written without spaces are checked by the words ICU's dictionary cuts them into: SmolLM2-135M's
    /// Japanese titles (a measured run, the bench's Kyoto transcript) of katakana and kanji of no sense share none
    /// of the transcript's words, a real headline shares a place or a kanji word; particles in Hiragana
    /// (に, します, の) and one kanji alone ground nothing.
    @Test func japaneseTitlesAreCheckedByDictionaryWords() {
        let kyoto = TitleGround(transcript: "こんにちは、京都からお届けします。\n今日は金閣寺に来ました。\n秋の紅葉がとてもきれいです。\nこのあと、嵐山の竹林に行きます。")
        #expect(kyoto.flaw("ハンティック・バールデアを漸にします。") == "shares no word with the captions")
        #expect(kyoto.flaw("各地上屠ボールを殏陽したけど") == "shares no word with the captions")
        #expect(kyoto.flaw("にしますの") == "shares no word with the captions")
        #expect(kyoto.flaw("秋の京都を歩く") == nil)
        #expect(kyoto.flaw("金閣寺と嵐山の紅葉") == nil)
        #expect(!TitleGround.isContentWord("します"))
        #expect(TitleGround.isContentWord("京都") && !TitleGround.isContentWord("秋"))
        #expect(TitleGround.isContentWord("バールデア"))
        let launch = TitleGround(transcript: "ロケットの打ち上げは明日です。")
        #expect(launch.flaw("ロケット打ち上げの日") == nil)
        #expect(launch.flaw("バアラーホロット") == "shares no word with the captions")
    }

    /// Chinese and Thai by their dictionary words; Korean by a word's first two syllables (its particles differ).
    @Test func chineseThaiAndKoreanTitlesAreChecked() {
        let rocket = TitleGround(transcript: "火箭发射推迟了两次，因为天气不好。")
        #expect(rocket.flaw("火箭发射的一天") == nil)
        #expect(rocket.flaw("美丽的花园") == "shares no word with the captions")
        #expect(TitleGround(transcript: "我们的火箭").flaw("美丽的花园") == "shares no word with the captions")  // 的 alone grounds nothing
        let thai = TitleGround(transcript: "วันนี้เราจะไปตลาดน้ำที่กรุงเทพ")
        #expect(thai.flaw("ตลาดน้ำกรุงเทพ") == nil)
        let seoul = TitleGround(transcript: "서울은 오늘 비가 많이 옵니다. 서울에서 축제가 열립니다.")
        #expect(seoul.flaw("서울의 축제") == nil)
        #expect(seoul.flaw("바다와 산") == "shares no word with the captions")
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
