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
}
