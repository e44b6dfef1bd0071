import Captions

/// The text of a caption document as the model reads it.
public enum Transcript {
    /// The cue texts without markup, in order: one cue per line (cues joined
    /// with `"\n"`), and the line breaks inside a cue turned into spaces, so
    /// each line of the transcript is one cue.
    public static func text(of document: CaptionDocument) -> String {
        var out = ""
        out.reserveCapacity(document.source.bytes.count)
        for (i, cue) in document.cues.enumerated() {
            if i > 0 { out += "\n" }
            for run in cue.runs {
                switch run.kind {
                case .text: out += run.text
                case .lineBreak: out += " "
                case .markup: break
                }
            }
        }
        return out
    }
}
