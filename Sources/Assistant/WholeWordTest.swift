/// Whether `phrase` occurs in `text` as a whole word (or whole words), case ignored.
///
/// The decoder keeps a keyword only when this says yes. Assistant has no word
/// rule of its own: the pipeline hands it the one that places keyword emphasis
/// (`KeywordEmphasis.containsWholeWord(_:in:)` in Captions), so a keyword is
/// kept exactly when emphasis can find it, and Assistant needs to know nothing
/// of caption text.
public typealias WholeWordTest = @Sendable (_ phrase: String, _ text: String) -> Bool
