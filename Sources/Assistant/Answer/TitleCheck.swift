import Words

/// Whether a title is one a producer could publish: the meaning checks the
/// decoder makes on every title after the form checks (length, control
/// characters), whatever schema was sent (a server may ignore it, and a
/// grammar that bounds a title can cut it).
///
/// A title is refused, with the reason, when it
/// - holds the prompt's placeholder (`…`) or JSON syntax (`{`, `]`, `"emoji":`,
///   `titles:`): debris of the answer's format, not a headline;
/// - is a speaker label or starts with one (`WOMAN: …`, `>> ANCHOR: …`) or
///   holds a sound description (`[MUSIC]`), by the one rule of what a caption
///   line holds (`CueLineParts`). A name in mixed case before a colon
///   (`Einstein: A Life`) is a usual headline form and stays; one in capitals
///   is a caption's label;
/// - starts with punctuation (opening quotes and `¿`, `¡` are allowed) or has
///   fewer letters than a title has (`minimumLetters`, and letters at least
///   half of what is not white space: runs of numbers and symbols are no title);
/// - ends mid-word or mid-clause: a trailing comma, colon, semicolon, dash or
///   apostrophe (`It'`, `and 2-`), or a last word that the transcript's
///   language does not end a headline with (`headlineEndWords`: articles,
///   prepositions, conjunctions, possessives: "… a small world, a");
/// - starts with a list number (`1. 竹林`: the model numbered its titles; the
///   decoder reads a list numbered throughout without its numbers,
///   `SuggestionDecoder.numberedPositions`);
/// - holds list syntax in typographic quotes (`jobs.”,“Situation”,“19`), leaves
///   a quotation or a bracket open, runs words together at a comma or a full stop
///   (`was,uhn,no-idea`), or holds a run of `digitRunLimit` digits (a code);
/// - ends with two or more full stops (a sentence cut: "… that helps move...");
/// - repeats a sequence of words (`this will happen is this will happen`) or
///   one word three times;
/// - has more words than a title (`maximumWords`, the prompt's 7): a run-on
///   sentence or a title a bound cut.
public enum TitleCheck {
    /// The most words (runs of non-space characters) a title has: the prompt asks for 2 to 7.
    public static let maximumWords = 7
    /// The fewest letters a title has.
    public static let minimumLetters = 4

    /// Why `title` (trimmed) is not publishable, or nil when it is. `language`
    /// (an ISO 639-1 code) picks the words a headline does not end with; with
    /// no list for it, only the other checks apply.
    public static func flaw(_ title: String, language: String?) -> String? {
        if title.contains("…") { return "holds the prompt's placeholder (…)" }
        let parts = CueLineParts.parts(of: title)
        if let name = CueLineParts.leadingSpeakerName(of: title), !name.unicodeScalars.contains(where: { $0.properties.isLowercase }) {
            return "starts with a speaker label (\(name):)"
        }
        if let part = parts.first(where: { $0.kind == .description || $0.kind == .music }) {
            let text = String(decoding: Array(title.utf8)[part.range], as: UTF8.self)
            return "holds a sound or music description (\(text))"
        }
        if let json = jsonSyntax(title) { return "holds JSON syntax (\(json))" }
        guard let first = title.first else { return "is empty" }
        if !(first.isLetter || first.isNumber || openers.contains(first)) { return "starts with punctuation" }
        var letters = 0, visible = 0
        for c in title where !c.isWhitespace {
            visible += 1
            if c.isLetter { letters += 1 }
        }
        if letters < minimumLetters || letters * 2 < visible { return "has too few letters for a title" }
        let chunks = title.split(whereSeparator: \.isWhitespace)
        if chunks.count > maximumWords { return "has more than \(maximumWords) words" }
        if let number = listNumber(title) { return "starts with a list number (\(number))" }
        if let debris = listDebris(title) { return "holds list syntax (\(debris))" }
        if let open = unclosed(title) { return "has an unclosed \(open)" }
        if let joined = wordsRunTogether(title) { return "runs words together (“\(joined)”)" }
        if longestDigitRun(title) >= digitRunLimit { return "holds a number of \(digitRunLimit) or more digits" }
        if let last = title.last, midClauseEnds.contains(last) { return "ends mid-clause (“\(last)”)" }
        if title.hasSuffix("..") { return "ends mid-sentence (“..”)" }
        let words = WordScanner().words(in: title).map { $0.lowercased() }
        if let repeated = repeatedSequence(words) { return "repeats “\(repeated)”" }
        // The last word, when nothing but a full stop follows it ("What Is It For?" ends a question).
        var core = Substring(title)
        while let last = core.last, last == "." { core = core.dropLast() }
        if let language, let ends = headlineEndWords[language], let lastWord = WordScanner().words(in: core).last,
           lastWord.endIndex == core.endIndex,
           !(lastWord.count == 1 && lastWord.first?.isUppercase == true),  // "Plan A", "Vitamin C"
           ends.contains(lastWord.lowercased()) {
            return "ends mid-clause (with “\(lastWord)”)"
        }
        return nil
    }

    /// What a title may start with besides a letter or a digit.
    static let openers: Set<Character> = ["\"", "“", "„", "«", "‹", "'", "‘", "¿", "¡", "(", "「", "『"]
    /// Last characters that leave a clause or a word open.
    static let midClauseEnds: Set<Character> = [",", ":", ";", "-", "–", "—", "'", "’", "(", "/", "&", "、", "，"]

    /// The JSON syntax in `title`, if it holds some: a brace or bracket, a
    /// quote next to a colon, or an answer field's name before a colon.
    static func jsonSyntax(_ title: String) -> String? {
        for c in title where "{}[]".contains(c) { return String(c) }
        if title.contains("\":") || title.contains("\" :") || title.contains(":\"") { return "\":" }
        let lower = title.lowercased()
        for field in ["keywords", "titles", "title", "emoji"] {
            for form in ["\(field):", "\(field) :"] where lower.hasPrefix(form) || lower.contains(" " + form) {
                return form
            }
        }
        return nil
    }

    /// The number a list item starts with (`1.`, `2)`: one or two digits, a
    /// full stop or a closing bracket, then a space), as a model numbers the
    /// titles it was asked for (`1. 竹林`, `2. ハアの嵐山` in a measured run); nil
    /// when `title` does not start so. A year or a count is no list number
    /// (`1984: …`, `3 Ways to …`).
    static func listNumber(_ title: String) -> String? {
        let characters = Array(title.prefix(4))
        guard let end = characters.firstIndex(where: { !$0.isASCII || !$0.isNumber }), (1...2).contains(end),
              characters[end] == "." || characters[end] == ")",
              end + 1 < characters.count, characters[end + 1].isWhitespace else { return nil }
        return String(characters[...end])
    }

    /// Double quotation marks of any script's typography (the prompt's JSON's `"`
    /// and the curly, low and angle forms a model writes in its place).
    static let doubleQuotes: Set<Character> = ["\"", "“", "”", "„", "‟", "«", "»", "＂", "〝", "〞"]

    /// Two double quotation marks in a row, or one joined to a comma or colon
    /// with no space where prose has one (`”,“`, `jobs.”,“Situation`, `”,19`,
    /// `“key”: “value”`): the list and object syntax of an answer written with
    /// typographic quotes. A quotation closed before a comma and a space
    /// (`“Boil,” he said`, `“Yes”, “No” and “Maybe”`) is prose and stays.
    static func listDebris(_ title: String) -> String? {
        let characters = Array(title)
        func at(_ i: Int) -> Character? { characters.indices.contains(i) ? characters[i] : nil }
        for (i, c) in characters.enumerated() where doubleQuotes.contains(c) {
            let before = at(i - 1), after = at(i + 1)
            if let after, doubleQuotes.contains(after) { return String([c, after]) }
            if let after, after == "," || after == ":", let next = at(i + 2) {
                if !next.isWhitespace { return String([c, after, next]) }
                if after == ":", let quote = at(i + 3), doubleQuotes.contains(quote) { return String([c, after, next, quote]) }
            }
            if let before, before == "," || before == ":", let after, !after.isWhitespace { return String([before, c]) }
        }
        return nil
    }

    /// What `title` leaves open: a double quotation (an odd number of marks) or
    /// a bracket (`(` without its `)`, or the reverse); nil when nothing is.
    static func unclosed(_ title: String) -> String? {
        if title.filter({ doubleQuotes.contains($0) }).count % 2 == 1 { return "quotation" }
        var depth = 0
        for c in title {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if depth < 0 { return "bracket" }
        }
        return depth == 0 ? nil : "bracket"
    }

    /// A comma followed by neither white space nor a digit (`was,uhn`,
    /// `quarters,&quited`), or a full stop between a lower-case letter and a
    /// capital or a symbol (`meters.Theres`, `community.&nearly`): words a
    /// model ran together, not a headline's punctuation (`1,000`, `18.5`,
    /// `Node.js`, `U.S.A.` keep theirs). The mark and what follows it.
    static func wordsRunTogether(_ title: String) -> String? {
        var previous: Character?
        var beforePrevious: Character?
        for c in title {
            if previous == ",", !c.isWhitespace, !c.isNumber, !closers.contains(c) { return ",\(c)" }
            // Sentences run together at a full stop: "meters.Theres", "community.&nearly"
            // (not "Node.js", "U.S.A." or "18.5": a lower-case letter, then a capital or a symbol).
            if previous == ".", let before = beforePrevious, before.isLowercase,
               c.isUppercase || !(c.isLetter || c.isNumber || c.isWhitespace || c == "." || closers.contains(c)) {
                return ".\(c)"
            }
            beforePrevious = previous
            previous = c
        }
        return nil
    }

    /// What may follow a comma with no space: a closing quotation mark or bracket (`“Boil,” he said`).
    static let closers: Set<Character> = ["\"", "”", "»", "’", "'", ")", "」", "』"]

    /// The most digits in a row a title holds before it is refused: a year or
    /// a figure has fewer; a run this long is a code or an identifier
    /// (`1895023476.JPG`, `2015:3389746363`), never a headline's.
    static let digitRunLimit = 7

    /// The longest run of decimal digits in `title`.
    static func longestDigitRun(_ title: String) -> Int {
        var longest = 0, run = 0
        for byte in title.utf8 {
            if byte &- 0x30 < 10 { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        return longest
    }

    /// A sequence of two or more words that occurs twice in `words`, or a
    /// word that occurs three times (as "word word word"); nil when none does.
    static func repeatedSequence(_ words: [String]) -> String? {
        var counts: [String: Int] = [:]
        for word in words {
            counts[word, default: 0] += 1
            if counts[word] == 3 { return word }
        }
        var pairs: Set<String> = []
        for i in words.indices.dropLast() {
            let pair = words[i] + " " + words[i + 1]
            if !pairs.insert(pair).inserted { return pair }
        }
        return nil
    }

    /// The words a headline does not end with, by language: articles,
    /// prepositions, conjunctions and possessive determiners (a title whose
    /// last word is one was cut mid-clause). Written for this project.
    static let headlineEndWords: [String: Set<String>] = [
        "en": ["a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "into", "onto", "on", "at", "by", "for",
               "from", "with", "about", "as", "than", "via", "per", "because", "if", "that", "whether", "while",
               "my", "your", "our", "their", "its"],
        "fr": ["le", "la", "les", "un", "une", "des", "du", "de", "au", "aux", "à", "en", "dans", "par", "pour", "sur",
               "sous", "avec", "sans", "chez", "vers", "et", "ou", "mais", "donc", "car", "ni", "que", "mon", "ton",
               "son", "ma", "ta", "sa", "mes", "tes", "ses", "notre", "votre", "leur", "leurs", "ce", "cette", "ces"],
        "es": ["el", "la", "los", "las", "un", "una", "unos", "unas", "al", "del", "de", "a", "en", "con", "por",
               "para", "sin", "sobre", "entre", "hacia", "desde", "y", "e", "o", "u", "ni", "pero", "que", "mi", "tu",
               "su", "mis", "tus", "sus", "nuestro", "nuestra"],
        "de": ["der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines", "und",
               "oder", "aber", "von", "für", "bei", "über", "durch", "gegen", "ohne", "im", "zum", "zur", "dass",
               "weil", "mein", "dein", "sein", "ihr", "unser", "euer"],
        "it": ["il", "lo", "la", "i", "gli", "le", "un", "uno", "una", "di", "a", "da", "in", "con", "su", "per",
               "tra", "fra", "del", "della", "dei", "delle", "al", "alla", "ai", "nel", "nella", "e", "o", "ma", "che",
               "mio", "tuo", "suo"],
        "pt": ["o", "a", "os", "as", "um", "uma", "de", "do", "da", "dos", "das", "em", "no", "na", "nos", "nas",
               "por", "para", "com", "sem", "e", "ou", "mas", "que", "ao", "meu", "teu", "seu", "minha", "sua"],
    ]
}
