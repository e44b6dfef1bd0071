import Testing
@testable import Assistant

@Suite struct SuggestionDecoderTests {
    static let transcript = """
        Welcome back to the launch pad. Today the rocket team said the AI guidance \
        computer passed every check. The launch window opens at dawn, and the crew \
        is ready. Café owners nearby expect a crowd.
        """
    let decoder = SuggestionDecoder(containsWholeWord: wholeWords)

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

    @Test func proseAroundTheJSONIsIgnored() {
        let answer = """
            Sure! Here are my suggestions for your video {as requested}:
            {"keywords": ["crew", "dawn"], "titles": ["A", "B {not a brace}", "C \\"quoted\\""], "emoji": "🌅"}
            Let me know if you want more options.
            """
        let result = decode(answer)
        #expect(result.keywords == .applied(["crew", "dawn"]))
        #expect(result.titles == .applied(["A", "B {not a brace}", "C \"quoted\""]))
        #expect(result.emoji == .applied("🌅"))
    }

    @Test func twoTitlesFailOnlyTheTitles() {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Launch Day", "  "], "emoji": "🚀"}"#)
        #expect(result.titles == .failed("The model gave 1 usable title; exactly three are needed."))
        #expect(result.keywords == .applied(["rocket"]))
        #expect(result.emoji == .applied("🚀"))
        #expect(result.warnings == ["1 empty or non-text title was ignored."])
        let two = decode(#"{"keywords": ["rocket"], "titles": ["Launch Day", "Dawn"], "emoji": "🚀"}"#)
        #expect(two.titles == .failed("The model gave 2 usable titles; exactly three are needed."))
    }

    @Test func repeatedTitlesAreNoAlternatives() {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["Launch Day", "launch day", "Dawn Launch"], "emoji": "🚀"}"#)
        #expect(result.titles == .failed("The model gave 2 usable titles; exactly three are needed."))
        #expect(result.warnings == ["1 repeated title was ignored."])
        let four = decode(#"{"keywords": ["rocket"], "titles": ["A", "A", "B", "C"], "emoji": "🚀"}"#)
        #expect(four.titles == .applied(["A", "B", "C"]))
    }

    @Test func fiveTitlesKeepTheFirstThreeWithAWarning() {
        let result = decode(#"{"keywords": ["rocket"], "titles": [" One ", "Two", "Three", "Four", "Five"], "emoji": "🚀"}"#)
        #expect(result.titles == .applied(["One", "Two", "Three"]))
        #expect(result.warnings == ["The model gave 5 titles; the first three were kept."])
    }

    @Test func aKeywordNotInTheTranscriptIsDroppedWithItsReason() {
        let result = decode(#"{"keywords": ["rocket", "Mars", "ai", "sai"], "titles": ["A", "B", "C"], "emoji": "🚀"}"#)
        #expect(result.keywords == .applied(["rocket", "ai"]))
        #expect(result.droppedKeywords == [
            DroppedKeyword(keyword: "Mars", reason: "not in the transcript"),
            DroppedKeyword(keyword: "sai", reason: "not in the transcript"),
        ])
    }

    @Test func markupKeywordsAreRejected() {
        let result = decode(#"{"keywords": ["<script>", "launch&", "{crew}"], "titles": ["A", "B", "C"], "emoji": "🚀"}"#)
        #expect(result.keywords == .failed("No suggested keyword is usable: “<script>” (contains markup characters), “launch&” (contains markup characters), “{crew}” (contains markup characters)."))
        #expect(result.titles == .applied(["A", "B", "C"]))
        #expect(result.emoji == .applied("🚀"))
    }

    /// A keyword that is not text is named in the report as the answer wrote it (compact JSON).
    @Test func nonTextKeywordsAreReportedAsTheAnswerWroteThem() {
        let result = decode(#"{"keywords": ["rocket", 1.5, -3, true, null, ["x", 2], {"a": "\u2028"}], "titles": ["A", "B", "C"], "emoji": "🚀"}"#)
        #expect(result.keywords == .applied(["rocket"]))
        #expect(result.droppedKeywords.map(\.keyword) == ["1.5", "-3", "true", "null", #"["x", 2]"#, #"{"a": "\u2028"}"#])
        #expect(result.droppedKeywords.allSatisfy { $0.reason == "not text" })
    }

    /// A key the answer repeats counts once, with its first value.
    @Test func aRepeatedKeyKeepsItsFirstValue() {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["A", "B", "C"], "emoji": "🚀", "emoji": "🎬"}"#)
        #expect(result.emoji == .applied("🚀"))
    }

    @Test func keywordsAreTrimmedUniqueAndCapped() {
        let many = (1...12).map { _ in "\"launch\"" }.joined(separator: ", ")
        let duplicates = decode(#"{"keywords": ["  Rocket ", "rocket", "ROCKET", "", 7, \#(many)], "titles": ["A", "B", "C"], "emoji": "🚀"}"#)
        #expect(duplicates.keywords == .applied(["Rocket", "launch"]))
        #expect(duplicates.droppedKeywords.first == DroppedKeyword(keyword: "rocket", reason: "duplicate"))
        #expect(duplicates.droppedKeywords.contains(DroppedKeyword(keyword: "", reason: "empty")))
        #expect(duplicates.droppedKeywords.contains(DroppedKeyword(keyword: "7", reason: "not text")))

        let words = ["Welcome", "back", "launch", "pad", "Today", "rocket", "team", "said", "guidance", "computer", "passed", "every"]
        let list = words.map { "\"\($0)\"" }.joined(separator: ", ")
        let capped = decode(#"{"keywords": [\#(list)], "titles": ["A", "B", "C"], "emoji": "🚀"}"#)
        #expect(capped.keywords == .applied(Array(words.prefix(10))))
        #expect(capped.droppedKeywords == [
            DroppedKeyword(keyword: "passed", reason: "more than 10 keywords"),
            DroppedKeyword(keyword: "every", reason: "more than 10 keywords"),
        ])
    }

    @Test func twoEmojiFailOnlyTheEmoji() {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["A", "B", "C"], "emoji": "🚀🎉"}"#)
        #expect(result.emoji == .failed("Expected exactly one emoji, got 2 characters: “🚀🎉”."))
        #expect(result.keywords == .applied(["rocket"]))
        #expect(result.titles == .applied(["A", "B", "C"]))
    }

    @Test(arguments: ["🎬", "🇫🇷", "👨‍👩‍👧‍👦", "❤️", "👍🏽", "1️⃣", "🏳️‍🌈"])
    func singleEmojiGraphemesAreAccepted(emoji: String) {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["A", "B", "C"], "emoji": " \#(emoji) "}"#)
        #expect(result.emoji == .applied(emoji))
    }

    @Test(arguments: ["1", "#", "*", "A", "©", "❤", "🇫", "é"])
    func textThatIsNotAnEmojiIsRejected(text: String) {
        let result = decode(#"{"keywords": ["rocket"], "titles": ["A", "B", "C"], "emoji": "\#(text)"}"#)
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
        let result = decode(#"{"keywords": "rocket", "titles": ["A", "B", "C"]}"#)
        #expect(result.keywords == .failed("\"keywords\" in the answer is not a list."))
        #expect(result.titles == .applied(["A", "B", "C"]))
        #expect(result.emoji == .failed("The answer has no \"emoji\"."))
        #expect(decode(#"{"keywords": [], "titles": 3, "emoji": 5}"#) == Suggestions(
            keywords: .failed("The model suggested no keywords."),
            titles: .failed("\"titles\" in the answer is not a list."),
            emoji: .failed("\"emoji\" in the answer is not text.")
        ))
    }

    @Test func theAnswerObjectWinsOverOtherObjects() {
        let answer = #"Schema: {"type": "object"} Answer: {"keywords": ["dawn"], "titles": ["A", "B", "C"], "emoji": "🌅"}"#
        #expect(decode(answer).keywords == .applied(["dawn"]))
    }

    @Test func hostileAnswersStayCheap() {
        let answer = String(repeating: "{", count: 50_000) + #"{"emoji": "🚀"}"#
        let result = decode(answer)
        #expect(result.answerError != nil)
    }
}
