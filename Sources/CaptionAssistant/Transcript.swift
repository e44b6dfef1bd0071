import Captions

/// The text of a caption document as the model reads it.
public enum Transcript {
    /// The cue texts without markup, in order: one cue per line (cues joined
    /// with `"\n"`), and the line breaks inside a cue turned into spaces, so
    /// each line of the transcript is one cue.
    ///
    /// Built as bytes and made a `String` once (`Cue.appendReadableText`).
    public static func text(of document: CaptionDocument) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(document.source.bytes.count)
        for (i, cue) in document.cues.enumerated() {
            if i > 0 { out.append(0x0A) }
            cue.appendReadableText(to: &out, lineBreak: 0x20)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
