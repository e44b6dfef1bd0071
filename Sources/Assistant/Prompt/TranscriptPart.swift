/// A transcript as a model call needs it, without the whole text in memory:
/// its start, enough for the prompt's cut (`PromptBuilder.cut` gives from it
/// what it gives from the whole text), and the whole text's length.
///
/// A large file's transcript is made only when a check needs more than its
/// start: a keyword the model names that the start does not hold, which the
/// decoder then looks for in the whole text (`whole`), as every keyword may
/// be any word of the captions.
public struct TranscriptPart: Sendable {
    /// The transcript's first lines, ending with a line break, when the
    /// transcript goes on after them; else the whole transcript.
    public var start: String
    /// The whole transcript's length in `Character`s.
    public var characters: Int
    /// Makes the whole transcript; nil when `start` is all of it.
    public var whole: (@Sendable () -> String)?

    /// A transcript held whole.
    public init(whole text: String) {
        start = text
        characters = text.count
        whole = nil
    }

    /// A transcript's start (its first lines, each ending with a line break),
    /// the whole transcript's length, and how to make it whole.
    public init(start: String, characters: Int, whole: @escaping @Sendable () -> String) {
        self.start = start
        self.characters = characters
        self.whole = whole
    }
}
