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
}
