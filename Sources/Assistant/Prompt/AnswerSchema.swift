/// The shape of the answer a prompt asks for: `{"keywords": [...], "titles":
/// [...], "emoji": "..."}` with what each field may hold.
///
/// A backend that can constrain its output builds its constraint from this
/// (the HTTP backend's `response_format`, Foundation Models' guided
/// generation). The decoder checks every answer as if no schema had been
/// sent, by the same bounds (`titleLength`, `titleCount`) where they apply.
public struct AnswerSchema: Sendable, Hashable {
    /// How many titles a result gives: the first this many usable ones of
    /// an answer (`titleCandidates` asked for).
    public static let titleCount = 3
    /// How many titles an answer is asked for: more than `titleCount`, so
    /// that three can stand when the checks refuse some (`TitleCheck`,
    /// `TitleGround`, a copied line). Asked for three, SmolLM2-135M had one
    /// or more of them refused for most files of a measured run, and each
    /// refusal cost a repair request of the whole prompt; two more titles
    /// in the same answer cost a few completion tokens.
    public static let titleCandidates = 5
    /// How long a title may be, in `Character`s after trimming: checked by
    /// the decoder, never sent as a bound a grammar enforces by cutting (the
    /// schema bounds titles in words: `TitleCheck.maximumWords`).
    public static let titleLength = 8...60
    /// How many keywords the schema lets the model name: the prompt's "up to
    /// 3" (the decoder keeps up to `AssistantOptions.maxKeywords` from a
    /// server that ignores the schema).
    public static let maximumKeywords = 3
    /// How many keywords the schema allows at most when it offers candidates:
    /// one from each of `keywordGroups`.
    public static let keywordPositions = maximumKeywords
    /// The longest keyword the schema allows, in `Character`s.
    public static let maximumKeywordLength = 40

    /// The words and phrases a keyword may be; empty: any text within the
    /// length bound. Drawn from the transcript part sent
    /// (`KeywordCandidates`) when first asked for, so a backend that does not
    /// constrain its output (the fake) never pays for them.
    public var keywords: [String] { fixedKeywords ?? KeywordCandidates.from(keywordSource) }
    /// The emoji the answer may choose from (`EmojiTable`, one scalar each).
    public var emoji: [String]
    /// The fields the answer holds: all three, or in a repair request only
    /// those the first answer gave nothing usable for (the others stand).
    public var fields: Set<AssistantAction> = Set(AssistantAction.allCases)

    /// The text keyword candidates are drawn from (when no list was given).
    private let keywordSource: String
    /// The keywords given as a list.
    private let fixedKeywords: [String]?

    /// A schema allowing `keywords` and the emoji table.
    public init(keywords: [String], emoji: [String] = AnswerSchema.emojiTable) {
        self.fixedKeywords = keywords
        self.keywordSource = ""
        self.emoji = emoji
    }

    /// A schema allowing the words and phrases of `transcript`
    /// (`KeywordCandidates.from(_:)`) and the emoji table.
    public init(keywordsFrom transcript: String, emoji: [String] = AnswerSchema.emojiTable) {
        self.fixedKeywords = nil
        self.keywordSource = transcript
        self.emoji = emoji
    }

    /// The keyword candidates dealt out in turn (first, second, third, first…)
    /// into `keywordPositions` groups, or fewer when there are fewer
    /// candidates: a schema whose keyword list takes its first item from the
    /// first group, its second from the second, and so on can never name one
    /// keyword twice (SmolLM2-135M answered `["Boil", "Boil", "Boil"]` from one
    /// shared list), and each group still holds frequent words.
    public var keywordGroups: [[String]] { Self.groups(of: keywords) }

    /// `keywords` dealt out in turn into `keywordPositions` groups (fewer when there are fewer).
    public static func groups(of keywords: [String]) -> [[String]] {
        let count = min(keywordPositions, keywords.count)
        var groups = [[String]](repeating: [], count: count)
        for (index, keyword) in keywords.enumerated() { groups[index % count].append(keyword) }
        return groups
    }

    /// The emoji table's emoji (`EmojiTable`), in code point order.
    public static let emojiTable: [String] = EmojiTable.entries.map(\.emoji)

    /// The emoji offered whatever the content: about video, speech, music and
    /// news, none about a subject. Earlier sets held 🌍, 📚, 💡, 🎉 and 🔥:
    /// SmolLM2-135M took 🌍 or 📚 for 9 of 26 files of one measured run (a
    /// football match, a Paris song, the Alps), where the related 🗻 or 🎼
    /// was offered; a subject's emoji is offered when the text names it.
    public static let generalEmoji = ["🎬", "🎥", "📺", "🎤", "🎵", "💬", "📰"]
    /// The most content-related emoji offered.
    public static let maximumRelatedEmoji = 24
    /// With this many content-related emoji or more, `generalEmoji` are not offered.
    public static let enoughRelatedEmoji = 8

    /// The emoji offered for `transcript`: those whose CLDR annotations name
    /// its content words (`LocalFallback.relatedEmoji`, the rule the local
    /// fallback picks by), then, when there are fewer than
    /// `enoughRelatedEmoji` of them, `generalEmoji`. Offered the whole table,
    /// a small model took the first likely emoji (👩 for six unrelated files of
    /// one measured run, 🚰 for four of another); offered the general set
    /// beside enough related ones, it took 🌍 for 8 of 26 files.
    public static func emoji(for transcript: String) -> [String] {
        var offered = LocalFallback.relatedEmoji(for: transcript, limit: maximumRelatedEmoji)
        guard offered.count < enoughRelatedEmoji else { return offered }
        for e in generalEmoji where !offered.contains(e) { offered.append(e) }
        return offered
    }
}
