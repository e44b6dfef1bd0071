import Foundation
import Testing
@testable import Assistant

/// `LocalFallback` reads a transcript's bytes once and asks each word's
/// facts once (`FallbackText`); what it chooses must be exactly what the
/// fallback chose when it asked `Substring`s and `Character`s everything
/// (`LocalFallbackReference`), on real transcripts and on generated ones
/// full of what the byte paths must leave to the standard library.
@Suite struct LocalFallbackDifferentialTests {
    /// The model-bench transcripts (seven languages, real captions), as the pipeline's transcript lines.
    static func benchTranscripts() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/model-bench/transcripts")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".srt") }.sorted()
        return try names.map { name in
            let srt = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
            // Cue texts, one cue a line: the lines that are neither numbers, timings nor blank.
            return srt.components(separatedBy: "\n\n").map { block in
                block.split(separator: "\n").dropFirst(2).joined(separator: " ")
            }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
    }

    /// Words and marks that test every path: ASCII, accents (composed and
    /// combining), kana and kanji, quotes and brackets, every sentence and
    /// clause end, emoji, flags, tabs, odd white space and line separators.
    static let pieces = [
        "rocket", "Rocket", "launch", "the", "a", "whales", "Whale", "krill", "song", "songs", "déjà", "vu", "cafe\u{301}",
        "Straße", "ÉCOLE", "naïve", "東京タワー", "ラーメン", "を", "食べました", "です", "U.S.A", "3.14", "1,000", "don't", "rocket's",
        "\"quoted\"", "(aside)", "[music]", "{\\an8}", "«bien»", "“smart”", ".", "!", "?", "…", "。", "！", "？", "♪", ",", ";",
        ":", "—", "–", "、", "，", ".\u{301}", "!\u{20DD}", "👨‍👩‍👧", "🇫🇷", "🚀", " ", "  ", "\t", "\u{A0}", "\u{3000}", "\n", "\r\n",
        "\u{2028}", "\u{85}", "x\u{301}\u{302}", "\u{0600}a", "ǆemal", "İstanbul", "ﬁsh", "ΣΟΦΟΣ", "Ωmega", "_under_", "a-b", "l'homme",
        // Equal as `String`s, not as bytes: composed and combining accents, the Kelvin sign, the Greek question mark.
        "café", "CAFE\u{301}", "\u{212A}elvin", "kelvin", "1;2", "1\u{37E}2",
    ]

    /// A transcript of `count` pieces chosen by a fixed generator from `seed`.
    static func generated(seed: UInt64, count: Int) -> String {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var out = ""
        for _ in 0..<count {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let piece = pieces[Int(state % UInt64(pieces.count))]
            // Mostly words with spaces, as captions are.
            out += piece
            if state % 3 != 0 { out += " " }
        }
        return out
    }

    @Test func theBenchTranscriptsGiveWhatTheReferenceGives() throws {
        let transcripts = try Self.benchTranscripts()
        #expect(transcripts.count >= 10)
        for transcript in transcripts {
            for language in [nil, "en"] as [String?] {
                for cap in [300, 3_000, Int.max] {
                    let part = cap == Int.max ? transcript : PromptBuilder(maxCharacters: cap).cut(transcript).text
                    #expect(LocalFallback.suggestions(for: part, language: language)
                        == LocalFallbackReference.suggestions(for: part, language: language), "\(transcript.prefix(40)) cap \(cap)")
                }
            }
        }
    }

    @Test(arguments: 0..<40)
    func generatedTranscriptsGiveWhatTheReferenceGives(seed: Int) {
        let transcript = Self.generated(seed: UInt64(seed + 1), count: 40 + seed * 25)
        for language in [nil, "en", "fr", "ja"] as [String?] {
            let new = LocalFallback.suggestions(for: transcript, language: language)
            let old = LocalFallbackReference.suggestions(for: transcript, language: language)
            #expect(new == old, "seed \(seed), language \(language ?? "none"): \(transcript.debugDescription.prefix(200))")
        }
    }

    /// The same transcripts with no punctuation: titles from the lines, one long sentence.
    @Test(arguments: 0..<10)
    func unpunctuatedTranscriptsGiveWhatTheReferenceGives(seed: Int) {
        let ends: Set<Character> = [".", "!", "?", "…", "。", "！", "？", "♪", ",", ";", ":", "—", "–", "、", "，"]
        let transcript = String(Self.generated(seed: UInt64(1_000 + seed), count: 300).filter { !ends.contains($0) })
        #expect(LocalFallback.suggestions(for: transcript, language: nil) == LocalFallbackReference.suggestions(for: transcript, language: nil))
    }

    /// A phrase made a title keeps what the reference keeps: the pass that finds no left-out
    /// scalar agrees with the filter of `Character`s, including a quote or bracket that a
    /// combining mark makes part of a longer `Character` (kept) and one alone (left out).
    @Test func aPhraseIsCleanedAsTheReferenceCleansIt() {
        var phrases = Self.pieces.map { "long \($0) words" } + ["\"\u{301}quoted\u{301}\"", "«\u{20DD}bien»", "(x\u{301})", "“smart”\u{301}"]
        for seed in 1...300 { phrases.append(Self.generated(seed: UInt64(seed), count: 8)) }
        for phrase in phrases {
            #expect(LocalFallback.cleaned(phrase[...]) == LocalFallbackReference.cleaned(phrase[...]), "\(phrase.debugDescription)")
        }
    }
}
