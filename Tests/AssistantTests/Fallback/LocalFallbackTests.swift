import Testing
import Words
@testable import Assistant

/// The fallback's content: taken from the transcript alone, deterministic,
/// in the transcript's language.
@Suite struct LocalFallbackTests {
    static let whales = """
        Every spring the humpback whales return to these waters.
        The whales come to feed on krill, tiny animals that swarm near the surface.
        A single whale can eat more than a tonne of krill in a day.
        Scientists follow the whales by boat, listening to their songs.
        Nobody knows exactly why whales sing, but the songs change every year.
        By autumn the whales leave again, heading south to warmer seas.
        """

    @Test func keywordsAreTheMostFrequentContentWordsInTheirLowerCaseForm() throws {
        let suggestions = LocalFallback.suggestions(for: Self.whales, language: "en")
        let keywords = try #require(suggestions.keywords.value)
        #expect(keywords.first == "whales")
        #expect(keywords.contains("krill") && keywords.contains("songs"))
        #expect(keywords.count <= LocalFallback.maximumKeywords)
        // Every one is a content word that occurs twice or more; no stop word.
        for keyword in keywords {
            #expect(!StopWords.all.contains(keyword))
            #expect(Self.whales.lowercased().components(separatedBy: keyword).count - 1 >= 2)
        }
    }

    /// Words are counted as equal `String`s are equal: `café` written with a
    /// combining accent is the same word as `café` written with `é`, and the
    /// keyword takes the form of its last occurrence written in lower case.
    @Test func wordsEqualAsStringsAreCountedAsOneWord() throws {
        let transcript = "rocket café rocket cafe\u{301} cafe\u{301}"
        let keywords = try #require(LocalFallback.suggestions(for: transcript, language: "en").keywords.value)
        #expect(keywords.map { Array($0.utf8) } == [Array("cafe\u{301}".utf8), Array("rocket".utf8)])
        #expect(LocalFallback.suggestions(for: transcript, language: "en") == LocalFallbackReference.suggestions(for: transcript, language: "en"))
    }

    /// The fallback reads what a model is sent: the transcript cut to the
    /// cap. Words that repeat only after the cut count as they would for the
    /// model (not at all).
    @Test func itReadsOnlyThePartAModelIsSent() throws {
        let tail = String(repeating: "\nPenguins slide on the ice. Penguins dive for fish.", count: 20)
        let long = Self.whales + tail
        let cap = Self.whales.count
        let cut = LocalFallback.suggestions(for: long, maxCharacters: cap, language: "en")
        #expect(cut == LocalFallback.suggestions(for: PromptBuilder(maxCharacters: cap).cut(long).text, language: "en"))
        #expect(cut == LocalFallback.suggestions(for: Self.whales, language: "en"))
        #expect(try #require(cut.keywords.value).first == "whales")
        // Read whole, the penguins would win.
        #expect(try #require(LocalFallback.suggestions(for: long, language: "en").keywords.value).first == "Penguins")
    }

    @Test func theEmojiIsOneWhoseCLDRAnnotationIsAWordOfTheTranscript() {
        #expect(LocalFallback.suggestions(for: Self.whales, language: "en").emoji == .applied("🐋"))
        // In French, by CLDR's French annotations ("baleine").
        let french = "Les baleines arrivent au printemps. Une baleine chante pendant des heures. Les baleines repartent en automne."
        #expect(LocalFallback.suggestions(for: french, language: "fr").emoji == .applied("🐋"))
        // The language told from the stop words when the captions declare none.
        #expect(LocalFallback.suggestions(for: french, language: nil).emoji == .applied("🐋"))
        #expect(LocalFallback.language(declared: nil, words: LocalFallback.words(in: french[...]), text: french) == "fr")
        #expect(LocalFallback.language(declared: "de-AT", words: [], text: "") == "de")
        #expect(LocalFallback.language(declared: "nl", words: LocalFallback.words(in: french[...]), text: french) == "fr")
        // No annotated word: the action fails with the reason.
        let plain = "Quarterly revenue exceeded projections. Quarterly margins improved."
        #expect(LocalFallback.suggestions(for: plain, language: "en").emoji.failureMessage?.contains("CLDR") == true)
    }

    /// Japanese is cut by the one word rule (ICU's dictionary), as the
    /// candidates, the decoder and emphasis cut it: "ラーメン" is a word of
    /// both sentences, so it is a keyword, its CLDR annotation gives 🍜, and
    /// emphasis finds the keyword in the captions. (Cut as runs of letters,
    /// each clause was one "word" too long to be content: no keyword, no emoji.)
    @Test func japaneseWordsAreTheOneWordRulesAndGiveKeywordsAndAnEmoji() throws {
        let japanese = """
            今日は東京の新しいラーメン店を紹介します。
            このラーメンはスープがとても濃厚です。
            """
        let suggestions = LocalFallback.suggestions(for: japanese, language: nil)
        let keywords = try #require(suggestions.keywords.value)
        #expect(keywords.first == "ラーメン", "\(keywords)")
        #expect(suggestions.emoji == .applied("🍜"))
        #expect(LocalFallback.words(in: japanese[...]).contains("ラーメン"))
        // Each keyword is one the decoder keeps (a whole word of the transcript).
        for keyword in keywords { #expect(WholeWords.contains(keyword, in: japanese), "\(keyword)") }
        // Words are substrings of the text cut (its indices are theirs).
        let line = japanese.split(separator: "\n")[1]
        for word in LocalFallback.words(in: line) { #expect(line[word.startIndex..<word.endIndex] == word) }
    }

    /// An annotation the word rule cuts into several words (`arc-en-ciel`:
    /// arc, en, ciel) is looked for as a phrase: no one word of a transcript
    /// is ever all of it.
    @Test func anAnnotationOfSeveralWordsIsMatchedAsAPhrase() {
        let french = "Regardez cet arc-en-ciel au-dessus des collines. Un arc-en-ciel double, très rare."
        #expect(LocalFallback.suggestions(for: french, language: "fr").emoji == .applied("🌈"))
        #expect(AnnotationIndex.of("fr")?.phrases.contains { $0.phrase == "arc-en-ciel" } == true)
        // A third of the Japanese annotations are several words by the rule (100点満点).
        #expect(AnnotationIndex.of("ja")?.phrases.contains { $0.phrase == "100点満点" } == true)
        #expect(AnnotationIndex.of("ja")?.phrases.contains { $0.phrase == "ラーメン" } == false)
    }

    @Test func titlesAreThreeDistinctPhrasesOfTheTranscriptWithinTheBounds() throws {
        let titles = try #require(LocalFallback.suggestions(for: Self.whales, language: "en").titles.value)
        #expect(titles.count == 3)
        #expect(Set(titles.map { $0.lowercased() }).count == 3)
        let lines = Self.whales.split(separator: "\n").map { $0.trimmingCharacters(in: .punctuationCharacters).lowercased() }
        for title in titles {
            #expect(LocalFallback.titleLength.contains(title.count), "\(title)")
            #expect(title.first?.isUppercase == true)
            // Extractive: its words are the transcript's, in order; not a whole caption line.
            #expect(Self.whales.lowercased().contains(title.lowercased()), "\(title)")
            #expect(!lines.contains(title.lowercased()), "\(title) is a whole line")
        }
    }

    /// Automatic captions have no punctuation: the whole transcript is one
    /// sentence, so titles come from the phrases of its lines.
    @Test func captionsWithoutPunctuationGetTitlesFromTheirLines() throws {
        let lines = ["so today we look at the rocket engine test", "the rocket engine fired for ninety seconds",
                     "and the launch team says the rocket is ready", "next week the launch window opens"]
        let titles = try #require(LocalFallback.suggestions(for: lines.joined(separator: "\n"), language: "en").titles.value)
        #expect(titles.count == 3)
        #expect(titles.allSatisfy { LocalFallback.titleLength.contains($0.count) })
        #expect(titles.contains("Rocket engine test"))
        // A phrase of one giant sentence is cut at the bound from its first words on.
        let giant = String(repeating: "rocket engine launch ", count: 50_000)
        var text = FallbackText(giant)
        text.markContent(stop: StopWords.all)
        let whole = 0..<text.bytes.count
        let cut = LocalFallback.trimmed(whole, in: &text, counts: LocalFallback.WordCounts(FallbackText("")))
        #expect(cut == nil)  // no word of it is counted, so no score
        let counts = LocalFallback.WordCounts(text)
        let phrase = try #require(LocalFallback.trimmed(whole, in: &text, counts: counts))
        #expect(text.characters(phrase.text) <= LocalFallback.titleLength.upperBound && phrase.cut)
    }

    @Test func aTranscriptTooShortFailsTheTitlesAndEmptyOneEveryAction() {
        let short = LocalFallback.suggestions(for: "Hello everyone, welcome to the show.", language: "en")
        #expect(short.titles.failureMessage?.contains("too short") == true)
        let empty = LocalFallback.suggestions(for: "", language: nil)
        #expect(empty.keywords.failureMessage != nil && empty.titles.failureMessage != nil && empty.emoji.failureMessage != nil)
    }

    @Test func theSameTranscriptGivesTheSameContent() {
        let first = LocalFallback.suggestions(for: Self.whales, language: nil)
        for _ in 0..<5 { #expect(LocalFallback.suggestions(for: Self.whales, language: nil) == first) }
    }

    @Test func stopWordListsCoverTheBenchLanguagesAndTheCandidatesUseThem() {
        // Every list's language has a bit, so a word's stop-word languages say whether it is a stop word.
        #expect(LocalFallback.everyStopWordListHasABit)
        for language in ["en", "de", "es", "fr", "it", "ja", "pt"] { #expect((StopWords.of(language)?.count ?? 0) >= 50, "\(language)") }
        #expect(StopWords.of("en-GB") == StopWords.of("en"))
        #expect(StopWords.of("nl") == nil)
        #expect(KeywordCandidates.functionWords == StopWords.all)
        // Lower case, as words are compared.
        #expect(StopWords.all.allSatisfy { $0 == $0.lowercased() })
    }

    @Test func everyAnnotatedEmojiIsOneOfTheTableOfferedToModels() {
        let table = Set(EmojiTable.entries.map(\.emoji))
        for (language, index) in LocalFallback.annotations {
            #expect(index.count > 200, "\(language) has \(index.count) words")
            for (word, emoji) in index {
                #expect(!emoji.isEmpty && emoji.count <= 6, "\(word)")
                #expect(emoji.allSatisfy(table.contains), "\(word)")
            }
        }
        #expect(Set(LocalFallback.annotations.keys) == ["en", "de", "es", "fr", "it", "ja", "pt"])
    }

    /// Random pieces, small and large scores: the heap gives them in the order of the ranks sorted.
    @Test func rankedPiecesComeInTheOrderOfTheirRanks() {
        var state: UInt64 = 36
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        for round in 0..<200 {
            let count = next(40)
            // Every tenth round holds a score too large for the heap's bits (sorted at once instead).
            let pieces = (0..<count).map { index in
                (cut: next(3) == 0, fromLine: next(2) == 0, score: round % 10 == 9 && index == 0 ? 1 << 40 : next(6), index: index)
            }
            let expected = pieces.map { ($0.cut ? 1 : 0, $0.fromLine ? 1 : 0, -$0.score, $0.index) }.sorted(by: <).map(\.3)
            var ranked = LocalFallback.RankedPieces(pieces)
            var order: [Int] = []
            while let i = ranked.next() { order.append(i) }
            #expect(order == expected, "round \(round)")
        }
    }
}

extension LocalFallbackTests {
    /// Random transcripts of a few content words repeated (many ties of
    /// count): the keywords chosen in one pass (`mostFrequentRepeated`) are
    /// the first `maximumKeywords` of the entries seen twice or more sorted
    /// by count, most first, ties by the one seen first.
    @Test func theMostFrequentAreTheSortsFirst() {
        var state: UInt64 = 0x4B45_5957
        let vocabulary = ["rocket", "launch", "orbit", "crater", "signal", "engine", "planet", "comet", "Rocket", "ORBIT", "the", "and"]
        for _ in 0..<500 {
            var words: [String] = []
            for _ in 0..<Int(state % 60) {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                words.append(vocabulary[Int(state % UInt64(vocabulary.count))])
            }
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            var text = FallbackText(words.joined(separator: state % 3 == 0 ? "\n" : " "))
            text.markContent(stopWordsOf: "en")
            let counts = LocalFallback.WordCounts(text)
            let sorted = counts.entries.indices.filter { counts.entries[$0].count >= 2 }
                .sorted { (counts.entries[$0].count, -counts.entries[$0].first) > (counts.entries[$1].count, -counts.entries[$1].first) }
            #expect(counts.mostFrequentRepeated == Array(sorted.prefix(LocalFallback.maximumKeywords)), "\(words)")
        }
    }
}
