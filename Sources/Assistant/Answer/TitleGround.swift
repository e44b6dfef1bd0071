import Foundation
import Words

/// The words a title may take from the captions: a title names what is said,
/// so at least one of its content words (`isContentWord`) shares its stem
/// (`stem`: the first `stemLength` characters, letter case and diacritics
/// aside) with a word of the transcript the model was sent.
///
/// The check `TitleCheck` cannot make from the title alone: letters of no
/// language ("follsti llyth", from a 135M model) pass every form rule. A
/// title whose words are all new (a translation, a pure metaphor) is refused
/// too: the prompt asks for titles in the captions' language, about them.
/// Titles in scripts the word rule cuts by dictionary, not spaces (Han, Kana,
/// Thai…), or in Hangul (whose words carry their particles) are not checked.
public struct TitleGround: Sendable {
    /// How many leading characters of a word make its stem ("launch",
    /// "launched" and "launches" share "launc").
    public static let stemLength = 5
    /// The fewest characters of a title word that can ground it.
    public static let minimumWordLength = 3

    private let stems: Set<String>

    /// The stems of `transcript`'s words.
    public init(transcript: String) {
        stems = Set(WordScanner().words(in: transcript).map { Self.stem($0) })
    }

    /// Whether the transcript had no word (nothing to check a title against).
    public var isEmpty: Bool { stems.isEmpty }

    /// Why `title` is not grounded in the transcript, or nil when one of its
    /// content words shares a stem with a transcript word (or it cannot be checked).
    public func flaw(_ title: String) -> String? {
        guard !stems.isEmpty, !Self.isUnspaced(title) else { return nil }
        let words = WordScanner().words(in: title).filter(Self.isContentWord)
        if words.contains(where: { stems.contains(Self.stem($0)) }) { return nil }
        return "shares no word with the captions"
    }

    /// Whether `word` can ground a title: `minimumWordLength` characters or
    /// more, and not a stop word of any language (`StopWords.all`).
    static func isContentWord(_ word: Substring) -> Bool {
        word.count >= minimumWordLength && !StopWords.all.contains(word.lowercased())
    }

    /// `word`'s first `stemLength` characters, lower case, without diacritics.
    static func stem(_ word: Substring) -> String {
        String(word.prefix(stemLength)).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Whether `text` holds a letter of a script written without spaces
    /// between words, or Hangul (`WordScanner.isDictionaryScript`, the word rule's).
    static func isUnspaced(_ text: String) -> Bool {
        text.unicodeScalars.contains { WordScanner.isDictionaryScript($0.value) }
    }
}
