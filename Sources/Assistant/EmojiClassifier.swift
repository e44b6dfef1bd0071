/// Decides whether a single `Character` is an emoji as people mean it.
///
/// Unicode marks digits, `#` and `*` as "emoji" because they can start keycap
/// sequences, and many symbols have only a text presentation by default. A
/// character counts here when one of its scalars is shown as emoji by default,
/// or it asks for emoji presentation (U+FE0F), or it is a ZWJ sequence or a flag.
enum EmojiClassifier {
    static func isEmoji(_ character: Character) -> Bool {
        let scalars = Array(character.unicodeScalars)
        guard let first = scalars.first else { return false }
        let regionalIndicators = scalars.filter { (0x1F1E6...0x1F1FF).contains($0.value) }
        if !regionalIndicators.isEmpty {
            // A flag is exactly two regional indicators; one alone is a letter-like fragment.
            return regionalIndicators.count == 2 && scalars.count == 2
        }
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return true }
        let asksForEmoji = scalars.contains { $0.value == 0xFE0F || $0.value == 0x20E3 || $0.value == 0x200D }
        return asksForEmoji && first.properties.isEmoji
    }
}
