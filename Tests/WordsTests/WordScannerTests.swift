import Testing
@testable import Words

/// The one word rule: ICU's word boundaries, in every script, and the simple
/// path that stands in for ICU's iterator on text it can cut alone.
@Suite struct WordScannerTests {
    static func words(_ text: String) -> [String] {
        WordScanner().words(in: text).map(String.init)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var words: [String]
        var testDescription: String { text.debugDescription }
    }

    static let cases: [Case] = [
        // Japanese and Chinese are cut by ICU's dictionary.
        Case(text: "今日は東京の新しいラーメン店を紹介します", words: ["今日", "は", "東京", "の", "新しい", "ラーメン", "店", "を", "紹介", "し", "ます"]),
        Case(text: "このラーメンはスープがとても濃厚です", words: ["この", "ラーメン", "は", "スープ", "が", "とても", "濃厚", "です"]),
        Case(text: "我们今天去北京吃烤鸭", words: ["我们", "今天", "去", "北京", "吃", "烤鸭"]),
        // Thai: no spaces between words either.
        Case(text: "ภาษาไทยเป็นภาษาที่สวยงาม", words: ["ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "สวยงาม"]),
        // Korean and Arabic: words between spaces (particles stay on their word).
        Case(text: "안녕하세요 한국어를 배우고 있어요", words: ["안녕하세요", "한국어를", "배우고", "있어요"]),
        Case(text: "مرحبا بالعالم العربي!", words: ["مرحبا", "بالعالم", "العربي"]),
        // A German compound is one word.
        Case(text: "Die Donaudampfschifffahrtsgesellschaft fährt.", words: ["Die", "Donaudampfschifffahrtsgesellschaft", "fährt"]),
        // Apostrophes inside a word keep it whole; hyphens, dashes and colons separate.
        Case(text: "don't l'homme rocket's rocket’s 'quoted'", words: ["don't", "l'homme", "rocket's", "rocket’s", "quoted"]),
        Case(text: "real-time well—known a:b 12:30", words: ["real", "time", "well", "known", "a", "b", "12", "30"]),
        // Digits: decimals and thousands are one number; a number and letters one word.
        Case(text: "3.14 1,000 1948th r2d2 x² ½", words: ["3.14", "1,000", "1948th", "r2d2", "x"]),
        // Underscores join; one alone is no word.
        Case(text: "rocket_launch _ __ #tag @user", words: ["rocket_launch", "__", "tag", "user"]),
        // Accents as combining marks belong to their letter; emoji and symbols are no words.
        Case(text: "cafe\u{301} 🚀rocket 👨‍👩‍👧 family 🇫🇷", words: ["cafe\u{301}", "rocket", "family"]),
        Case(text: "U.S.A. e.g. end.", words: ["U.S.A", "e.g", "end"]),
        Case(text: "", words: []),
    ]

    @Test(arguments: cases)
    func wordsAreICUsWords(_ c: Case) {
        #expect(Self.words(c.text) == c.words)
    }

    /// The simple path must give exactly ICU's iterator's words on every text
    /// it takes: random texts from pieces chosen on the edges of the rules
    /// (every class, marks after joiners, invalid UTF-8, scripts it leaves to ICU).
    @Test func theSimplePathIsICU() {
        struct Generator {
            var state: UInt64
            mutating func next(_ bound: Int) -> Int {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Int(truncatingIfNeeded: (state >> 33) % UInt64(bound))
            }
        }
        let pieces: [String] = ["a", "Z", "é", "ß", "1", "9", "_", ".", "'", "’", ",", ";", ":", " ", "  ", "\t", "\n", "\r\n", "\r",
                                "-", "\"", "#", "@", "\u{301}", "\u{AD}", "\u{200B}", "·", "‿", "٣", "٫", "٬", "ا", "Ж", "ω", "…", "—",
                                "\u{A0}", "🚀", "🇫🇷", "👍🏽", "\u{FE0F}", "x²", "½", "\u{85}", "\u{2028}", "ﹳ", "﹕", "：", "१", "क",
                                "\u{94D}", "ก", "東", "ア", "あ", "א", "\u{200D}", "한", "\u{FF}", "\u{E0061}", "\u{1F3F4}", "٠",
                                "\u{2060}", "\u{200C}", "$", "&", "<", ">"]
        let ascii = (0..<128).map { String(Unicode.Scalar(UInt8($0))) }
        var g = Generator(state: 24)
        let scanner = WordScanner()
        var simple = 0
        var differences: [String] = []
        for round in 0..<30_000 {
            let alphabet = round % 2 == 0 ? pieces : ascii + ["a", "b", "1", ".", "'", "_", ",", "é", "\u{301}"]
            var bytes: [UInt8] = []
            for _ in 0..<(1 + g.next(16)) { bytes += Array(alphabet[g.next(alphabet.count)].utf8) }
            if round % 7 == 0 { bytes.insert([0xC3, 0x80, 0xFF, 0xE2, 0x82][g.next(5)], at: g.next(bytes.count + 1)) }
            bytes.withUnsafeBufferPointer { p in
                var fast: [Range<Int>] = []
                guard WordScanner.scanSimple(p, into: &fast) == .finished else { return }
                simple += 1
                scanner.scanWithICU(p)
                if scanner.words != fast, differences.count < 5 {
                    differences.append("\(bytes): ICU \(scanner.words), simple path \(fast)")
                }
            }
        }
        #expect(differences.isEmpty)
        #expect(simple > 15_000)   // most texts took the simple path, so it was tested
    }

    /// `scan` takes the simple path or ICU's iterator: the same words either way, on text of every script.
    @Test func scanIsICUOnEveryCase() {
        let scanner = WordScanner()
        for c in Self.cases {
            var text = c.text
            text.withUTF8 { p in
                scanner.scanWithICU(p)
                let icu = scanner.words
                scanner.scan(p)
                #expect(scanner.words == icu, "\(c.text.debugDescription)")
            }
        }
    }

    /// A simple-path scan from `simpleScanStart(atOrBefore:in:)` finds the
    /// words the scan from the start finds from there on: random texts of
    /// every class, every offset.
    @Test func aScanFromASafeStartFindsTheSameWords() {
        var rng = SplitMix64(state: 36)
        let pieces: [String] = ["a", "Z", "é", "1", "_", ".", "'", "’", ",", ";", ":", " ", "\t", "\n", "\r\n", "\r", "-", "\u{301}", "\u{AD}",
                                "·", "Ж", "🚀", "\u{A0}", "x²", "rocket", "don't", "3.14", "U.S.A", "\u{85}", "$", "&", "<"]
        var moved = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...14, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
            var bytes = text
            bytes.withUTF8 { p in
                var all: [Range<Int>] = []
                guard WordScanner.scanSimple(p, into: &all) == .finished else { return }
                for offset in 0...p.count {
                    let start = WordScanner.simpleScanStart(atOrBefore: offset, in: p)
                    var part: [Range<Int>] = []
                    #expect(start <= offset && WordScanner.scanSimple(UnsafeBufferPointer(rebasing: p[start...]), into: &part) == .finished)
                    let shifted = part.map { $0.lowerBound + start..<$0.upperBound + start }
                    #expect(shifted == all.filter { $0.lowerBound >= start }, "\(text.debugDescription) \(offset)")
                    #expect(!all.contains { $0.lowerBound < start && $0.upperBound > start }, "\(text.debugDescription) \(offset)")
                    if start > 0 && start < offset { moved += 1 }
                }
            }
        }
        #expect(moved > 1_000, "\(moved)")
    }
}
