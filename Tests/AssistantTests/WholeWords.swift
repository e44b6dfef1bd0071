import Assistant
import Captions

/// The word rule the pipeline hands the decoder (Captions' keyword emphasis),
/// so that these tests decode keywords as a real run does.
let wholeWords: WholeWordTest = { KeywordEmphasis.containsWholeWord($0, in: $1) }
