import Assistant
@testable import Captions
import Testing
@testable import CaptionAssistant
import Words

/// One definition of a whole word: the decoder keeps a keyword exactly when
/// keyword emphasis finds it in the captions, on text chosen to trip up a
/// word rule (`WordScanner` in `Words` documents the rule: ICU's word
/// boundaries, in every script).
@Suite struct WholeWordRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var keyword: String
        var whole: Bool
        var testDescription: String { "\(keyword.debugDescription) in \(text.debugDescription)" }
    }

    static let cases: [Case] = [
        // Underscores join words (identifiers, hashtags, handles).
        Case(text: "the rocket_launch today", keyword: "rocket", whole: false),
        Case(text: "the rocket_launch today", keyword: "launch", whole: false),
        Case(text: "the rocket_launch today", keyword: "rocket_launch", whole: true),
        Case(text: "#rocket_launch @space_x", keyword: "SPACE_X", whole: true),
        Case(text: "_rocket_ x", keyword: "rocket", whole: false),
        Case(text: "x\u{203F}y", keyword: "x", whole: false),
        // An apostrophe inside a word keeps it one word (UAX #29); hyphens separate words.
        Case(text: "the rocket's engine", keyword: "rocket", whole: false),
        Case(text: "the rocket’s engine", keyword: "rocket’s", whole: true),
        Case(text: "the rocket' engine", keyword: "rocket", whole: true),
        Case(text: "don't stop", keyword: "don't", whole: true),
        Case(text: "don't stop", keyword: "don", whole: false),
        Case(text: "AI-ready, not ai", keyword: "ai", whole: true),
        Case(text: "AI said it", keyword: "sai", whole: false),
        Case(text: "she said it", keyword: "ai", whole: false),
        // Marks belong to their word; case is folded; NFD is not NFC.
        Case(text: "naïveté", keyword: "naïve", whole: false),
        Case(text: "Un CAFÉ noir", keyword: "café", whole: true),
        Case(text: "cafe\u{301} noir", keyword: "cafe", whole: false),
        Case(text: "cafe\u{301} noir", keyword: "CAFE\u{301}", whole: true),
        Case(text: "cafe\u{301} noir", keyword: "café", whole: false),
        Case(text: "Straße", keyword: "strasse", whole: false),
        Case(text: "İstanbul", keyword: "istanbul", whole: false),
        // Scripts written without spaces are cut by ICU's dictionaries.
        Case(text: "東京 rain", keyword: "東京", whole: true),
        Case(text: "このラーメンはスープがとても濃厚です", keyword: "ラーメン", whole: true),
        Case(text: "このラーメンはスープがとても濃厚です", keyword: "ラー", whole: false),
        Case(text: "我们今天去北京吃烤鸭", keyword: "北京", whole: true),
        Case(text: "ภาษาไทยเป็นภาษาที่สวยงาม", keyword: "ไทย", whole: true),
        Case(text: "日本語のテキスト", keyword: "日本語のテキスト", whole: true),
        // Korean keeps particles on their word; Arabic its article; German compounds are one word.
        Case(text: "한국어를 배우고 있어요", keyword: "한국어를", whole: true),
        Case(text: "한국어를 배우고 있어요", keyword: "한국어", whole: false),
        Case(text: "مرحبا بالعالم العربي", keyword: "العربي", whole: true),
        Case(text: "Die Donaudampfschifffahrt fährt", keyword: "Schifffahrt", whole: false),
        // Digits: numbers with a decimal point are one word; superscripts and fractions are no part of one.
        Case(text: "r2d2 droid", keyword: "R2D2", whole: true),
        Case(text: "the 1948th day", keyword: "1948", whole: false),
        Case(text: "pi is 3.14 today", keyword: "3.14", whole: true),
        Case(text: "pi is 3.14 today", keyword: "14", whole: false),
        Case(text: "x² and ½", keyword: "x", whole: true),
        // Case mappings outside ASCII.
        Case(text: "\u{212A}elvin scale", keyword: "kelvin", whole: true),
        Case(text: "KELVIN scale", keyword: "\u{212A}elvin", whole: true),
        Case(text: "ǅemal went", keyword: "ǆemal", whole: true),
        Case(text: "ǄEMAL went", keyword: "ǅemal", whole: true),
        // Emoji separate words.
        Case(text: "🚀rocket", keyword: "rocket", whole: true),
        Case(text: "rocket👍🏽 go", keyword: "rocket", whole: true),
        Case(text: "👨‍👩‍👧 family", keyword: "family", whole: true),
        // Phrases: white space is one space however written; a line break inside a cue too.
        Case(text: "the launch pad", keyword: "Launch Pad", whole: true),
        Case(text: "the launch  pad", keyword: "launch pad", whole: true),
        Case(text: "we love real-time\nanalytics", keyword: "real-time analytics", whole: true),
        Case(text: "we love real-time \nanalytics", keyword: "Real-Time Analytics", whole: true),
        Case(text: "real time analytics", keyword: "real-time analytics", whole: false),
        Case(text: "... !!! ...", keyword: "!!!", whole: false),
    ]

    @Test(arguments: cases)
    func theDecoderAndEmphasisAgree(_ c: Case) throws {
        let decoder = SuggestionDecoder()
        let answer = #"{"keywords": ["\#(c.keyword)"], "titles": ["First title", "Second title", "Third title"], "emoji": "🚀"}"#
        for document in [
            try CaptionDocument.read(SourceText.decode(bytes: Array("1\n00:00:01,000 --> 00:00:02,000\n\(c.text)\n\n".utf8)), hint: .srt),
            try CaptionDocument.read(SourceText.decode(bytes: Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\(c.text)\n".utf8)), hint: .vtt),
        ] {
            let kept = decoder.decode(answer, transcript: Transcript.text(of: document)).keywords.value == [c.keyword]
            let result = KeywordEmphasis(keywords: [c.keyword]).apply(to: document.cues)
            #expect(kept == c.whole, "decoder, \(document.format)")
            #expect((result.occurrences > 0) == c.whole, "emphasis, \(document.format)")
        }
        #expect(WholeWords.contains(c.keyword, in: c.text) == c.whole)
    }
}
