import Words

/// One language's CLDR emoji annotations (`EmojiAnnotations`) as the local
/// fallback looks them up (`LocalFallback`), built the first time a
/// transcript in that language needs them: a run whose captions are in
/// English parses no other language's list (building all seven cost a run
/// about as much as the fallback's work on 300 files).
///
/// Emoji are numbered within the language, in `EmojiTable`'s order, then any
/// other by its text: two emoji compare by number as they compare by the
/// table's order, whichever language numbered them.
final class AnnotationIndex: Sendable {
    /// Each word (lower case) and the emoji it annotates, in table order.
    let words: [String: [String]]
    /// Every emoji that one of `words` names, by number.
    let emojiByNumber: [String]
    /// Each emoji's number (`emojiByNumber`).
    let emojiNumbers: [String: Int32]
    /// `words` in ASCII, looked up by their bytes (`LocalFallback.annotated`),
    /// with their emoji's numbers: a word with a capital is left out (a
    /// looked-up word is in lower case), and no word outside ASCII is equal to
    /// an ASCII word as `String`s are (a test checks it).
    let ascii: LowerCaseTable.Shared<[Int32]>
    /// The words that the word rule cuts into several words (`arc-en-ciel`,
    /// `東京タワー`, `t-shirt`), which no one word of a transcript can be:
    /// they are looked for as phrases instead, in the order of their text.
    let phrases: [(phrase: String, emoji: [String])]
    /// `phrases` prepared for the one pass over a transcript's words that counts them all.
    let phraseMatcher: KeywordMatcher
    /// `phrases`' emoji, by number.
    let phraseEmoji: [[Int32]]

    /// The index of the `word<TAB>emoji…` lines `lines`.
    private init(lines: String) {
        var words: [String: [String]] = [:]
        for line in lines.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            words[String(parts[0])] = parts[1].map(String.init)
        }
        var all = Set<String>()
        for list in words.values { all.formUnion(list) }
        let order = LocalFallback.tableOrder
        let byNumber = all.sorted { (order[$0] ?? Int.max, $0) < (order[$1] ?? Int.max, $1) }
        let numbers = Dictionary(uniqueKeysWithValues: byNumber.enumerated().map { ($1, Int32($0)) })
        func numbered(_ list: [String]) -> [Int32] { list.compactMap { numbers[$0] } }
        let scanner = WordScanner()
        let phrases = words.filter { scanner.words(in: $0.key).count > 1 }
            .sorted { $0.key < $1.key }
            .map { (phrase: $0.key, emoji: $0.value) }
        self.words = words
        emojiByNumber = byNumber
        emojiNumbers = numbers
        ascii = LowerCaseTable.Shared(words.sorted { $0.key < $1.key }.map { ($0.key, numbered($0.value)) })
        self.phrases = phrases
        phraseMatcher = KeywordMatcher(phrases.map(\.phrase))
        phraseEmoji = phrases.map { numbered($0.emoji) }
    }

    /// The numbers (`emojiNumbers`) of the emoji `list`, in its order.
    func numbers(ofEmoji list: [String]) -> [Int32] { list.compactMap { emojiNumbers[$0] } }

    /// The index of `language` (an ISO 639-1 code, as `EmojiAnnotations.lines` keys them), or nil when there is none.
    static func of(_ language: String) -> AnnotationIndex? {
        switch language {
        case "en": en
        case "de": de
        case "es": es
        case "fr": fr
        case "it": it
        case "ja": ja
        case "pt": pt
        default: nil
        }
    }

    /// The languages `of` knows: every key of `EmojiAnnotations.lines` (a test checks it).
    static let languages = ["en", "de", "es", "fr", "it", "ja", "pt"]

    // Each made on first use (a static `let` is initialised once, lazily, by any thread).
    private static let en = index("en")
    private static let de = index("de")
    private static let es = index("es")
    private static let fr = index("fr")
    private static let it = index("it")
    private static let ja = index("ja")
    private static let pt = index("pt")

    private static func index(_ language: String) -> AnnotationIndex? {
        EmojiAnnotations.lines[language].map { AnnotationIndex(lines: $0) }
    }
}
