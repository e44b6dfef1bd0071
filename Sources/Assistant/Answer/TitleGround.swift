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
///
/// Scripts written without spaces are checked by the words ICU's dictionary
/// cuts them into (the word rule's): a word of two characters or more grounds
/// a title, but not one of Hiragana alone (particles and endings: の, から,
/// します), nor a one-character Han word (的, 了).
/// SmolLM2-135M's Japanese titles of katakana of no language
/// ("ハンティック・バールデアを漸にします。") passed while these were not checked. A
/// Hangul word carries its particles (서울에서, 서울은): its stem is its first
/// `hangulStemLength` syllables.
public struct TitleGround: Sendable {
    /// How many leading characters of a word make its stem ("launch",
    /// "launched" and "launches" share "launc").
    public static let stemLength = 5
    /// How many leading syllables of a Hangul word make its stem.
    public static let hangulStemLength = 2
    /// The fewest characters of a title word that can ground it.
    public static let minimumWordLength = 3
    /// The fewest characters of a title word in a script written without
    /// spaces that can ground it.
    public static let minimumUnspacedWordLength = 2

    private let stems: Set<String>
    /// The transcript's words, lower case (what `TitleDictionary.flaw` takes as the captions' own words).
    public let words: Set<String>

    /// The words of `transcript` and their stems.
    public init(transcript: String) {
        words = Set(WordScanner().words(in: transcript).map { $0.lowercased() })
        stems = Set(words.map { Self.stem(Substring($0)) })
    }

    /// Whether the transcript had no word (nothing to check a title against).
    public var isEmpty: Bool { stems.isEmpty }

    /// Why `title` is not grounded in the transcript, or nil when one of its
    /// content words shares a stem with a transcript word (or there is nothing to check it against).
    public func flaw(_ title: String) -> String? {
        guard !stems.isEmpty else { return nil }
        let words = WordScanner().words(in: title).filter(Self.isContentWord)
        if words.contains(where: { stems.contains(Self.stem($0)) }) { return nil }
        return "shares no word with the captions"
    }

    /// Whether `word` can ground a title: not a stop word of any language
    /// (`StopWords.all`), and `minimumWordLength` characters or more; in a
    /// script written without spaces, `minimumUnspacedWordLength` characters
    /// or more, not all Hiragana. A one-character Han word does not ground a
    /// title: in Chinese most are function words (的, 了, 是), which junk holds too.
    static func isContentWord(_ word: Substring) -> Bool {
        guard !StopWords.all.contains(word.lowercased()) else { return false }
        let scripts = word.unicodeScalars.map { WordScanner.unspacedScript($0.value) }
        guard scripts.contains(where: { $0 != nil }) else { return word.count >= minimumWordLength }
        return word.count >= minimumUnspacedWordLength && scripts.contains { $0 != .hiragana }
    }

    /// `word`'s first `stemLength` characters (`hangulStemLength` for a
    /// Hangul word), lower case, without diacritics.
    static func stem(_ word: Substring) -> String {
        let isHangul = word.unicodeScalars.first.map { WordScanner.unspacedScript($0.value) == .hangul } ?? false
        return String(word.prefix(isHangul ? hangulStemLength : stemLength))
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
