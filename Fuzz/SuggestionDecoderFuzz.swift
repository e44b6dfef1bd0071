import Foundation

// libFuzzer entry point for the suggestion decoder; built by scripts/fuzz.sh
// together with the Assistant module's own sources.

/// The transcript every fuzzed answer is checked against: mixed scripts,
/// accents, punctuation and markup-like text.
let fuzzTranscript = """
    The weather forecast says rain in Zürich; naïve café owners said AI is here.
    東京 rain, 🌧️ again — "quoted" & <b>tagged</b> words. Straße STRASSE İstanbul.
    """

/// Decodes the bytes as a model's answer and checks what the decoder promises:
/// kept keywords are non-empty, unique (ignoring case), free of markup and
/// present in the transcript; applied titles are exactly three non-empty single
/// lines; an applied emoji is exactly one grapheme.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSuggestionDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let answer = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // The word rule lives in Captions (not built into this target); a
    // case-insensitive substring test stands in for it: the decoder must keep
    // only what the test it is given finds.
    let decoder = SuggestionDecoder(containsWholeWord: { $1.range(of: $0, options: .caseInsensitive) != nil })
    let suggestions = decoder.decode(answer, transcript: fuzzTranscript)
    let lowered = fuzzTranscript.lowercased()

    if let keywords = suggestions.keywords.value {
        precondition(!keywords.isEmpty, "keywords applied but empty")
        precondition(Set(keywords.map { $0.lowercased() }).count == keywords.count, "duplicate keywords: \(keywords)")
        for keyword in keywords {
            precondition(!keyword.isEmpty, "an empty keyword was kept")
            precondition(!keyword.contains(where: { SuggestionDecoder.markupCharacters.contains($0) }), "markup in keyword \(keyword)")
            precondition(lowered.contains(keyword.lowercased()) || fuzzTranscript.localizedLowercase.contains(keyword.localizedLowercase)
                         || fuzzTranscript.range(of: keyword, options: .caseInsensitive) != nil,
                         "keyword \(keyword.debugDescription) is not in the transcript")
        }
    }
    if let titles = suggestions.titles.value {
        precondition(titles.count == 3, "\(titles.count) titles applied")
        for title in titles {
            precondition(!title.isEmpty && !title.contains(where: \.isNewline), "bad title \(title.debugDescription)")
        }
    }
    if let emoji = suggestions.emoji.value {
        precondition(emoji.count == 1, "emoji \(emoji.debugDescription) is \(emoji.count) characters")
    }
    for message in [suggestions.keywords.failureMessage, suggestions.titles.failureMessage, suggestions.emoji.failureMessage] {
        if let message { precondition(!message.isEmpty, "an action failed with no message") }
    }
    return 0
}
