import Foundation
import Words

// libFuzzer entry point for the suggestion decoder; built by scripts/fuzz.sh
// together with the Assistant module's own sources (and the Words module it imports).

/// The transcript every fuzzed answer is checked against: mixed scripts,
/// accents, punctuation and markup-like text.
let fuzzTranscript = """
    The weather forecast says rain in Zürich; naïve café owners said AI is here.
    東京 rain, 🌧️ again — "quoted" & <b>tagged</b> words. Straße STRASSE İstanbul.
    """

/// Decodes the bytes as a model's answer and checks what the decoder promises:
/// kept keywords are non-empty, unique (ignoring case), free of markup and
/// whole words of the transcript (the one word rule, `WholeWords`); applied
/// titles are exactly three distinct single lines of 8 to 60 characters; an
/// applied emoji is exactly one grapheme with no combining mark.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSuggestionDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let answer = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let decoder = SuggestionDecoder()
    let suggestions = decoder.decode(answer, transcript: fuzzTranscript)

    if let keywords = suggestions.keywords.value {
        precondition(!keywords.isEmpty, "keywords applied but empty")
        precondition(Set(keywords.map { $0.lowercased() }).count == keywords.count, "duplicate keywords: \(keywords)")
        for keyword in keywords {
            precondition(!keyword.isEmpty, "an empty keyword was kept")
            precondition(!keyword.contains(where: { SuggestionDecoder.markupCharacters.contains($0) }), "markup in keyword \(keyword)")
            precondition(WholeWords.contains(keyword, in: fuzzTranscript),
                         "keyword \(keyword.debugDescription) is not a whole word of the transcript")
        }
    }
    if let titles = suggestions.titles.value {
        precondition(titles.count == 3, "\(titles.count) titles applied")
        precondition(Set(titles).count == 3, "repeated titles: \(titles)")
        for title in titles {
            precondition(AnswerSchema.titleLength.contains(title.count) && !title.contains(where: { (c: Character) in c.isNewline }),
                         "bad title \(title.debugDescription)")
        }
    }
    if let emoji = suggestions.emoji.value {
        precondition(emoji.count == 1, "emoji \(emoji.debugDescription) is \(emoji.count) characters")
        // Variation selectors (FE0F) and the keycap (20E3) are marks that emoji sequences hold; no other mark is.
        let marks = emoji.unicodeScalars.filter {
            [.nonspacingMark, .enclosingMark, .spacingMark].contains($0.properties.generalCategory)
                && !(0xFE00...0xFE0F).contains($0.value) && $0.value != 0x20E3
        }
        precondition(marks.isEmpty, "emoji \(emoji.debugDescription) holds a combining mark")
    }
    for message in [suggestions.keywords.failureMessage, suggestions.titles.failureMessage, suggestions.emoji.failureMessage] {
        if let message { precondition(!message.isEmpty, "an action failed with no message") }
    }
    return 0
}
