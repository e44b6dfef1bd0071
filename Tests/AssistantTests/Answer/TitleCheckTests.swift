import Testing
@testable import Assistant

/// Titles a producer could publish: the kinds of title the issue's measured
/// runs "applied" (two small models on public caption files) are refused
/// with a reason, and ordinary headlines in several languages pass.
@Suite struct TitleCheckTests {
    @Test(arguments: [
        // Cut where a bound ran out, mid-clause or mid-word.
        ("Each pool is a small world, a", "en", "ends mid-clause (with “a”)"),
        ("Einstein was a young man with a", "en", "ends mid-clause (with “a”)"),
        ("The story of rockets and", "en", "ends mid-clause (with “and”)"),
        ("A small world,", "en", "ends mid-clause (“,”)"),
        ("The secret of the tide:", "en", "ends mid-clause (“:”)"),
        ("Why it matters and It'", "en", "ends mid-clause (“'”)"),
        ("Rockets and 2-", "en", "ends mid-clause (“-”)"),
        ("Le secret des", "fr", "ends mid-clause (with “des”)"),
        ("La historia de la", "es", "ends mid-clause (with “la”)"),
        // Loops.
        ("this will happen is this will happen", "en", "repeats “this will”"),
        ("Rocket rocket rocket", "en", "repeats “rocket”"),
        // Garbage.
        (");.J'ai vu", "fr", "starts with punctuation"),
        ("- I'm not", "en", "starts with punctuation"),
        ("1984 2001 2024 3000", "en", "has too few letters for a title"),
        ("X9 #4 ## 77", "en", "has too few letters for a title"),
        // Speaker labels and descriptions.
        ("WOMAN: The tide pools", "en", "starts with a speaker label (WOMAN:)"),
        (">> EINSTEIN: Relativity", "en", "starts with a speaker label (EINSTEIN:)"),
        ("Rockets [MUSIC PLAYING]", "en", "holds a sound or music description ([MUSIC PLAYING])"),
        // The prompt's placeholder and JSON debris.
        ("… (1), … (2)", "en", "holds the prompt's placeholder (…)"),
        ("emoji: rocket launch", "en", "holds JSON syntax (emoji:)"),
        ("Launch {\"titles\"", "en", "holds JSON syntax ({)"),
        // Run-on.
        ("The day the rocket finally left the pad at dawn", "en", "has more than 7 words"),
        // What SmolLM2-135M wrote inside a grammar that asks for a transcript word in every title.
        ("300 of us lost their jobs.”,“Situation”,“Cana Loomshop”,“19", "en", "holds list syntax (”,“)"),
        ("Relativity of Speed and Time”, 1905, thoughtening,“A", "en", "holds list syntax (,“)"),
        ("Einstein and the “Miracle Year", "en", "has an unclosed quotation"),
        ("“The Future of Japan”: “Tokyo”", "en", "holds list syntax (”: “)"),
        ("Mating Season ””Whales", "en", "holds list syntax (””)"),
        ("britannia (Brittannia), France, 2020-2024 (Bretons de lait", "fr", "has an unclosed bracket"),
        ("improved to 18.5%, growing in-quarters,&quited", "en", "runs words together (“,&”)"),
        ("The first prototype was,uhn,no-idea", "en", "runs words together (“,u”)"),
        ("Riverside Stadium 1895023476.JPG Northfield", "en", "holds a number of 7 or more digits"),
        ("The river rose four meters.Theres more", "en", "runs words together (“.T”)"),
        ("The gym is closed tothecommunity.&nearly", "en", "runs words together (“.&”)"),
        ("Insulin is a hormone that helps move...", "en", "ends mid-sentence (“..”)"),
        ("Diabetes is a condition that occurs when..", "en", "ends mid-sentence (“..”)"),
        // What SmolLM2-135M wrote when asked for five titles: it numbered them.
        ("2. ハアの嵐山", "ja", "starts with a list number (2.)"),
        ("12) The Rocket Team", "en", "starts with a list number (12))"),
    ])
    func unpublishableTitlesAreRefused(_ title: String, _ language: String, _ reason: String) {
        #expect(TitleCheck.flaw(title, language: language) == reason)
    }

    @Test(arguments: [
        ("Einstein: A Life", "en"),
        ("What Dreams Are Made Of?", "en"),
        ("Plan A", "en"),
        ("Vitamin C and Your Health", "en"),
        ("“Hope” Returns to the Coast", "en"),
        ("¿Quién mató al comandante?", "es"),
        ("Le risotto aux champignons", "fr"),
        ("Die Reise zum Mond", "de"),
        ("Rocket Launch at Dawn", "en"),
        ("潮だまりの小さな世界", "ja"),
        ("Step by Step", "en"),
        ("Life in the Tide Pools", nil as String?),
        ("“Boil,” He Said", "en"),
        ("“Yes”, “No” and “Maybe”", "en"),
        ("1,000 Days Across the Sea (2019)", "en"),
        ("Apollo 11: 240,000 Miles", "en"),
        ("« La Seine » au matin", "fr"),
        ("Type 2 Diabetes, Explained.", "en"),
        ("Node.js in the U.S.A. Today", "en"),
        ("Growth of 18.5% in Q3", "en"),
        ("1984: The Year of the Rocket", "en"),
        ("3 Ways to Cook Rice", "en"),
        ("2.5 Million Viewers", "en"),
        ("100. Geburtstag der Oma", "de"),
    ] as [(String, String?)])
    func publishableTitlesPass(_ title: String, _ language: String?) {
        #expect(TitleCheck.flaw(title, language: language) == nil, "\(title)")
    }

    /// The decoder refuses such titles with the reason, and the repair note names them.
    @Test func theDecoderRefusesThemWithTheReason() {
        let transcript = "The rocket left the pad at dawn.\nThe crew waved to the crowd below."
        let answer = #"{"keywords": ["rocket"], "titles": ["WOMAN: A rocket at dawn", "The crew waved to the", "Rocket at Dawn"], "emoji": "🚀"}"#
        let result = SuggestionDecoder().decode(answer, transcript: transcript)
        #expect(result.titles.failureMessage == "The model gave 1 usable title; exactly three are needed. Not usable: “WOMAN: A rocket at dawn” starts with a speaker label (WOMAN:); “The crew waved to the” ends mid-clause (with “the”).")
        #expect(result.usableTitles == ["Rocket at Dawn"])
        // What the repair request tells the model: the kinds, without the titles or the words quoted from them.
        #expect(result.refusedTitleKinds == ["starts with a speaker label", "ends mid-clause"])
    }

    /// A refusal's kind is its reason without the title's own words.
    @Test(arguments: [
        ("ends mid-clause (with “in”)", "ends mid-clause"),
        ("repeats “this will”", "repeats words"),
        ("holds a word of neither the captions nor the en dictionary (“Nordem”)", "holds a word of neither the captions nor the en dictionary"),
        ("runs words together (“was,uhn”)", "runs words together"),
        ("shares no word with the captions", "shares no word with the captions"),
        ("copies a caption line", "copies a caption line"),
    ])
    func aRefusalsKindLeavesTheTitlesWordsOut(flaw: String, kind: String) {
        #expect(SuggestionDecoder.refusalKind(flaw) == kind)
    }

    /// A list the model numbered (`1. `, `2. ` at the first and second place) is read without its numbers, and a
    /// warning says so; one title that starts with a number followed by a full stop is left as written, and refused.
    @Test func aNumberedListIsReadWithoutItsNumbers() {
        let transcript = "Type 2 diabetes happens when the body cannot use insulin.\nHigh blood sugar damages the heart.\nExercise and diet help."
        let numbered = #"{"titles": ["1. Diabetes: The Hidden Epidemic", "2. How to Manage High Blood Sugar", "3) Exercise Against Diabetes", "4. Diet and Insulin", "Blood Sugar Basics"]}"#
        let result = SuggestionDecoder().decode(numbered, transcript: transcript)
        #expect(result.titles == .applied(["Diabetes: The Hidden Epidemic", "How to Manage High Blood Sugar", "Exercise Against Diabetes"]))
        #expect(result.usableTitles.count == 5)
        #expect(result.warnings.contains("The model numbered its titles (4 of them: 1., 2., …); the numbers were left out."))
        // Numbers that are not the titles' places in the list, or only one numbered title: no list, refused as before.
        let lone = #"{"titles": ["1. Diabetes: The Hidden Epidemic", "How to Manage High Blood Sugar", "Exercise Against Diabetes"]}"#
        let one = SuggestionDecoder().decode(lone, transcript: transcript)
        #expect(one.usableTitles == ["How to Manage High Blood Sugar", "Exercise Against Diabetes"])
        #expect(one.titles.failureMessage?.contains("“1. Diabetes: The Hidden Epidemic” starts with a list number (1.)") == true)
        let shifted = #"{"titles": ["2. Diabetes: The Hidden Epidemic", "3. How to Manage High Blood Sugar", "Exercise Against Diabetes"]}"#
        #expect(SuggestionDecoder().decode(shifted, transcript: transcript).usableTitles == ["Exercise Against Diabetes"])
    }

    /// The language is the transcript's: a French transcript's title ending in "des" is refused, an English one's "Des Moines" is not.
    @Test func theTranscriptsLanguagePicksTheEndWords() {
        let french = "Je suis allé au marché avec mes amis. Nous avons acheté des légumes et du pain pour le dîner."
        let english = "We drove to the city and the weather was fine. They said it was the best trip of the year."
        let decoder = SuggestionDecoder(groundsTitles: false)  // the end words alone, not the words shared (TitleGroundTests)
        let answer = #"{"keywords": ["marché"], "titles": ["Un marché des", "Road Trip to Des Moines", "Légumes du marché"], "emoji": "🚗"}"#
        #expect(decoder.decode(answer, transcript: french).usableTitles == ["Road Trip to Des Moines", "Légumes du marché"])
        #expect(decoder.decode(answer, transcript: english).usableTitles == ["Un marché des", "Road Trip to Des Moines", "Légumes du marché"])
    }
}
