import Testing
@testable import Words

/// `KeywordMatcher.words(of:from:into:scanner:scratch:)`, the pre-check and
/// the cut into words in one scan (from the bound `firstWordBound` gives),
/// against the plain rule: the text cut by `WordScanner.scan` and matched
/// from its first word.
@Suite struct KeywordMatcherWordsTests {
    struct Match: Equatable {
        var keyword: Int
        var bytes: Range<Int>
    }

    @Test func oneScanFindsWhatTheScanAndTheMatchFind() {
        var rng = SplitMix64(state: 35)
        let pieces = ["rocket", "Rocket's", "ROCKETS", "launch", "pad", "launch-pad", "km", "KM", "t", "eng", "engine", "café", "CAFÉ", "a", "I",
                      " ", "  ", "\n", ",", ".", "'", "-", "_", "2", "x2", "s", "東京", "ラーメン", "の", "สวัสดี", "\u{212A}m", "e\u{301}",
                      "\r\n", ";", "_rocket", "x.", "é", "\u{301}"]
        let keywordSets = [["rocket"], ["launch pad", "engine"], ["\u{212A}m", "café"], ["a", "rocket"], ["rocket's"], ["pad", "Engine", "t2"],
                           ["ラーメン", "東京"], ["launch\npad"], (0..<40).map { "word\($0)" } + ["rocket"]]
        let scanner = WordScanner()
        var none = 0, later = 0, matched = 0, skipped = 0
        for keywords in keywordSets {
            let matcher = KeywordMatcher(keywords)
            var scratch = KeywordMatcher.Scratch()
            var words: [Range<Int>] = []
            for _ in 0..<600 {
                // Half of them after words that start no keyword, so that the first that may is often not the first.
                let lead = Bool.random(using: &rng) ? "Over there, the " : ""
                let text = lead + (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
                var bytes = text
                bytes.withUTF8 { p in
                    scanner.scan(p)
                    let all = scanner.words
                    var expected: [Match] = []
                    matcher.forEachMatch(in: p, words: all, scratch: &scratch) { expected.append(Match(keyword: $0, bytes: $1)); return true }
                    // From the bound the ASCII bytes give (half of the time), or from the start.
                    let bound = Bool.random(using: &rng) ? matcher.firstWordBound(p) : 0
                    guard let bound, let first = matcher.words(of: p, from: bound, into: &words, scanner: scanner, scratch: &scratch) else {
                        #expect(expected.isEmpty, "\(keywords) \(text)")
                        none += 1
                        return
                    }
                    // The words from about the bound on: the text's own there.
                    #expect(Array(all.suffix(words.count)) == words, "\(keywords) \(text)")
                    if words.count < all.count { skipped += 1 }
                    var got: [Match] = []
                    matcher.forEachMatch(in: p, words: words, from: first, scratch: &scratch) { got.append(Match(keyword: $0, bytes: $1)); return true }
                    #expect(got == expected, "\(keywords) \(text)")
                    if first > 0 { later += 1 }
                    if !got.isEmpty { matched += 1 }
                }
            }
        }
        // Every answer given often: the test can tell a wrong one.
        #expect(none > 400 && later > 50 && matched > 300 && skipped > 20, "\(none) \(later) \(matched) \(skipped)")
    }

    /// `firstWordBound`: no match starts before it, and it is nil only when
    /// there is none; the bytes before it are ASCII.
    @Test func noMatchStartsBeforeTheBound() {
        var rng = SplitMix64(state: 36)
        let pieces = ["rocket", "ROCKETS", "xrocket", "launch", "pad", "eng", "engine", "km", "KM", "a", " ", "\n", ",", ".", "'", "_", "2",
                      "é", "東京", "\u{212A}m", "e\u{301}"]
        let keywordSets = [["rocket"], ["launch pad", "engine"], ["\u{212A}m", "café"], ["a", "rocket"], ["pad", "Engine", "t2"], ["km"]]
        let scanner = WordScanner()
        var bounded = 0, none = 0
        for keywords in keywordSets {
            let matcher = KeywordMatcher(keywords)
            var scratch = KeywordMatcher.Scratch()
            for _ in 0..<400 {
                let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
                var bytes = text
                bytes.withUTF8 { p in
                    scanner.scan(p)
                    var starts: [Int] = []
                    matcher.forEachMatch(in: p, words: scanner.words, overlapping: true, scratch: &scratch) { starts.append($1.lowerBound); return true }
                    guard let bound = matcher.firstWordBound(p) else {
                        #expect(starts.isEmpty, "\(keywords) \(text)")
                        none += 1
                        return
                    }
                    #expect(starts.allSatisfy { $0 >= bound } && p[..<bound].allSatisfy { $0 < 0x80 }, "\(keywords) \(text) \(bound)")
                    if bound > 0 { bounded += 1 }
                }
            }
        }
        #expect(bounded > 300 && none > 300, "\(bounded) \(none)")
    }
}
