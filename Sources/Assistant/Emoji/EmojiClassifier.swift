import Foundation

/// Decides whether a single `Character` is one emoji as Unicode's RGI set
/// spells them (fully-qualified), without a table of every sequence.
///
/// Accepted: one emoji-presentation scalar (every `EmojiTable` entry is one),
/// or a text-presentation emoji with U+FE0F; an emoji modifier base with one
/// skin tone; a keycap (`0`–`9`, `#` or `*`, U+FE0F, U+20E3); a flag (two
/// regional indicators naming a region Foundation knows); the three RGI
/// subdivision flags (England, Scotland, Wales: a black flag with TAG
/// characters); a ZWJ sequence of two to four such emoji. Never: TAG
/// characters outside those flags, combining marks, a skin tone or a
/// component alone, or more than `maximumScalars` scalars (hidden text can
/// ride in an emoji-looking grapheme: 2,500 TAG characters after a flag are
/// one `Character`).
enum EmojiClassifier {
    /// The most scalars an accepted emoji has (RGI's longest, a kiss with two skin tones, has 10).
    static let maximumScalars = 10
    /// The most emoji joined by U+200D in one sequence (RGI's families and kisses have four).
    static let maximumJoined = 4

    static func isEmoji(_ character: Character) -> Bool {
        var scalars: [Unicode.Scalar] = []
        for scalar in character.unicodeScalars {
            scalars.append(scalar)
            if scalars.count > maximumScalars { return false }
        }
        guard let first = scalars.first else { return false }
        if isRegionalIndicator(first) { return isFlag(scalars) }
        if first.value == 0x1F3F4, scalars.count > 1, isTag(scalars[1]) { return subdivisionFlags.contains(scalars.map(\.value)) }
        if scalars.count == 3, scalars[2].value == 0x20E3 {
            return scalars[1].value == 0xFE0F && (("0"..."9").contains(first) || first == "#" || first == "*")
        }
        let elements = scalars.split(separator: "\u{200D}", omittingEmptySubsequences: false)
        guard elements.count <= maximumJoined else { return false }
        return elements.allSatisfy(isElement)
    }

    /// One emoji of a sequence: a base shown as emoji (by default, or asked
    /// for with U+FE0F), or a modifier base with one skin tone.
    static func isElement(_ element: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let base = element.first else { return false }
        let p = base.properties
        guard p.isEmoji, !p.isEmojiModifier, !base.isASCII, !isRegionalIndicator(base), !isTag(base) else { return false }
        switch element.count {
        case 1:
            return p.isEmojiPresentation
        case 2:
            let second = element[element.startIndex + 1]
            if second.value == 0xFE0F { return !p.isEmojiPresentation }
            return second.properties.isEmojiModifier && p.isEmojiModifierBase
        default:
            return false
        }
    }

    /// Two regional indicators whose letters name a region (ISO 3166-1, as Foundation lists them).
    static func isFlag(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count == 2, scalars.allSatisfy(isRegionalIndicator) else { return false }
        let code = String(String.UnicodeScalarView(scalars.compactMap { Unicode.Scalar($0.value - 0x1F1E6 + 0x41) }))
        return regions.contains(code)
    }

    static let regions: Set<String> = Set(Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 })

    /// England, Scotland and Wales: 🏴, TAG letters, CANCEL TAG.
    static let subdivisionFlags: Set<[UInt32]> = Set(["gbeng", "gbsct", "gbwls"].map { code in
        [0x1F3F4] + code.unicodeScalars.map { 0xE0000 + $0.value } + [0xE007F]
    })

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool { (0x1F1E6...0x1F1FF).contains(scalar.value) }
    static func isTag(_ scalar: Unicode.Scalar) -> Bool { (0xE0000...0xE007F).contains(scalar.value) }
}
