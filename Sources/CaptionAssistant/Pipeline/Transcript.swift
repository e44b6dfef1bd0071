import Assistant
import Captions

/// The text of a caption document as the model reads it.
package enum Transcript {
    /// What the cues say, without markup, in order: one cue per line (cues
    /// joined with `"\n"`), and the line breaks inside a cue turned into
    /// spaces, so each line of the transcript is one cue.
    ///
    /// Speaker labels, sound and music descriptions and credit lines
    /// (`CueLineParts`) are left out: they are not what is said, none of them
    /// may be a keyword or title material, and a model that reads them picks
    /// them (SmolLM2 and a 270M model chose `MAN`, `LITHGOW`, `WOMAN: …`).
    /// Left out, they cannot be offered as keyword candidates, the decoder
    /// refuses a keyword found only in them ("not in the transcript"), the
    /// local fallback never sees them, and they cost no tokens. A cue that
    /// held only them is an empty line: the lines still match the cues.
    ///
    /// Built as bytes and made a `String` once (`CaptionDocument.spokenText`).
    package static func text(of document: CaptionDocument) -> String {
        document.spokenText(cueSeparator: 0x0A, lineBreak: 0x20)
    }

    /// The start of `text(of:)` that a cut to `characters` `Character`s
    /// reads (`CaptionDocument.spokenTextStart`, its fewest cues):
    /// `PromptBuilder.cut` gives from it what it gives from the whole text,
    /// without the whole text made.
    package static func start(of document: CaptionDocument, characters: Int) -> String {
        document.spokenTextStart(characters: characters, cueSeparator: 0x0A, lineBreak: 0x20, fewest: true).text
    }

    /// The transcript as a model call needs it (`TranscriptPart`): the start
    /// a cut to `characters` reads, the whole text's length, and how to make
    /// the whole text; the whole text itself when it is no longer than the start.
    package static func part(of document: CaptionDocument, characters: Int) -> TranscriptPart {
        let (start, cues) = document.spokenTextStart(characters: characters, cueSeparator: 0x0A, lineBreak: 0x20)
        guard cues < document.cues.count else { return TranscriptPart(whole: start) }
        let rest = document.spokenTextCharacters(from: cues, cueSeparator: 0x0A, lineBreak: 0x20)
        return TranscriptPart(start: start, characters: start.count + rest, whole: { text(of: document) })
    }
}
