import Words

/// Content taken from the transcript itself, for a run that asks for a
/// fallback when no model answers: the same three actions, made on this
/// machine, deterministically (the same transcript always gives the same
/// content), from nothing but the transcript, the stop-word lists
/// (`StopWords`) and CLDR's emoji annotations (`EmojiAnnotations`). A run
/// gives it the part of the transcript a model is sent (the cap's cut,
/// `suggestions(for:maxCharacters:language:)`), so its cost does not grow
/// with the file.
///
/// - **Keywords**: the content words (not stop words of the transcript's
///   language, three or more letters) that occur twice or more, the most
///   frequent first (at most `maximumKeywords`; ties: the one seen first);
///   in a transcript where no content word repeats, the three longest.
/// - **Emoji**: the emoji of the table offered to models (`EmojiTable`)
///   whose CLDR annotations, in the transcript's language, name the content
///   words the transcript uses most (a plural `s` may be dropped to match).
/// - **Titles**: three distinct phrases of 8 to 60 characters cut from the
///   transcript's sentences and clauses, without the stop words at their
///   ends, whole clauses (then phrases of caption lines) before ones cut at
///   the bound, those holding the most frequent content words first; a phrase that is a whole caption
///   line is taken only when there are not three others. Captions without
///   punctuation give phrases of their lines instead. When all these give
///   fewer than three, the keywords joined (`Rocket · Launch · Orbit`) make one.
///
/// An action it cannot give fails with the reason (no content word, no
/// annotated word, too little text for three titles). The transcript's
/// language is the one the captions declare, when there is a list for it;
/// else the language whose stop words the transcript uses most (Japanese
/// when it is written mostly in kana and kanji).
///
/// Words are cut by one function, `words(in:)`: the project's one word rule
/// (`WordScanner`), so a Japanese transcript's words are ICU's, not runs of
/// characters between punctuation.
public enum LocalFallback {
    /// The most keywords given.
    public static let maximumKeywords = 5
    /// The shortest and longest title, in `Character`s: the bounds of the model's titles.
    public static let titleLength = AnswerSchema.titleLength
    /// The three actions for the part of `transcript` (cue texts, one cue a
    /// line) that a model is sent: the cut to `maxCharacters` `Character`s
    /// (`PromptBuilder.cut`), as the model's content comes from that part
    /// alone; `language` as for `suggestions(for:language:)`.
    public static func suggestions(for transcript: String, maxCharacters: Int, language declared: String?) -> Suggestions {
        suggestions(for: PromptBuilder(maxCharacters: maxCharacters).cut(transcript).text, language: declared)
    }

    /// The three actions for `transcript` (cue texts, one cue a line), whose
    /// language the captions declare as `language` (a BCP 47 tag), if they do.
    public static func suggestions(for transcript: String, language declared: String?) -> Suggestions {
        var text = FallbackText(transcript)
        let language = self.language(declared: declared, text: transcript) { text.countStopWords(into: &$0) }
        text.markContent(stopWordsOf: language)
        let counts = WordCounts(text)

        // The gate the model's keywords pass (hidden characters, bytes): a word of the captions may fail it too.
        let keywords = counts.keywords.filter { ServerTextGate.flaw($0, maxCharacters: SuggestionDecoder().maxKeywordLength) == nil }
        return Suggestions(
            keywords: keywords.isEmpty ? .failed("the transcript has no content word to emphasise (every word is short or a stop word)") : .applied(keywords),
            titles: titles(&text, counts: counts, keywords: keywords),
            emoji: emoji(counts: counts, language: language, text: text, transcript: transcript))
    }

    /// The words of `text` (substrings of it), as the project's one word
    /// rule cuts them (`WordScanner`: Unicode word boundaries, ICU's
    /// dictionaries for scripts written without spaces), the rule the keyword
    /// candidates, the decoder and emphasis follow. The fallback cuts words
    /// with it alone (`FallbackText`, which scans bytes with the same scanner).
    static func words(in text: Substring) -> [Substring] {
        WordScanner().words(in: text)
    }

    // MARK: Language

    /// The languages with stop words, in the order that breaks ties.
    static let languages = ["en", "de", "es", "fr", "it", "pt", "ja"]

    /// For each stop word of any language, the languages (bits, in
    /// `languages`' order) it is a stop word of: one look-up a word.
    static let stopWordLanguages: [String: UInt8] = {
        var table: [String: UInt8] = [:]
        for (i, language) in languages.enumerated() {
            for word in StopWords.byLanguage[language] ?? [] { table[word, default: 0] |= 1 << i }
        }
        return table
    }()

    /// `stopWordLanguages` of the ASCII words, looked up by their bytes
    /// (`stopWordLanguages(ofASCII:lowered:)`). A word is in lower case
    /// when it is looked up, so a list's word with a capital is left out (it
    /// is equal to no such word); no list's word outside ASCII is equal to an
    /// ASCII word as `String`s are (a test checks it), so ASCII words are all.
    static let asciiStopWords = LowerCaseTable.Shared<UInt8>(stopWordLanguages.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })

    /// `stopWordLanguages` of the ASCII word `word` in lower case (its bytes
    /// lowered), whose lowered bytes hash to `hash` (`LowerCaseTable.hash`):
    /// no `String` made, no `String` hashed.
    static func stopWordLanguages(ofASCII word: UnsafeBufferPointer<UInt8>, lowered hash: UInt64) -> UInt8 {
        stopWordLanguages(ofASCII: word, lowered: hash, in: asciiStopWords)
    }

    /// `stopWordLanguages(ofASCII:lowered:)` looked up in `table` (`asciiStopWords`, read once by the caller).
    @inline(__always)
    static func stopWordLanguages(ofASCII word: UnsafeBufferPointer<UInt8>, lowered hash: UInt64, in table: LowerCaseTable.Shared<UInt8>) -> UInt8 {
        table.value(ofASCII: word, lowered: hash) ?? 0
    }

    /// The transcript's language: `declared` (its primary subtag) when there
    /// is a stop-word list for it; else Japanese when kana and kanji outnumber
    /// Latin letters; else the language whose stop words are most of its words.
    static func language<Words: Sequence<Substring>>(declared: String?, words: Words, text: String) -> String {
        language(declared: declared, lowers: words.lazy.map { $0.lowercased() }, text: text)
    }

    /// `language(declared:words:text:)` for the words given in lower case.
    static func language<Lowers: Sequence<String>>(declared: String?, lowers: Lowers, text: String) -> String {
        language(declared: declared, text: text) { hits in
            for key in lowers {
                if let bits = stopWordLanguages[key] { count(bits, times: 1, into: &hits) }
            }
        }
    }

    /// `language(declared:words:text:)` with the stop words counted by
    /// `countStopWords`: for each language (in `languages`' order), how many
    /// of the transcript's words are its stop words, added to the counts it is given.
    static func language(declared: String?, text: String, countStopWords: (inout [Int]) -> Void) -> String {
        if let declared, StopWords.of(declared) != nil {
            return declared.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        }
        if isMostlyJapanese(text) { return "ja" }
        var hits = [Int](repeating: 0, count: languages.count)
        countStopWords(&hits)
        guard let best = hits.indices.max(by: { (hits[$0], -$0) < (hits[$1], -$1) }), hits[best] > 0 else { return "en" }
        return languages[best]
    }

    /// Whether every stop-word list's language is one of `languages` (so has a bit in `stopWordLanguages`).
    static let everyStopWordListHasABit = Set(StopWords.byLanguage.keys).isSubset(of: languages)

    /// The bits (`stopWordLanguages`) of the languages whose stop words are
    /// those of `language` (`StopWords.of(language) ?? StopWords.all`), or nil
    /// when no bits say it (a list of a language not in `languages`).
    static func stopWordMask(_ language: String) -> UInt8? {
        guard everyStopWordListHasABit else { return nil }
        if StopWords.of(language) == nil { return UInt8((1 << languages.count) - 1) }
        return languages.firstIndex(of: language).map { 1 << UInt8($0) }
    }

    /// Adds `times` to the count of each language whose bit `bits` has (`stopWordLanguages`).
    @inline(__always)
    static func count(_ bits: UInt8, times: Int, into hits: inout [Int]) {
        for i in languages.indices where bits & (1 << i) != 0 { hits[i] += times }
    }

    /// Whether more scalars of `text` are kana or CJK ideographs (U+3040–U+30FF,
    /// U+4E00–U+9FFF) than Latin letters (A–Z, a–z, U+00C0–U+024F), read from
    /// the UTF-8 lead bytes. It stops when the rest of the text cannot change
    /// the answer (a kana or ideograph is three bytes, a Latin letter one or two).
    static func isMostlyJapanese(_ text: String) -> Bool {
        CharacterSteps.withBytes(text) { p, _ in
            var japanese = 0, latin = 0
            var i = 0
            while i < p.count {
                if i & 63 == 0 {
                    let rest = p.count - i
                    if japanese + rest / 3 <= latin { return false }
                    if latin + rest < japanese { return true }
                }
                // Eight ASCII bytes: their letters counted at once (the answer does not depend on where the checks stop).
                if i & 7 == 0, i + 8 <= p.count, let base = p.baseAddress {
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if w & 0x8080_8080_8080_8080 == 0 {
                        latin += asciiLetterCount(w)
                        i += 8
                        continue
                    }
                }
                let b = p[i]
                switch b {
                case 0x41...0x5A, 0x61...0x7A: latin += 1
                case 0xC3...0xC8: latin += 1                                  // U+00C0–U+023F
                case 0xC9: if p[i + 1] < 0x90 { latin += 1 }                   // U+0240–U+024F
                case 0xE3: if p[i + 1] &- 0x81 < 3 { japanese += 1 }           // U+3040–U+30FF
                case 0xE4: if p[i + 1] >= 0xB8 { japanese += 1 }               // U+4E00–U+4FFF
                case 0xE5...0xE9: japanese += 1                                // U+5000–U+9FFF
                default: break                                                 // other scalars; continuation bytes
                }
                i += 1
            }
            return japanese > latin
        }
    }

    /// How many of the eight ASCII bytes of `w` are letters (A–Z, a–z; `LowerCaseTable.letters`).
    @inline(__always)
    static func asciiLetterCount(_ w: UInt64) -> Int {
        LowerCaseTable.letters(packed: w).nonzeroBitCount
    }

    // MARK: Keywords

    /// How often each content word occurs (compared in lower case), with the
    /// form it is given in and where it was first seen.
    struct WordCounts {
        struct Entry {
            /// The word in lower case, and its number (`FallbackText.Word.lower`).
            var lower: String
            var number: Int32
            /// The bytes of the word as written in `FallbackText.text`: lower case when it ever occurs so, else as first seen.
            var form: Range<Int>
            var count: Int
            var first: Int
        }
        /// In the order first seen.
        private(set) var entries: [Entry] = []
        /// The text the entries' forms are bytes of (`FallbackText.text`): a form is made a `String` only for a keyword.
        private let source: String
        /// For each lower case's number, its entry (-1: none, not a content word).
        private var entryOf: [Int32] = []

        /// The counts of the lines' words of `text` (its content words marked).
        init(_ text: FallbackText) {
            source = text.text
            entryOf = [Int32](repeating: -1, count: text.lowers.count)
            // The word whose form each entry takes: the last written in lower case, else the first.
            for (index, word) in text.words.prefix(text.lineWordCount).enumerated() where word.isContent {
                let e = Int(entryOf[Int(word.lower)])
                if e >= 0 {
                    entries[e].count += 1
                    if word.formIsLower { entries[e].form = word.range }
                } else {
                    entryOf[Int(word.lower)] = Int32(entries.count)
                    entries.append(Entry(lower: text.lower(word), number: word.lower, form: word.range, count: 1, first: index))
                }
            }
        }

        /// The word of `entry` as written.
        func form(_ entry: Entry) -> String { String(FallbackText.substring(source, entry.form)) }

        /// How often the content word whose lower case has number `lower` occurs (0 for a stop word).
        func count(lower: Int32) -> Int {
            let n = Int(lower)
            guard n < entryOf.count, entryOf[n] >= 0 else { return 0 }
            return entries[Int(entryOf[n])].count
        }

        /// The indices of the `maximumKeywords` entries seen twice or more that
        /// occur most often, most frequent first (ties: the one seen first):
        /// the first of them sorted that way, chosen in one pass over the
        /// entries (no two have the same `first`, so the order is the sort's).
        var mostFrequentRepeated: [Int] {
            let most = LocalFallback.maximumKeywords
            var top: [Int] = []
            top.reserveCapacity(most + 1)
            entries.withUnsafeBufferPointer { entries in
                for k in entries.indices where entries[k].count >= 2 {
                    // Entries come in the order first seen: one ranks before those with fewer occurrences only.
                    var at = top.count
                    while at > 0, entries[top[at - 1]].count < entries[k].count { at -= 1 }
                    guard at < most else { continue }
                    top.insert(k, at: at)
                    if top.count > most { top.removeLast() }
                }
            }
            return top
        }

        /// The keywords: the words seen twice or more, most frequent first;
        /// when none repeats, the three longest.
        var keywords: [String] {
            let repeated = mostFrequentRepeated
            if !repeated.isEmpty { return repeated.map { form(entries[$0]) } }
            let forms = entries.map { (form: form($0), first: $0.first) }
            return forms.sorted { ($0.form.count, -$0.first) > ($1.form.count, -$1.first) }.prefix(3).map(\.form)
        }
    }

    /// Whether `word` is a content word: not a stop word, with a letter, at
    /// most 40 `Character`s; three or more in scripts written with spaces;
    /// two or more in those written without, and not all hiragana (Japanese
    /// particles and endings). `isStop(asWritten)` says whether the word is a
    /// stop word, as written or in lower case.
    static func isContent(_ word: FallbackText.Word, isStop: (_ asWritten: Bool) -> Bool) -> Bool {
        let count = Int(word.characters)
        guard count <= 40, word.hasLetter else { return false }
        if word.range.count >= 3 * count {
            return count >= 2 && !word.allHiragana && !isStop(true)
        }
        return count >= 3 && !isStop(false)
    }

    // MARK: Emoji

    /// Each language's annotation words: word → the emoji it annotates, in
    /// table order (`AnnotationIndex.words`). Every language's at once: a run
    /// asks `AnnotationIndex.of` for the one language it needs.
    static var annotations: [String: [String: [String]]] {
        Dictionary(uniqueKeysWithValues: AnnotationIndex.languages.compactMap { language in
            AnnotationIndex.of(language).map { (language, $0.words) }
        })
    }

    /// The emoji that a language's annotations (`tables`) give the
    /// lower-case word `key`, as numbers (`AnnotationIndex.emojiByNumber`),
    /// or, when none do and it is longer than three `Character`s and ends in
    /// `s`, the word without that `s` (a plural). An ASCII word is looked up by its bytes.
    static func annotated(_ key: String, in tables: AnnotationIndex) -> [Int32]? {
        // nil: not ASCII (looked up as a `String`); .some(nil): no emoji.
        if let read = key.utf8.withContiguousStorageIfAvailable({ p -> [Int32]?? in
            guard p.allSatisfy({ $0 < 0x80 }) else { return nil }
            // A key is in lower case: its bytes are its lowered bytes.
            var stemHash = LowerCaseTable.hashStart
            for b in p.dropLast() { stemHash = LowerCaseTable.hash(stemHash, b) }
            let hash = p.last.map { LowerCaseTable.hash(stemHash, $0) } ?? stemHash
            if let emoji = tables.ascii.value(ofASCII: p, lowered: hash) { return .some(emoji) }
            guard p.count > 3, p[p.count - 1] == 0x73 else { return .some(nil) }
            return .some(tables.ascii.value(ofASCII: UnsafeBufferPointer(rebasing: p[..<(p.count - 1)]), lowered: stemHash))
        }), let found = read {
            return found
        }
        var emoji = tables.words[key]
        if emoji == nil, key.count > 3, key.hasSuffix("s") { emoji = tables.words[String(key.dropLast())] }
        return emoji.map(tables.numbers(ofEmoji:))
    }

    /// Each emoji's place in `EmojiTable`, which breaks the last ties.
    static let tableOrder: [String: Int] = Dictionary(EmojiTable.entries.enumerated().map { ($1.emoji, $0) },
                                                      uniquingKeysWith: { first, _ in first })

    /// The emoji whose annotations in `language` name the content words the
    /// transcript uses most: each word counts as often as it occurs, and an
    /// annotation of several words (`AnnotationIndex.phrases`) as often as it occurs
    /// in `transcript` as whole words (ties: the emoji whose word was seen
    /// first, then table order). `text` is `transcript` as the fallback reads it.
    static func emoji(counts: WordCounts, language: String, text: FallbackText, transcript: String) -> ActionOutcome<String> {
        guard let tables = AnnotationIndex.of(language) else {
            return .failed("there are no emoji annotations in the transcript's language (\(language))")
        }
        guard let best = emojiScores(counts: counts, tables: tables, text: text, transcript: transcript).min(by: ranksBefore) else {
            return .failed("no word of the transcript is one that CLDR annotates an emoji of the table with")
        }
        return .applied(tables.emojiByNumber[Int(best.emoji)])
    }

    /// The emoji of the table whose CLDR annotations in the transcript's
    /// language name its content words, best first (the order `emoji` picks
    /// by), at most `limit`: what the answer's schema offers a model first
    /// (`AnswerSchema`), by the rule this fallback picks its own emoji by.
    public static func relatedEmoji(for transcript: String, limit: Int) -> [String] {
        var text = FallbackText(transcript)
        let language = self.language(declared: nil, text: transcript) { text.countStopWords(into: &$0) }
        text.markContent(stopWordsOf: language)
        guard let tables = AnnotationIndex.of(language) else { return [] }
        let scores = emojiScores(counts: WordCounts(text), tables: tables, text: text, transcript: transcript)
        return scores.sorted(by: ranksBefore).prefix(limit).map { tables.emojiByNumber[Int($0.emoji)] }
    }

    /// Whether the emoji `a` ranks before `b`: the higher score, then the
    /// word seen first, then the table's order (the emoji's numbers, `AnnotationIndex.emojiByNumber`).
    static func ranksBefore(_ a: (emoji: Int32, score: EmojiScore), _ b: (emoji: Int32, score: EmojiScore)) -> Bool {
        (-a.score.score, a.score.first, a.emoji) < (-b.score.score, b.score.first, b.emoji)
    }

    /// How often an emoji's annotations name the transcript's content words, and the first such word.
    typealias EmojiScore = (score: Int, first: Int)

    /// Every emoji an annotation (`tables`, the transcript's language's) of
    /// a content word names (by number, `AnnotationIndex.emojiByNumber`),
    /// with its score, in the order first named.
    static func emojiScores(counts: WordCounts, tables: AnnotationIndex, text: FallbackText, transcript: String) -> [(emoji: Int32, score: EmojiScore)] {
        var scores: [(emoji: Int32, score: EmojiScore)] = []
        // Each emoji's place in `scores` (-1: none yet).
        var place = [Int32](repeating: -1, count: tables.emojiByNumber.count)
        func add(_ e: Int32, _ count: Int, first: Int) {
            let k = Int(place[Int(e)])
            if k < 0 {
                place[Int(e)] = Int32(scores.count)
                scores.append((e, (count, first)))
            } else {
                scores[k].score = (scores[k].score.score + count, min(scores[k].score.first, first))
            }
        }
        for entry in counts.entries {
            for e in annotated(entry.lower, in: tables) ?? [] { add(e, entry.count, first: entry.first) }
        }
        let found = text.occurrences(of: tables.phraseMatcher, transcript: transcript)
        for (emoji, found) in zip(tables.phraseEmoji, found) where found.count > 0 {
            for e in emoji { add(e, found.count, first: found.firstWord ?? Int.max) }
        }
        return scores
    }

    // MARK: Titles

    /// Whether `title` may be one: the model's titles' form (`ServerTextGate.flaw`: no control or
    /// hidden character, at most `titleLength.upperBound` characters and 16 bytes a character, so a
    /// word with 100,000 combining marks is no "37-character" title) and length in characters.
    static func isUsableTitle(_ title: String) -> Bool {
        ServerTextGate.flaw(title, maxCharacters: titleLength.upperBound) == nil && titleLength.contains(title.count)
    }

    /// A phrase that may be a title, as `trimmed` finds it: its title and
    /// key are made only when the choice reaches it (`titles`).
    struct TitlePiece {
        /// The phrase's bytes in `FallbackText.text`.
        var text: Range<Int>
        /// Its words (indices into `FallbackText.words`).
        var words: ArraySlice<Int>
        var score: Int
        var sentence: Int
        /// Cut short at the length bound (before its last content word).
        var cut: Bool
        /// Taken from a caption line rather than a sentence (for captions without punctuation).
        var fromLine: Bool
    }

    /// A phrase that may be a title, with its title made.
    struct TitleCandidate {
        var text: String
        /// `normalised(text)`, found once.
        var key: String
        var sentence: Int
        var copiesALine: Bool
    }

    /// Three titles: each sentence, each clause of a sentence of several, and
    /// each line give a phrase (`trimmed`); those whose title passes
    /// `isUsableTitle` are ranked (a copy of a whole caption line last, then
    /// those cut at the bound, then phrases of lines, then the higher score,
    /// then the order found) and taken in that order, one per sentence first,
    /// then any, never two with the same key.
    ///
    /// A phrase's title and key are made only when the choice reaches it:
    /// the phrases are ordered by the rest of the rank, and those that copy a
    /// line are set aside as they are met, so the choice stops after the few
    /// it takes when the first phrases do.
    static func titles(_ text: inout FallbackText, counts: WordCounts, keywords: [String]) -> ActionOutcome<[String]> {
        var pieces: [TitlePiece] = []
        func consider(_ piece: Range<Int>, sentence: Int, fromLine: Bool, words: ArraySlice<Int>? = nil) {
            guard let phrase = trimmed(piece, in: &text, counts: counts, words: words) else { return }
            pieces.append(TitlePiece(text: phrase.text, words: phrase.words, score: phrase.score, sentence: sentence,
                                     cut: phrase.cut, fromLine: fromLine))
        }
        let (sentences, clauses) = Self.sentences(of: text)
        pieces.reserveCapacity(sentences.count + clauses.count + text.lines.count)
        for (sentence, part) in sentences.enumerated() {
            consider(part.sentence, sentence: sentence, fromLine: false)
            if part.clauses.count > 1 {
                for clause in clauses[part.clauses] { consider(clause, sentence: sentence, fromLine: false) }
            }
        }
        let sentencePieces = pieces.count
        var lineKeys = LineKeys()
        var chosen: [String] = []
        var seen: Set<String> = []
        var usedSentences: Set<Int> = []
        func choose(_ c: TitleCandidate, anySentence: Bool) {
            guard chosen.count < 3, !seen.contains(c.key), anySentence || !usedSentences.contains(c.sentence) else { return }
            chosen.append(c.text)
            seen.insert(c.key)
            usedSentences.insert(c.sentence)
        }
        // One title per sentence first, then any; each phrase's title made when first reached.
        var others: [TitleCandidate] = [], copies: [TitleCandidate] = []
        func take(_ order: RankedPieces) {
            var order = order
            while chosen.count < 3, let i = order.next() {
                let piece = pieces[i]
                let (title, key, fromWords) = cleaned(piece.text, words: piece.words, in: text)
                guard isUsableTitle(title) else { continue }
                let copiesALine = fromWords ? lineKeys.contains(words: piece.words, in: text) : lineKeys.contains(key: key, in: text)
                let c = TitleCandidate(text: title, key: key, sentence: piece.sentence, copiesALine: copiesALine)
                if copiesALine { copies.append(c) } else { others.append(c); choose(c, anySentence: false) }
            }
        }
        // Whole clauses of sentences first, then phrases of lines, then those
        // cut at the bound (and a copy of a whole caption line after all of them).
        func ranked(_ indices: [Int]) -> RankedPieces { RankedPieces(indices.map { (pieces[$0].cut, pieces[$0].fromLine, pieces[$0].score, $0) }) }
        // The whole clauses of sentences rank first: when three titles come
        // from them, no line's phrase could be chosen, and none is made.
        take(ranked((0..<sentencePieces).filter { !pieces[$0].cut }))
        if chosen.count < 3 {
            // Captions written without punctuation (automatic ones) are one long
            // sentence: their lines are the phrases, after every sentence's.
            for line in text.lines.indices {
                consider(text.lines[line], sentence: -1 - line, fromLine: true, words: text.lineWords(line))
            }
            take(ranked(pieces.indices.filter { $0 >= sentencePieces || pieces[$0].cut }))
        }
        for c in copies { choose(c, anySentence: false) }
        for c in others + copies { choose(c, anySentence: true) }
        if chosen.count < 3, keywords.count >= 2 {
            let joined = keywords.prefix(3).map(capitalised).joined(separator: " · ")
            if isUsableTitle(joined), !seen.contains(normalised(joined[...])) { chosen.append(joined) }
        }
        guard chosen.count == 3 else {
            return .failed("the transcript is too short to take three distinct titles of \(titleLength.lowerBound) to \(titleLength.upperBound) characters from (it gave \(chosen.count))")
        }
        return .applied(chosen)
    }

    /// Pieces (their indices) in the order titles are taken from them: not
    /// cut before cut, from sentences before from lines, the higher score,
    /// then the order found. Each is ranked when it is asked for (a heap of
    /// the ranks as plain numbers): the choice usually stops after a few of them.
    struct RankedPieces {
        /// Each piece's rank as one number (the four parts in its bits, the first highest), a min-heap.
        private var heap: [UInt64]
        /// The pieces in order, when a score or an index is too large for its bits (then sorted at once).
        private var sorted: [Int]? = nil

        init(_ pieces: [(cut: Bool, fromLine: Bool, score: Int, index: Int)]) {
            let bound = Int(UInt32.max >> 1)
            guard pieces.allSatisfy({ $0.score >= 0 && $0.score <= bound && $0.index >= 0 && $0.index <= bound }) else {
                heap = []
                sorted = pieces.map { ($0.cut ? 1 : 0, $0.fromLine ? 1 : 0, -$0.score, $0.index) }.sorted(by: <).map(\.3).reversed()
                return
            }
            heap = pieces.map { piece in
                (piece.cut ? 1 << 63 : 0) | (piece.fromLine ? 1 << 62 : 0)
                    | UInt64(bound - piece.score) << 31 | UInt64(piece.index)
            }
            // Heapified from the last parent down.
            var k = heap.count / 2
            while k > 0 {
                k -= 1
                siftDown(k)
            }
        }

        /// The next piece's index, or nil after the last.
        mutating func next() -> Int? {
            if sorted != nil { return sorted?.popLast() }
            guard let first = heap.first else { return nil }
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
            return Int(first & UInt64(UInt32.max >> 1))
        }

        private mutating func siftDown(_ start: Int) {
            var k = start
            let count = heap.count
            while true {
                let left = 2 * k + 1
                guard left < count else { return }
                let child = left + 1 < count && heap[left + 1] < heap[left] ? left + 1 : left
                guard heap[child] < heap[k] else { return }
                heap.swapAt(child, k)
                k = child
            }
        }
    }

    /// The keys of a transcript's lines (`normalised`), for the question
    /// whether a title's key is one: each line's key is its words' lower
    /// cases (`FallbackText.Word.lower`), so no line's key is made as a string.
    ///
    /// The first questions read the lines in turn (a word count and a few
    /// numbers each): a transcript's titles are usually found after a few.
    /// Past `linearQuestions`, the lines are hashed once (by their numbers),
    /// so a transcript whose phrases all copy lines costs its lines once, not
    /// once per phrase.
    struct LineKeys {
        /// A line whose words hash to it, by the hash; made at the question after the `linearQuestions`th.
        private var lines: [Int: Int]? = nil
        private var questions = 0
        /// How many questions read the lines in turn.
        static let linearQuestions = 16

        /// Whether the words at `words` (indices into `text.words`) have a line's key.
        mutating func contains(words: ArraySlice<Int>, in text: FallbackText) -> Bool {
            contains(words.lazy.map { text.words[$0].lower }, in: text)
        }

        /// Whether `key` (words in lower case, one space between them) is a line's key.
        mutating func contains(key: String, in text: FallbackText) -> Bool {
            var numbers: [Int32] = []
            for part in key.utf8.split(separator: 0x20) {
                // A word that no line has makes a key no line has.
                guard let found = text.lowers.number(ifPresent: String(decoding: part, as: UTF8.self)) else { return false }
                numbers.append(found)
            }
            return contains(numbers, in: text)
        }

        private mutating func contains<Numbers: Collection<Int32>>(_ numbers: Numbers, in text: FallbackText) -> Bool {
            questions += 1
            guard questions > Self.linearQuestions else { return Self.hasLine(numbers, in: text) }
            let lines = self.lines ?? Self.hashed(text)
            self.lines = lines
            func isLine(_ line: Int) -> Bool { text.lineWords(line).lazy.map { text.words[$0].lower }.elementsEqual(numbers) }
            guard let line = lines[Self.hash(numbers)] else { return false }
            // Another sequence with the same hash: every line is asked.
            return isLine(line) || text.lines.indices.contains(where: isLine)
        }

        /// Whether a line of `text` has the words whose lower cases are `numbers`, the lines read in turn.
        static func hasLine<Numbers: Collection<Int32>>(_ numbers: Numbers, in text: FallbackText) -> Bool {
            let count = numbers.count
            return text.words.withUnsafeBufferPointer { words in
                text.lineStarts.withUnsafeBufferPointer { starts in
                    for line in 0..<(starts.count - 1) where starts[line + 1] - starts[line] == count {
                        if words[starts[line]..<starts[line + 1]].lazy.map(\.lower).elementsEqual(numbers) { return true }
                    }
                    return false
                }
            }
        }

        /// Each line of `text` by the hash of its words' numbers (the first line of each hash).
        private static func hashed(_ text: FallbackText) -> [Int: Int] {
            var lines: [Int: Int] = [:]
            lines.reserveCapacity(text.lines.count)
            text.words.withUnsafeBufferPointer { words in
                for line in text.lines.indices {
                    let hash = Self.hash(words[text.lineStarts[line]..<text.lineStarts[line + 1]].lazy.map(\.lower))
                    if lines[hash] == nil { lines[hash] = line }
                }
            }
            return lines
        }

        /// A hash of `numbers` (equal sequences, equal hashes; `lines` hashes it once more as its key).
        private static func hash<Numbers: Sequence<Int32>>(_ numbers: Numbers) -> Int {
            var h: UInt64 = 0x243F_6A88_85A3_08D3
            for n in numbers { h = (h ^ UInt64(UInt32(bitPattern: n))) &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
            return Int(truncatingIfNeeded: h)
        }
    }

    /// The sentences of `text` with their clauses: its bytes cut after the
    /// `Character`s that end a sentence, each sentence cut after those that
    /// end a clause. An end is kept with the part before it, when white space
    /// or the end of the text follows it, or it is written in a script
    /// without spaces. Parts without a letter are left out (a sentence's
    /// clauses are those of the sentences kept).
    ///
    /// One pass over the text finds both: the ends are one scalar each, so a
    /// `Character` is one exactly when it is that scalar alone; `Characters`
    /// are stepped by `CharacterSteps` (bytes for ASCII, the standard
    /// library's clusters otherwise). A clause end that is the last
    /// `Character` of its sentence is one at the text's end (a sentence's
    /// last `Character` is otherwise its sentence end).
    ///
    /// The clauses of all sentences are in one array (`clauses`), each
    /// sentence's a range of it, so no array is made per sentence.
    static func sentences(of text: FallbackText) -> (sentences: [(sentence: Range<Int>, clauses: Range<Int>)], clauses: [Range<Int>]) {
        let cut = CharacterSteps.withBytes(text.text) { p, string -> SentenceCut in
            // A struct made here, not variables a nested function captures: its accesses are checked when compiled.
            var cut = SentenceCut()
            let count = p.count
            var i = 0
            while i < count {
                // Eight ASCII `Character`s: none before the first ASCII end (. ! ? , ; :) among them is an end.
                if CharacterSteps.eightSingleASCII(p, i), let base = p.baseAddress {
                    let before = asciiBytesBeforeAnEnd(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                    if before > 0 {
                        i += before
                        continue
                    }
                }
                // An ASCII byte before an ASCII byte is a `Character` of its own (but CR LF): most are no end.
                let b = p[i]
                if b < 0x80, b != 0x0D, i + 1 == count || p[i + 1] < 0x80 {
                    switch b {
                    case 0x2E, 0x21, 0x3F, 0x2C, 0x3B, 0x3A: break
                    default:
                        i += 1
                        continue
                    }
                }
                let next = CharacterSteps.end(of: i, in: p, text: string)
                let isSentenceEnd = isEnd(p, i, next, sentences: true)
                if isSentenceEnd || isEnd(p, i, next, sentences: false),
                   next == count || next - i >= 3 || startsWithWhiteSpace(p, next) {
                    if isSentenceEnd {
                        cut.endSentence(next, in: text)
                    } else {
                        cut.endClause(next)
                    }
                }
                i = next
            }
            if cut.sentenceStart < count { cut.endSentence(count, in: text) }
            return cut
        }
        return (cut.sentences, cut.clauses)
    }

    /// The sentences and clauses `sentences(of:)` has found, as it reads a text.
    private struct SentenceCut {
        var sentences: [(sentence: Range<Int>, clauses: Range<Int>)] = []
        var clauses: [Range<Int>] = []
        var sentenceStart = 0, clauseStart = 0
        /// Where the clauses of the sentence being read start in `clauses`.
        var firstClause = 0

        /// A clause ends at byte `end`.
        mutating func endClause(_ end: Int) {
            clauses.append(clauseStart..<end)
            clauseStart = end
        }

        /// A sentence ends at byte `end`: kept with its clauses that hold a letter, when it holds one.
        mutating func endSentence(_ end: Int, in text: FallbackText) {
            if clauseStart < end { clauses.append(clauseStart..<end) }
            // Its clauses with a letter, kept in place. They are cut at its `Character`s'
            // boundaries and cover it, so it holds a letter when one of them does.
            var kept = firstClause
            for k in firstClause..<clauses.count where text.hasLetter(clauses[k]) {
                if kept != k { clauses[kept] = clauses[k] }
                kept += 1
            }
            if kept < clauses.count { clauses.removeLast(clauses.count - kept) }
            if kept > firstClause { sentences.append((sentenceStart..<end, firstClause..<kept)) }
            firstClause = clauses.count
            sentenceStart = end
            clauseStart = end
        }
    }

    /// Whether one of the eight ASCII bytes of `w` is `.`, `!`, `?`, `,`, `;`
    /// or `:`, the ASCII sentence and clause ends (`isEnd`): a byte equal to
    /// one of them is a zero byte of `w` XOR that byte repeated (a zero byte
    /// always sets its high bit in the test; a borrow only follows a zero byte).
    @inline(__always)
    static func holdsAnASCIIEnd(_ w: UInt64) -> Bool {
        asciiBytesBeforeAnEnd(w) < 8
    }

    /// How many of the eight ASCII bytes of `w` (read little-endian: the
    /// first in memory is the lowest) come before the first that is an ASCII
    /// end (`holdsAnASCIIEnd`); 8 when none is. A zero byte of `w` XOR an end
    /// repeated sets the high bit of its byte in the test, and a false one can
    /// only be above a true one (a borrow runs upwards from a zero byte), so
    /// the lowest bit set is exact.
    @inline(__always)
    static func asciiBytesBeforeAnEnd(_ w: UInt64) -> Int {
        // `.` `,` and `!` first: 0x2E, 0x2C, 0x21; then `?` `;` `:`: 0x3F, 0x3B, 0x3A.
        let any = ByteLanes.bytes(w, equalTo: 0x2E) | ByteLanes.bytes(w, equalTo: 0x2C) | ByteLanes.bytes(w, equalTo: 0x21)
            | ByteLanes.bytes(w, equalTo: 0x3F) | ByteLanes.bytes(w, equalTo: 0x3B) | ByteLanes.bytes(w, equalTo: 0x3A)
        return UInt64(littleEndian: any).trailingZeroBitCount / 8
    }

    /// Whether the `Character` at `i..<next` ends a sentence (`. ! ? … 。 ！ ？ ♪ ♫ ♬`)
    /// or, without `sentences`, a clause (`, ; : — – 、 ，`).
    @inline(__always)
    static func isEnd(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ next: Int, sentences: Bool) -> Bool {
        switch next - i {
        case 1:
            switch p[i] {
            case 0x2E, 0x21, 0x3F: return sentences       // . ! ?
            case 0x2C, 0x3B, 0x3A: return !sentences      // , ; :
            default: return false
            }
        case 3:
            switch (p[i], p[i + 1], p[i + 2]) {
            case (0xE2, 0x80, 0xA6), (0xE3, 0x80, 0x82), (0xEF, 0xBC, 0x81), (0xEF, 0xBC, 0x9F),
                 (0xE2, 0x99, 0xAA), (0xE2, 0x99, 0xAB), (0xE2, 0x99, 0xAC): return sentences   // … 。 ！ ？ ♪ ♫ ♬
            case (0xE2, 0x80, 0x94), (0xE2, 0x80, 0x93), (0xE3, 0x80, 0x81), (0xEF, 0xBC, 0x8C): return !sentences  // — – 、 ，
            default: return false
            }
        default: return false
        }
    }

    /// Whether the `Character` at byte `i` is white space (its first scalar is: `Character.isWhitespace`).
    @inline(__always)
    static func startsWithWhiteSpace(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let b = p[i]
        if b < 0x80 { return b == 0x20 || b &- 0x09 < 5 }
        var iterator = UnsafeBufferPointer(rebasing: p[i...]).makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        return scalar.properties.isWhitespace
    }

    /// The piece at `piece` from its first to its last content word, cut at
    /// a content word's end to at most `titleLength.upperBound` characters;
    /// with its words (indices into `text.words`), its score (how often its
    /// distinct content words occur in all) and whether it was cut short
    /// before its last content word; nil when it has fewer than two words or
    /// no content word. `words`, when given, are the piece's words (a line's: `FallbackText.lineWords`).
    static func trimmed(_ piece: Range<Int>, in text: inout FallbackText, counts: WordCounts,
                        words: ArraySlice<Int>? = nil) -> (text: Range<Int>, words: ArraySlice<Int>, score: Int, cut: Bool)? {
        let all = words ?? text.words(in: piece)
        return text.words.withUnsafeBufferPointer { w in
            text.bytes.withUnsafeBufferPointer { bytes in
                trimmed(all, words: w, bytes: bytes, in: text, counts: counts)
            }
        }
    }

    /// `trimmed(_:in:counts:words:)` for the piece whose words are `all`, read through buffers.
    private static func trimmed(_ all: ArraySlice<Int>, words w: UnsafeBufferPointer<FallbackText.Word>,
                                bytes: UnsafeBufferPointer<UInt8>, in text: FallbackText,
                                counts: WordCounts) -> (text: Range<Int>, words: ArraySlice<Int>, score: Int, cut: Bool)? {
        guard let firstContent = all.firstIndex(where: { w[$0].isContent }) else { return nil }
        let found = all[firstContent...]
        let start = w[found[firstContent]].range.lowerBound
        let lastContent = found.lastIndex { w[$0].isContent } ?? firstContent
        // Forward, counting the characters as it goes, so a long piece (captions
        // with no punctuation are one sentence) costs only its first words.
        var last = -1, length = 0
        var end = start
        for i in found.indices {
            let word = w[found[i]]
            let range = word.range
            let gap = end..<range.upperBound
            if i == firstContent {
                length += Int(word.characters)          // the word itself
            } else if word.asciiSincePrevious, found[i] == found[i - 1] + 1, found[i] < text.lineWordCount {
                length += gap.count                     // ASCII since the line word before it, which ended the last gap
            } else {
                length += bytes[gap].allSatisfy({ $0 < 0x80 }) ? gap.count : text.characters(gap)
            }
            end = range.upperBound
            if length > titleLength.upperBound { break }
            if w[found[i]].isContent { last = i }
        }
        guard last >= firstContent + 1 else { return nil }
        let kept = found[firstContent...last]
        // Each distinct content word once: a title holds few words, so the earlier ones are asked.
        var score = 0
        for k in kept.indices where w[kept[k]].isContent {
            let lower = w[kept[k]].lower
            if !kept[..<k].contains(where: { w[$0].isContent && w[$0].lower == lower }) {
                score += counts.count(lower: lower)
            }
        }
        guard score > 0 else { return nil }
        return (start..<w[found[last]].range.upperBound, kept, score, last < lastContent)
    }

    /// Characters a title leaves out: quotes and brackets.
    static let leftOut: Set<Character> = ["\"", "“", "”", "„", "«", "»", "‹", "›", "(", ")", "[", "]", "{", "}"]

    /// `leftOut`'s scalars: each is a `Character` of one scalar with no other
    /// canonically equivalent, so a `Character` is one of them exactly when it
    /// is one scalar and that scalar is one of these (a test asks every scalar).
    static let leftOutScalars: Set<Unicode.Scalar> = Set(leftOut.compactMap { $0.unicodeScalars.count == 1 ? $0.unicodeScalars.first : nil })

    /// Whether `character` is one of `leftOut` (its scalar looked up: hashing a `Character` normalises it).
    @inline(__always)
    static func isLeftOut(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else { return false }
        return isLeftOutScalar(first)
    }

    /// The phrase at `range` of `text` as a title (`cleaned(_:)`), and its
    /// key (`normalised`). An ASCII phrase with no quote or bracket is its
    /// bytes with white space made single spaces and the first letter a
    /// capital, and its key its words' (`words`) lower case (`fromWords`): the
    /// words of such a title are the phrase's, in the same case once lowered.
    static func cleaned(_ range: Range<Int>, words: ArraySlice<Int>, in text: FallbackText) -> (title: String, key: String, fromWords: Bool) {
        let plain: [UInt8]? = text.bytes.withUnsafeBufferPointer { p in
            var out: [UInt8] = []
            out.reserveCapacity(range.count)
            var space = false
            let leftOut = asciiLeftOut
            for i in range {
                let b = p[i]
                switch b {
                case 0x80...: return nil
                case _ where leftOut[Int(b)]: return nil   // " ( ) [ ] { }
                case 0x20, 0x09...0x0D: space = !out.isEmpty
                default:
                    if space { out.append(0x20); space = false }
                    out.append(out.isEmpty && b &- 0x61 < 26 ? b - 0x20 : b)
                }
            }
            return out
        }
        if let plain {
            return (String(decoding: plain, as: UTF8.self), text.key(words), true)
        }
        let title = cleaned(text.substring(range))
        return (title, normalised(title[...]), false)
    }

    /// A phrase as a title: quotes and brackets left out, white space made
    /// single spaces, the first letter a capital.
    static func cleaned(_ phrase: Substring) -> String {
        // A `Character` is left out only when it is one of `leftOutScalars` alone: a phrase without
        // any of those scalars keeps every `Character` (its scalars are asked, which is cheaper).
        let kept = phrase.unicodeScalars.contains(where: isLeftOutScalar) ? phrase.filter { !isLeftOut($0) } : String(phrase)
        // Its `Character`s stepped over its bytes: one that starts with a white space scalar
        // (`Character.isWhitespace`) separates words, and words are joined with one space.
        let joined = CharacterSteps.withBytes(kept) { p, text -> String in
            var out: [UInt8] = []
            out.reserveCapacity(p.count)
            var space = false, i = 0
            while i < p.count {
                let next = CharacterSteps.end(of: i, in: p, text: text)
                if startsWithWhiteSpace(p, i) {
                    space = !out.isEmpty
                } else {
                    if space { out.append(0x20); space = false }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<next]))
                }
                i = next
            }
            return String(decoding: out, as: UTF8.self)
        }
        return capitalised(joined)
    }

    /// Whether `scalar` is one of `leftOutScalars` (ASCII ones from a table made from them).
    @inline(__always)
    static func isLeftOutScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? asciiLeftOut[Int(scalar.value)] : leftOutScalars.contains(scalar)
    }

    /// For each ASCII scalar, whether it is one of `leftOutScalars`.
    static let asciiLeftOut: [Bool] = (0..<128).map { leftOutScalars.contains(Unicode.Scalar(UInt8($0))) }

    /// `text` with its first `Character` upper-cased.
    static func capitalised(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// A phrase compared as its words: lower case, one space between them.
    static func normalised(_ text: Substring) -> String {
        words(in: text).map { $0.lowercased() }.joined(separator: " ")
    }
}
