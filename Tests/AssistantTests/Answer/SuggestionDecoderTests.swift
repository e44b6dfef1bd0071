import Testing
@testable import Assistant

@Suite struct SuggestionDecoderTests {
    static let transcript = """
        Welcome back to the launch pad. Today the rocket team said the AI guidance \
        computer passed every check. The launch window opens at dawn, and the crew \
        is ready. Café owners nearby expect a crowd.
        """
    let decoder = SuggestionDecoder()

    func decode(_ answer: String) -> Suggestions { decoder.decode(answer, transcript: Self.transcript) }

    @Test func aFencedAnswerIsFoundAndApplied() {
        let answer = """
            ```json
            {
              "keywords": ["launch", "rocket", "guidance computer"],
              "titles": ["Countdown at Dawn", "The Rocket Team Is Ready", "Launch Day"],
              "emoji": "🚀"
            }
            ```
            """
        let result = decode(answer)
        #expect(result.keywords == .applied(["launch", "rocket", "guidance computer"]))
        #expect(result.titles == .applied(["Countdown at Dawn", "The Rocket Team Is Ready", "Launch Day"]))
        #expect(result.emoji == .applied("🚀"))
        #expect(result.warnings.isEmpty)
        #expect(result.droppedKeywords.isEmpty)
        #expect(result.answerError == nil)
    }

    /// Given only the transcript's start (`TranscriptPart`), a keyword
    /// further on is still a word of the captions: the whole text is made for
    /// it, and only then (never for keywords the start holds).
    @Test func aKeywordAfterTheStartIsLookedForInTheWholeTranscript() {
        let start = "Welcome back to the launch pad.\n"
        let whole = start + Self.transcript
        let answer = #"{"keywords": ["launch", "crew", "submarine"], "titles": ["A", "B", "C"], "emoji": "🚀"}"#
        final class Count: @unchecked Sendable { var made = 0 }
        let count = Count()
        let result = decoder.decode(answer, transcript: start, whole: { count.made += 1; return whole })
        #expect(result.keywords == .applied(["launch", "crew"]))
        #expect(result.droppedKeywords == [DroppedKeyword(keyword: "submarine", reason: "not in the transcript")])
        #expect(count.made == 1)
        _ = decoder.decode(#"{"keywords": ["launch", "pad"], "titles": ["A", "B", "C"], "emoji": "🚀"}"#, transcript: start,
                           whole: { count.made += 1; return whole })
        #expect(count.made == 1)
    }

    @Test func proseAroundTheJSONIsIgnored() {
        let answer = """
            Sure! Here are my suggestions for your video {as requested}:
            {"keywords": ["crew", "dawn"], "titles": ["Alpha launch", "B {not a brace}", "C \\"quoted\\" crew"], "emoji": "🌅"}
            Let me know if you want more options.
            """
        let result = decode(answer)
        #expect(result.keywords == .applied(["crew", "dawn"]))
        // The brace inside a string does not end the object; as a title it is JSON debris, refused.
        #expect(result.titles == .failed("The model gave 2 usable titles; exactly three are needed. Not usable: “B {not a brace}” holds JSON syntax ({)."))
        #expect(result.usableTitles == ["Alpha launch", "C \"quoted\" crew"])
        #expect(result.emoji == .applied("🌅"))
    }

    @Test func twoTitlesFailOnlyTheTitles() {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Launch Day", "  "], "emoji": "🚀"}"#)
        #expect(result.titles == .failed("The model gave 1 usable title; exactly three are needed."))
        #expect(result.keywords == .applied(["rocket"]))
        #expect(result.emoji == .applied("🚀"))
        #expect(result.warnings == ["1 empty or non-text title was ignored."])
        let two = decode(#"{"keywords": ["rocket"], "titles": ["Launch Day", "Dawn Patrol"], "emoji": "🚀"}"#)
        #expect(two.titles == .failed("The model gave 2 usable titles; exactly three are needed."))
    }

    @Test func repeatedTitlesAreNoAlternatives() {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Launch Day", "launch day", "Dawn Launch"], "emoji": "🚀"}"#)
        #expect(result.titles == .failed("The model gave 2 usable titles; exactly three are needed."))
        #expect(result.warnings == ["1 repeated title was ignored."])
        let four = decode(#"{"keywords": ["rocket"], "titles": ["Alpha launch", "Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀"}"#)
        #expect(four.titles == .applied(["Alpha launch", "Beta rocket", "Gamma crew"]))
    }

    /// Five titles are asked for (`AnswerSchema.titleCandidates`): the first
    /// three usable ones are kept, the refused ones named in a warning, and
    /// only more usable titles than were asked for are worth a warning.
    @Test func theFirstThreeUsableOfFiveTitlesAreKept() {
        let result = decode(#"{"keywords": ["rocket"], "titles": [" Launch one ", "Launch two", "Launch three", "Launch four", "Launch five"], "emoji": "🚀"}"#)
        #expect(result.titles == .applied(["Launch one", "Launch two", "Launch three"]))
        #expect(result.warnings.isEmpty)
        let refused = decode(#"{"keywords": ["rocket"], "titles": ["Rocket at dawn", "The rocket and the", "Rocket crew", "rocket rocket rocket rocket", "Launch of a rocket"], "emoji": "🚀"}"#)
        #expect(refused.titles == .applied(["Rocket at dawn", "Rocket crew", "Launch of a rocket"]))
        #expect(refused.warnings.count == 1)
        #expect(refused.warnings.first?.hasPrefix("Not usable: “The rocket and the” ends mid-clause") == true)
        let six = decode(#"{"keywords": ["rocket"], "titles": ["Launch one", "Launch two", "Launch three", "Launch four", "Launch five", "Launch six"], "emoji": "🚀"}"#)
        #expect(six.titles == .applied(["Launch one", "Launch two", "Launch three"]))
        #expect(six.warnings == ["The model gave 6 usable titles where 5 were asked for; the first three were kept."])
    }

    @Test func aKeywordNotInTheTranscriptIsDroppedWithItsReason() {
        let result = decode(#"{"keywords": ["rocket", "Mars", "ai", "sai"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀"}"#)
        #expect(result.keywords == .applied(["rocket", "ai"]))
        #expect(result.droppedKeywords == [
            DroppedKeyword(keyword: "Mars", reason: "not in the transcript"),
            DroppedKeyword(keyword: "sai", reason: "not in the transcript"),
        ])
    }

    @Test func markupKeywordsAreRejected() {
        let result = decode(#"{"keywords": ["<script>", "launch&", "{crew}"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀"}"#)
        #expect(result.keywords == .failed("No suggested keyword is usable: “<script>” (contains markup characters), “launch&” (contains markup characters), “{crew}” (contains markup characters)."))
        #expect(result.titles == .applied(["Alpha launch", "Beta rocket", "Gamma crew"]))
        #expect(result.emoji == .applied("🚀"))
    }

    /// A keyword that is not text is named in the report as the answer wrote it (compact JSON).
    @Test func nonTextKeywordsAreReportedAsTheAnswerWroteThem() {
        let result = decode(#"{"keywords": ["rocket", 1.5, -3, true, null, ["x", 2], {"a": "\u2028"}], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀"}"#)
        #expect(result.keywords == .applied(["rocket"]))
        #expect(result.droppedKeywords.map(\.keyword) == ["1.5", "-3", "true", "null", #"["x", 2]"#, #"{"a": "\u2028"}"#])
        #expect(result.droppedKeywords.allSatisfy { $0.reason == "not text" })
    }

    /// A key the answer repeats counts once, with its first value.
    @Test func aRepeatedKeyKeepsItsFirstValue() {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀", "emoji": "🎬"}"#)
        #expect(result.emoji == .applied("🚀"))
    }

    @Test func keywordsAreTrimmedUniqueAndCapped() {
        let many = (1...12).map { _ in "\"launch\"" }.joined(separator: ", ")
        let duplicates = decode(#"{"keywords": ["  Rocket ", "rocket", "ROCKET", "", 7, \#(many)], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀"}"#)
        #expect(duplicates.keywords == .applied(["Rocket", "launch"]))
        #expect(duplicates.droppedKeywords.first == DroppedKeyword(keyword: "rocket", reason: "duplicate"))
        #expect(duplicates.droppedKeywords.contains(DroppedKeyword(keyword: "", reason: "empty")))
        #expect(duplicates.droppedKeywords.contains(DroppedKeyword(keyword: "7", reason: "not text")))

        let words = ["Welcome", "back", "launch", "pad", "Today", "rocket", "team", "said", "guidance", "computer", "passed", "every"]
        let list = words.map { "\"\($0)\"" }.joined(separator: ", ")
        let capped = decode(#"{"keywords": [\#(list)], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀"}"#)
        #expect(capped.keywords == .applied(Array(words.prefix(10))))
        #expect(capped.droppedKeywords == [
            DroppedKeyword(keyword: "passed", reason: "more than 10 keywords"),
            DroppedKeyword(keyword: "every", reason: "more than 10 keywords"),
        ])
    }

    @Test func twoEmojiFailOnlyTheEmoji() {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀🎉"}"#)
        #expect(result.emoji == .failed("Expected exactly one emoji, got 2 characters: “🚀🎉”."))
        #expect(result.keywords == .applied(["rocket"]))
        #expect(result.titles == .applied(["Alpha launch", "Beta rocket", "Gamma crew"]))
    }

    @Test(arguments: ["🎬", "🇫🇷", "👨‍👩‍👧‍👦", "❤️", "👍🏽", "1️⃣", "🏳️‍🌈"])
    func singleEmojiGraphemesAreAccepted(emoji: String) {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": " \#(emoji) "}"#)
        #expect(result.emoji == .applied(emoji))
    }

    @Test(arguments: ["1", "#", "*", "A", "©", "❤", "🇫", "é"])
    func textThatIsNotAnEmojiIsRejected(text: String) {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "\#(text)"}"#)
        #expect(result.emoji == .failed("“\(text)” is not an emoji."))
    }

    @Test func anEmptyAnswerFailsEveryAction() {
        let result = decode("  \n ")
        #expect(result == .allFailed("The model returned an empty answer."))
        #expect(result.answerError == "The model returned an empty answer.")
    }

    /// An answer cut off by the token limit, and one in single-quoted pseudo-JSON.
    @Test(arguments: [
        #"Here you go: {"keywords": ["rocket"], "titles": ["A", "B""#,
        "{'keywords': ['rocket'], 'titles': ['A', 'B', 'C'], 'emoji': '🚀'}",
    ])
    func invalidJSONFailsEveryActionAndQuotesTheAnswer(answer: String) {
        let result = decode(answer)
        let message = "The model's answer holds no JSON object: “\(answer)”."
        #expect(result.keywords == .failed(message))
        #expect(result.titles == .failed(message))
        #expect(result.emoji == .failed(message))
        #expect(result.answerError == message)
    }

    @Test func aVeryLongAnswerIsQuotedShortened() throws {
        let answer = String(repeating: "no JSON here ", count: 40)
        let message = try #require(decode(answer).answerError)
        #expect(message.hasSuffix("…”."))
        #expect(message.count < 140)
    }

    @Test func missingAndMistypedFieldsFailTheirOwnAction() {
        let result = decode(#"{"keywords": "rocket", "titles": ["Alpha launch", "Beta rocket", "Gamma crew"]}"#)
        #expect(result.keywords == .failed("\"keywords\" in the answer is not a list."))
        #expect(result.titles == .applied(["Alpha launch", "Beta rocket", "Gamma crew"]))
        #expect(result.emoji == .failed("The answer has no \"emoji\"."))
        #expect(decode(#"{"keywords": [], "titles": 3, "emoji": 5}"#) == Suggestions(
            keywords: .failed("The model suggested no keywords."),
            titles: .failed("\"titles\" in the answer is not a list."),
            emoji: .failed("\"emoji\" in the answer is not text.")
        ))
    }

    @Test func theAnswerObjectWinsOverOtherObjects() {
        let answer = #"Schema: {"type": "object"} Answer: {"keywords": ["dawn"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🌅"}"#
        #expect(decode(answer).keywords == .applied(["dawn"]))
    }

    // MARK: Checked as if no schema had been sent

    /// A title is 8 to 60 characters after trimming, with no control
    /// characters, and no copy of a line the model was sent: the whole line,
    /// or a run of three or more of its words. One or two words of a line
    /// (the topic, named) are no copy.
    @Test func titlesAreCheckedAsIfNoSchemaHadBeenSent() {
        let transcript = "Welcome back to the launch pad.\nToday the rocket team said the AI guidance computer passed every check.\nPhotosynthesis!"
        let answer = #"{"keywords": ["rocket"], "titles": ["Short", "\#(String(repeating: "x", count: 61))", "Tab\tin a title", "Welcome back to the launch pad!", "the AI guidance computer", "“Photosynthesis”", "Countdown on the pad", "A rocket ready to fly"], "emoji": "🚀"}"#
        let result = decoder.decode(answer, transcript: transcript)
        #expect(result.titles == .failed("The model gave 2 usable titles; exactly three are needed. Not usable: “Short” is shorter than 8 characters; “\(String(repeating: "x", count: 61))” is longer than 60 characters; “Tab in a title” contains control characters or line breaks; “Welcome back to the launch pad!” copies a caption line; “the AI guidance computer” copies a caption line; ““Photosynthesis”” copies a caption line."))
        #expect(result.usableTitles == ["Countdown on the pad", "A rocket ready to fly"])
        // Words of two lines together, and two words of one line, are no copy; sixty characters are allowed.
        let sixty = "Rocket Countdown: Engineers Confident Before Tomorrow Launch"
        let fine = decoder.decode(#"{"keywords": ["rocket"], "titles": ["Launch pad today", "\#(sixty)", "Rocket team"], "emoji": "🚀"}"#, transcript: transcript)
        #expect(sixty.count == 60 && fine.titles == .applied(["Launch pad today", sixty, "Rocket team"]))
        // Compared with what the model was sent, when given (the prompt, our own notes included).
        let copied = #"{"keywords": ["rocket"], "titles": ["the AI guidance computer", "Launch pad today", "The model gave two titles"], "emoji": "🚀"}"#
        let sent = "Welcome back to the launch pad.\nYour answer could not be used: the model gave two titles."
        let judged = decoder.decode(copied, transcript: transcript, sent: sent)
        #expect(judged.usableTitles == ["the AI guidance computer", "Launch pad today"])
        // A line cut off mid-word at the length bound is a copy too; a title that only begins with a line's words is not.
        let cut = decoder.decode(#"{"keywords": ["rocket"], "titles": ["Today the rocket team said the AI guid", "The Rocket Team Is Ready", "Rocket team said hello"], "emoji": "🚀"}"#, transcript: transcript)
        #expect(cut.usableTitles == ["The Rocket Team Is Ready"])
        // Five words or more lifted across two cues are a copy; four or three across a cue boundary are not.
        let cues = "The good news is that lifestyle changes\ncan make a big difference.\nLaunch pad\ntoday"
        let lifted = decoder.decode(#"{"keywords": ["rocket"], "titles": ["The good news is that lifestyle changes can make a big diffe", "Lifestyle changes can make", "Launch pad today"], "emoji": "🚀"}"#, transcript: cues)
        #expect(lifted.usableTitles == ["Lifestyle changes can make", "Launch pad today"])
    }

    /// Titles of megabytes are refused by their size alone, before any check
    /// that reads them character by character: a huge title with a control
    /// character (and a keyword with markup) at its end is refused as too long,
    /// which only the size check can say first. Quoted shortened: a report
    /// never holds them.
    @Test func hugeFieldsAreRefusedByTheirSizeAlone() throws {
        let huge = String(repeating: "Ab cd ", count: 4_000_000)   // 23 MiB
        let answer = #"{"keywords": ["\#(huge)<b>", "rocket"], "titles": ["\#(huge)\t", "\#(huge)\u0001", "\#(huge)"], "emoji": "🇬🇧\#(huge)"}"#
        let result = decode(answer)
        let titles = try #require(result.titles.failureMessage)
        #expect(titles.hasPrefix("The model gave 0 usable titles; exactly three are needed. Not usable: “Ab cd Ab cd"))
        #expect(titles.components(separatedBy: " is longer than 60 characters").count == 4)
        #expect(titles.utf8.count < 1_000)
        #expect(result.keywords == .applied(["rocket"]))
        #expect(result.droppedKeywords.first?.reason == "longer than 100 characters")
        #expect((result.droppedKeywords.first?.keyword.utf8.count ?? .max) < 500)
        #expect(result.emoji.failureMessage?.hasPrefix("Expected exactly one emoji, got 24000008 bytes") == true)
    }

    /// Keywords are distinct as the word rule compares them: case and white space aside.
    @Test func repeatedKeywordsAreDroppedAsTheRuleComparesThem() {
        let result = decode(#"{"keywords": ["Launch Pad", "launch  pad", "LAUNCH\u2003PAD", "rocket", "Rocket"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "🚀"}"#)
        #expect(result.keywords == .applied(["Launch Pad", "rocket"]))
        #expect(result.droppedKeywords.map(\.reason) == ["duplicate", "duplicate", "duplicate"])
    }

    /// One RGI emoji: sequences of bounded length; never TAG characters outside
    /// a subdivision flag, never combining marks, never a component alone.
    @Test(arguments: [
        "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "👩🏽‍💻", "🧑‍🤝‍🧑", "👁️‍🗨️", "#️⃣", "🇺🇳", "☺️", "👩‍❤️‍💋‍👨",
    ])
    func rgiEmojiAreAccepted(emoji: String) {
        #expect(decode(#"{"keywords": ["rocket"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "\#(emoji)"}"#).emoji == .applied(emoji))
    }

    @Test(arguments: [
        "🏴\u{E0067}\u{E0062}\u{E0078}\u{E0078}\u{E0078}\u{E007F}",        // a subdivision that is not RGI
        "🇫🇷" + String(repeating: "\u{E0041}", count: 6),                        // hidden ASCII in TAG characters
        "🎬\u{E0041}\u{E0042}", "🎬\u{301}", "🎬" + String(repeating: "\u{301}", count: 3),
        "🏼", "👩‍🏼", "1⃣", "🇽🇽", "☺", "🚀\u{FE0F}", "🎬\u{FE0E}", "👨‍👩‍👧‍👦‍👦",
    ])
    func malformedEmojiAreRefused(emoji: String) {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "\#(emoji)"}"#)
        #expect(result.emoji.failureMessage != nil, "\(emoji.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func aFlagWithThousandsOfTagsOrAnEmojiWithThousandsOfMarksIsRefused() {
        for emoji in ["🇫🇷" + String(repeating: "\u{E0041}", count: 2_500), "🎬" + String(repeating: "\u{301}", count: 3_000)] {
            let result = decode(#"{"keywords": ["rocket"], "titles": ["Alpha launch", "Beta rocket", "Gamma crew"], "emoji": "\#(emoji)"}"#)
            #expect(result.emoji.failureMessage?.hasPrefix("Expected exactly one emoji, got ") == true)
            #expect(EmojiClassifier.isEmoji(Character(emoji)) == false)
        }
    }

    @Test func hostileAnswersStayCheap() {
        let answer = String(repeating: "{", count: 50_000) + #"{"emoji": "🚀"}"#
        let result = decode(answer)
        #expect(result.answerError != nil)
    }
}
