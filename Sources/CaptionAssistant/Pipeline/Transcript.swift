import Assistant
import Captions

/// The text of a caption document as the model reads it.
package enum Transcript {
    /// The cue texts without markup, in order: one cue per line (cues joined
    /// with `"\n"`), and the line breaks inside a cue turned into spaces, so
    /// each line of the transcript is one cue.
    ///
    /// Built as bytes and made a `String` once (`CaptionDocument.readableText`).
    package static func text(of document: CaptionDocument) -> String {
        document.readableText(cueSeparator: 0x0A, lineBreak: 0x20)
    }

    /// The start of `text(of:)` that a cut to `characters` `Character`s
    /// reads (`CaptionDocument.readableTextStart`): `PromptBuilder.cut` gives
    /// from it what it gives from the whole text, without the whole text made.
    package static func start(of document: CaptionDocument, characters: Int) -> String {
        document.readableTextStart(characters: characters, cueSeparator: 0x0A, lineBreak: 0x20).text
    }

    /// The transcript as a model call needs it (`TranscriptPart`): the start
    /// a cut to `characters` reads, the whole text's length, and how to make
    /// the whole text; the whole text itself when it is no longer than the start.
    package static func part(of document: CaptionDocument, characters: Int) -> TranscriptPart {
        let (start, cues) = document.readableTextStart(characters: characters, cueSeparator: 0x0A, lineBreak: 0x20)
        guard cues < document.cues.count else { return TranscriptPart(whole: start) }
        let rest = document.readableTextCharacters(from: cues, cueSeparator: 0x0A, lineBreak: 0x20)
        return TranscriptPart(start: start, characters: start.count + rest, whole: { text(of: document) })
    }
}
