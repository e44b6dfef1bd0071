import Testing
@testable import Assistant

@Suite struct EmojiNamesTests {
    @Test func anEmojiOfferedToModelsHasItsCLDRName() {
        #expect(EmojiNames.name(of: "🎬") == "clapper board")
        #expect(EmojiNames.name(of: "🐋") == "whale")
        // Every emoji of the table has its own name.
        for entry in EmojiTable.entries { #expect(EmojiNames.name(of: entry.emoji) == entry.name) }
    }

    @Test func anotherEmojiOfOneCodePointHasItsUnicodeNameAndASequenceNone() {
        #expect(EmojiNames.name(of: "☕") == "hot beverage")
        #expect(EmojiNames.name(of: "☕\u{FE0F}") == "hot beverage")
        #expect(EmojiNames.name(of: "🧑‍🚀") == nil)
        #expect(EmojiNames.name(of: "🇫🇷") == nil)
        #expect(EmojiNames.name(of: "a") == nil)
        #expect(EmojiNames.name(of: "") == nil)
    }
}
