/// The names emoji are shown by where a picture of one may not be drawn (a
/// review page on a system without an emoji font shows a box).
public enum EmojiNames {
    /// The CLDR English name of each emoji of `EmojiTable`, by the emoji.
    private static let byEmoji: [String: String] = Dictionary(EmojiTable.entries.map { ($0.emoji, $0.name) }, uniquingKeysWith: { first, _ in first })

    /// The name of `emoji`: its CLDR English name (`clapper board` for 🎬) for
    /// one of the 622 offered to models; for another emoji of one code point
    /// (with or without the emoji variation selector), its Unicode character
    /// name in lower case; nil for anything else (a sequence: flags, ZWJ
    /// sequences, skin tones).
    public static func name(of emoji: String) -> String? {
        if let name = byEmoji[emoji] { return name }
        let scalars = emoji.unicodeScalars.filter { $0.value != 0xFE0F }
        guard scalars.count == 1, let scalar = scalars.first, scalar.properties.isEmoji, let name = scalar.properties.name else { return nil }
        if let name = byEmoji[String(scalar)] { return name }
        return name.lowercased()
    }
}
