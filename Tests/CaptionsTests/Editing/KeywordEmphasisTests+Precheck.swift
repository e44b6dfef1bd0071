@testable import Captions
import Testing

/// The cue pre-check (eight bytes at a time for ASCII cues, word by word
/// otherwise) only skips cues; with or without it the result must be the same.
@Suite struct KeywordPrecheckTests {
    static let keywordSets: [[String]] = [
        ["rocket"], ["Rocket", "launch pad"], ["ai"], ["kelvin"], ["café", "naïve"], ["x"], ["1948", "r2d2"], ["amp"],
        ["right", "doing"], ["éclair", "doing"], ["the", "an", "to", "at", "it"], ["ab"], ["ľud"], ["straße", "strasse"],
        ["launch pad", "pad"], ["right-doing", "right"], ["rock et"], ["zright", "rightz"], ["doing right"],
        ["ai\u{307}b", "istanbul"], ["i\u{307}stanbul", "ab"], ["ak", "right"], ["vu", "déjà"], ["ai\u{307}b"], ["ak"], ["launch\npad", "rock\r\net"], ["right\rdoing"],
    ]

    static var documents: [String] {
        var docs: [String] = []
        let lines = [
            "The rocket is on the launch pad.", "ROCKET rockets rocket's xrocket rocket_x", "<i>rock</i>et <b>rocket</b> rocket",
            "\u{212A}elvin KELVIN kelvin", "<b>rocket</b>rocket <i>x</i>rocket<i>y</i> rock<u>et</u> {\\i1}rocket{\\i0}x",
            "<b>right <i>doing</i></b> right</b> doing <b>", "x<font color=\"red\">right</font>y right<br>doing", "CAFÉ cafe\u{301} café naïve NAÏVE", "&amp; &lt;b&gt;rocket &#x72;ocket", "x X xx x-x",
            "1948 r2d2 R2D2 1948th", "{\\b1}right{\\b0} doing right", "Right, DOING. right-doing", "éclair Éclair eclair",
            "the an to at it ab AB a b", "ľud ĽUD ľudia", "Straße STRASSE strasse", "déjà vu… right", "rightdoing right’s",
            "launch pad\n  \t \nlaunch\rpad launch  pad", "right\r\n\r\n  \r\nright-doing", "rock et\rrock\r\net zright rightz",
            "doing right doing right doing rightdoing right", "\t right \t\r \r", "[right]@doing`right{right}",
            "AİB aİb İstanbul ISTANBUL i\u{307}stanbul", "A\u{212A} ak AK", "é<i>right</i> <i>right</i>é right<i>é</i>",
            "…right… “doing” right—doing", "AİB.", "é A\u{212A}", "{\\b1}right{\\b0}", "<b>ab</b>", "ab", "r", "déjà<b>vu</b> vu<i>déjà</i>", "right\rdoing\rright",
        ]
        // Each line at every offset of an eight-byte block, alone and as a two-line cue.
        for (k, line) in lines.enumerated() {
            for offset in 0..<9 {
                let pad = String(repeating: "z", count: offset)
                docs.append("1\n00:00:01,000 --> 00:00:02,000\n\(pad)\(line)\n\n2\r\n00:00:03,000 --> 00:00:04,000\r\n\(pad) \(lines[(k + 1) % lines.count])\r\n\(line)\(pad)\r\n")
            }
        }
        return docs
    }

    /// The same cues with their runs built, so nothing is read from the source bytes.
    static func built(_ cues: [Cue]) -> [Cue] {
        cues.map { cue in
            var cue = cue
            cue.runs = cue.runs
            return cue
        }
    }

    @Test(arguments: keywordSets)
    func precheckChangesNothing(_ keywords: [String]) throws {
        let emphasis = KeywordEmphasis(keywords: keywords)
        for text in Self.documents {
            let document = try CaptionDocument.read(SourceText.decode(bytes: Array(text.utf8)), hint: .srt)
            // Cues read from the source (pre-checked, walked on their bytes) and the same cues built.
            let checked = emphasis.apply(to: document.cues)
            let unchecked = emphasis.apply(to: Self.built(document.cues))
            #expect(checked == unchecked, "\(keywords) in \(text)")
        }
    }

    /// Invalid UTF-8 kept in a UTF-8 file: its runs' text is repaired, on
    /// the source bytes as in the built runs; the result is the general one.
    @Test(arguments: keywordSets)
    func invalidUTF8ChangesNothing(_ keywords: [String]) throws {
        let emphasis = KeywordEmphasis(keywords: keywords)
        let valid = Array("é café naïve déjà ".utf8)
        let cues: [[UInt8]] = [
            Array("right \u{FF}doing right".utf8), [0x72, 0x69, 0x67, 0x68, 0x74, 0xC3, 0x20, 0x64, 0x6F, 0x69, 0x6E, 0x67],
            Array("<i>right</i>".utf8) + [0xE2, 0x80] + Array("doing rocket".utf8), [0xFF, 0x61, 0x62, 0x20, 0x61, 0x69, 0xFE],
        ]
        for cue in cues {
            var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\n".utf8) + Array(repeating: valid, count: 8).joined() + Array("\n\n2\n00:00:03,000 --> 00:00:04,000\n".utf8)
            bytes += cue + Array("\n".utf8) + cue + Array("\n".utf8)
            let document = try CaptionDocument.read(SourceText.decode(bytes: bytes), hint: .srt)
            #expect(document.source.encoding == .utf8)
            let unchecked = emphasis.apply(to: Self.built(document.cues))
            let onSource = emphasis.apply(to: document.cues)
            #expect(onSource == unchecked, "\(keywords) in \(cue)")
        }
    }

    @Test func precheckStillFindsMatches() throws {
        let document = try CaptionDocument.read(SourceText.decode(bytes: Array(Self.documents.joined(separator: "\n").utf8)), hint: .srt)
        let result = KeywordEmphasis(keywords: ["rocket", "kelvin"]).apply(to: document.cues)
        #expect(result.counts[0] > 0 && result.counts[1] > 0)
    }

    /// Cues matched on their bytes from the first place a keyword's first
    /// word may start (`KeywordMatcher.firstWordBound`, moved into the text
    /// made with LFs for a cue with CRs): random cues of random lines (LF,
    /// CR LF or CR alone, some non-ASCII, some markup), the same result as
    /// the cues built.
    @Test func matchingFromTheBoundChangesNothing() throws {
        var rng = SplitMix64(state: 36)
        let pieces = ["rocket", "Rocket's", "ROCKETS", "xrocket", "launch", "pad", "launch pad", "right", "doing", "ab", "a", " ", "  ", ",", ".",
                      "'", "_", "-", "2", "é", "東京", "MAN: ", "[laughs]", "<i>", "</i>", "\r\n", "\r", "\n", "\n", "\r\n"]
        let keywordSets = [["rocket"], ["launch pad", "right"], ["ab", "doing right"], ["right\ndoing", "pad"], ["東京", "rocket"], ["a"]]
        var emphasised = 0
        for keywords in keywordSets {
            let emphasis = KeywordEmphasis(keywords: keywords)
            for _ in 0..<60 {
                var text = ""
                for cue in 1...6 {
                    let line = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
                    text += "\(cue)\r\n00:00:0\(cue),000 --> 00:00:0\(cue),500\r\nx \(line) x\r\n\r\n"
                }
                let document = try CaptionDocument.read(SourceText.decode(bytes: Array(text.utf8)), hint: .srt)
                let onSource = emphasis.apply(to: document.cues)
                #expect(onSource == emphasis.apply(to: Self.built(document.cues)), "\(keywords) in \(text.debugDescription)")
                emphasised += onSource.occurrences
            }
        }
        #expect(emphasised > 300, "\(emphasised)")
    }
}
