import Testing
@testable import Words

/// `CueLineParts` on caption lines as SDH and broadcast captions write them
/// (Subtitle Edit's "remove text for hearing impaired" patterns, CEA-608
/// conventions, the style guides named in the reference notes).
@Suite struct CueLinePartsTests {
    /// The text of each part of `line`, with its kind.
    static func parts(_ line: String) -> [String] {
        let bytes = Array(line.utf8)
        return CueLineParts.parts(of: line).map { "\($0.kind.rawValue):" + String(decoding: bytes[$0.range], as: UTF8.self) }
    }

    @Test(arguments: [
        ("MAN: Look at this.", ["speakerLabel:MAN: "], "Look at this."),
        ("WOMAN 2: Over here!", ["speakerLabel:WOMAN 2: "], "Over here!"),
        (">> ANCHOR: Good evening.", ["speakerLabel:>> ANCHOR: "], "Good evening."),
        (">>> A NEW STORY TONIGHT", ["speakerLabel:>>> "], "A NEW STORY TONIGHT"),
        ("- LITHGOW: The universe is vast.", ["speakerLabel:- LITHGOW: "], "The universe is vast."),
        ("- You're lying.\n- I'm not.", ["speakerLabel:- ", "speakerLabel:- "], "You're lying.\nI'm not."),
        ("-Non, merci.", ["speakerLabel:-"], "Non, merci."),
        ("Sarah: Where were you?", ["speakerLabel:Sarah: "], "Where were you?"),
        ("Dr. Smith: Sit down.", ["speakerLabel:Dr. Smith: "], "Sit down."),
        ("JOSÉ : Bonjour.", ["speakerLabel:JOSÉ : "], "Bonjour."),
        ("NARRATOR:", ["speakerLabel:NARRATOR:"], ""),
        ("[door creaks]", ["description:[door creaks]"], ""),
        ("[MUSIC PLAYING]", ["description:[MUSIC PLAYING]"], ""),
        ("I know. [laughs] I thought so too.", ["description:[laughs]"], "I know. I thought so too."),
        ("(LAUGHS) That's funny.", ["description:(LAUGHS)"], "That's funny."),
        ("(sighs)", ["description:(sighs)"], ""),
        ("Solo quisiera… [suspira]", ["description:[suspira]"], "Solo quisiera…"),
        ("MAN: [chuckles] A wrinkly man.", ["speakerLabel:MAN: ", "description:[chuckles]"], "A wrinkly man."),
        ("♪ Happy birthday to you ♪", ["music:♪", "music:♪"], "Happy birthday to you"),
        ("♪ Happy birthday to you", ["music:♪"], "Happy birthday to you"),
        ("dear Sarah ♪", ["music:♪"], "dear Sarah"),
        ("♪ ♪", ["music:♪", "music:♪"], ""),
        ("♫ [tense music] ♫", ["music:♫", "description:[tense music]", "music:♫"], ""),
        ("Downloaded from www.AllSubs.org", ["credit:Downloaded from www.AllSubs.org"], ""),
        ("Subtitles by the Addic7ed community", ["credit:Subtitles by the Addic7ed community"], ""),
        ("Sous-titres : Jean Dupont", ["credit:Sous-titres : Jean Dupont"], ""),
    ])
    func sdhConventions(_ line: String, _ expected: [String], _ spoken: String) {
        #expect(Self.parts(line) == expected)
        #expect(CueLineParts.spokenText(line) == spoken)
    }

    /// Lines that only look like labels or descriptions are text.
    @Test(arguments: [
        "The meeting is at 10:30 tonight.",
        "He said (and I quote) it was fine.",
        "Here's the thing: nobody knew.",
        "Step one: mix the flour.",
        "-5 degrees outside.",
        "Go to http:",
        "The man in the lab coat",
        "Listen: the water trickles back in.",
        "Ratio 3:1 is fine.",
    ])
    func textStaysText(_ line: String) {
        #expect(Self.parts(line).isEmpty, "\(line)")
        #expect(CueLineParts.spokenText(line) == line)
    }

    @Test func leadingSpeakerName() {
        #expect(CueLineParts.leadingSpeakerName(of: "WOMAN: The Tide Pool") == "WOMAN")
        #expect(CueLineParts.leadingSpeakerName(of: ">> EINSTEIN: Relativity") == "EINSTEIN")
        #expect(CueLineParts.leadingSpeakerName(of: "Einstein: A Life") == "Einstein")
        #expect(CueLineParts.leadingSpeakerName(of: "A Life of Einstein") == nil)
        #expect(CueLineParts.leadingSpeakerName(of: "- I'm not.") == nil)
    }

    @Test(arguments: [("www.AllSubs.org", true), ("AllSubs.org", true), ("https://x.y", true), ("example.com", true),
                      ("e.g.", false), ("Mr.", false), ("U.S.A.", false), ("organic", false), ("v.com", true)])
    func webAddresses(_ word: String, _ expected: Bool) {
        #expect(CueLineParts.isWebAddress(word) == expected, "\(word)")
    }

    /// The credit rule as it was written before it became one pass (each mark
    /// looked for in turn, every occurrence of a domain tried): the one-pass
    /// `isCredit` must say the same of every line.
    static func isCreditByEachMark(_ line: String) -> Bool {
        let bytes = Array(line.utf8)
        func lowered(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
        func letterOrDigit(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) }
        func occurrences(_ needle: String) -> [Int] {
            let n = Array(needle.utf8)
            guard bytes.count >= n.count else { return [] }
            return (0...(bytes.count - n.count)).filter { i in n.indices.allSatisfy { lowered(bytes[i + $0]) == n[$0] } }
        }
        if !occurrences("://").isEmpty || !occurrences("www.").isEmpty { return true }
        for domain in CueLineParts.domains {
            for at in occurrences(domain) {
                let end = at + domain.utf8.count
                let before = at > 0 ? bytes[at - 1] : 0x20
                if end == bytes.count || !letterOrDigit(bytes[end]), letterOrDigit(before) { return true }
            }
        }
        return CueLineParts.creditPhrases.contains { !occurrences($0).isEmpty }
    }

    @Test(arguments: [
        "Downloaded from www.AllSubs.org", "WWW.EXAMPLE", "see https://x.y", "Visit AllSubs.ORG now", "site.com/path",
        ".com", "a .com", "x.comet", "v.io", "Mr. Smith.", "the .info desk", "e.g. this", "U.S.A. tonight",
        "SUBTITLES BY JOHN", "Subtitled  by", "Sous-Titres : Jean", "SUBTÍTULOS por", "subtítulos", "Untertitel: X",
        "opensubtitle", "addic7ed", "synced and corrected by", "closed captioning", "captions", ":/", "ww.", "",
        "ANDROID.NET.", "net.com.org", "héllo.com", "日本.com", "日本語の字幕", "sync by", "corrected  by",
    ])
    func theOnePassCreditRuleSaysWhatEachMarkSaid(_ line: String) {
        var copy = line
        let credit = copy.withUTF8 { CueLineParts.isCredit(0..<$0.count, in: $0) }
        #expect(credit == Self.isCreditByEachMark(line), "\(line)")
    }

    /// The same on every line of generated text made of the marks' pieces.
    @Test func theOnePassCreditRuleAgreesOnGeneratedLines() {
        let pieces = ["www", ".", "com", "org", ":", "/", "//", "A", "b", "1", " ", "é", "subtitles", "by", "Sous", "-", "titres",
                      "io", "info", "NET", "tv", "x", "Addic7ed"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var disagreements: [String] = []
        var credits = 0
        for _ in 0..<4000 {
            var line = ""
            for _ in 0..<Int(state % 7 + 1) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                line += pieces[Int((state >> 33) % UInt64(pieces.count))]
            }
            var copy = line
            let credit = copy.withUTF8 { CueLineParts.isCredit(0..<$0.count, in: $0) }
            if credit { credits += 1 }
            if credit != Self.isCreditByEachMark(line) { disagreements.append(line) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(credits > 100 && credits < 3900)
    }
}

extension CueLinePartsTests {
    /// Lines of up to a few hundred bytes with every mark, in any case, at
    /// random offsets among ordinary words, anchors and non-ASCII text (in a
    /// buffer where the line does not start at 0): the credit rule's filter
    /// (`CueLineParts.CreditFilter`: the `.` and `:` it looks near, the four
    /// bytes it samples) passes over no mark, and says what each mark says.
    @Test func theCreditFilterPassesOverNoMark() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let marks = ["://", "www."] + CueLineParts.domains + CueLineParts.creditPhrases
        let filler = ["the", "quick", "Brown", " ", "  ", "fox", ".", ":", "/", "-", "é", "日本", "by", "sub", "titles", "caption",
                      "a", "x1", "Mr.", "co", "—", "♪", "[MUSIC]", "ed", "tion", "ing", "synced"]
        var disagreements: [String] = []
        var credits = 0
        for _ in 0..<6000 {
            var line = ""
            for _ in 0..<(1 + next(40)) { line += filler[next(filler.count)] }
            if next(2) == 0 {
                var mark = marks[next(marks.count)]
                if next(3) == 0 { mark = mark.uppercased() } else if next(3) == 0 { mark = mark.prefix(1).uppercased() + mark.dropFirst() }
                let at = line.index(line.startIndex, offsetBy: next(line.count + 1))
                line.insert(contentsOf: mark, at: at)
            }
            var buffer = Array("lead\n".utf8) + Array(line.utf8) + Array("\ntail".utf8)
            let credit = buffer.withUnsafeBufferPointer { CueLineParts.isCredit(5..<5 + line.utf8.count, in: $0) }
            if credit { credits += 1 }
            if credit != Self.isCreditByEachMark(line) { disagreements.append(line) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(credits > 1000 && credits < 5000)
    }
}

extension CueLinePartsTests {
    /// A line's bytes are passed eight at a time where none may start a part
    /// (`mayStartAPart`): random words, ASCII and not, say yes exactly when
    /// one of their bytes is `[`, `(` or 0xE2.
    @Test func theEightByteTestIsExact() {
        var state: UInt64 = 34
        let interesting: [UInt8] = [0x5B, 0x28, 0xE2, 0x5D, 0x29, 0x20, 0x61, 0x80, 0x99, 0xAA, 0xE3, 0xE1, 0x27, 0x00, 0xFF, 0x5A, 0x5C]
        for _ in 0..<50_000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            var bytes = [UInt8]()
            var s = state
            for _ in 0..<8 {
                bytes.append(s & 1 == 0 ? interesting[Int(s >> 1) % interesting.count] : UInt8(truncatingIfNeeded: s >> 8))
                s = s >> 5 | s << 59
            }
            let w = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            #expect(CueLineParts.mayStartAPart(w) == bytes.contains { $0 == 0x5B || $0 == 0x28 || $0 == 0xE2 }, "\(bytes)")
        }
    }

    /// Lines long enough for the eight-byte steps, with parts at every offset: the parts found are where they stand.
    @Test func partsAreFoundAtEveryOffset() {
        for pad in 0..<20 {
            let lead = String(repeating: "a", count: pad)
            #expect(Self.parts(lead + " [door creaks] and more words here") == ["description:[door creaks]"])
            #expect(Self.parts(lead + " words ♪ la la ♪ and the rest of it") == ["music:♪", "music:♪"])
            #expect(Self.parts("Words words words " + lead + " (LAUGHS) and on") == ["description:(LAUGHS)"])
        }
    }
}

extension CueLinePartsTests {
    /// Random bytes thick with line feeds and their neighbours (0x09, 0x0B,
    /// 0x8A, 0x0A with the high bit, 0x00, 0xFF), from every start:
    /// `lineFeed` (eight bytes at a time) finds the first `\n` a byte walk finds.
    @Test func lineFeedIsTheFirstLineFeed() {
        var random = SplitMix64(state: 0x1F00D)
        let bytes: [UInt8] = [0x0A, 0x09, 0x0B, 0x8A, 0x00, 0xFF, 0x20, 0x61, 0x0D, 0x01]
        for _ in 0..<3_000 {
            let count = Int(random.next() % 40)
            let density = 1 + Int(random.next() % 30)
            let text = (0..<count).map { _ in
                random.next() % UInt64(density) == 0 ? 0x0A : bytes[Int(random.next() % UInt64(bytes.count))]
            }
            text.withUnsafeBufferPointer { p in
                for from in 0...count {
                    let expected = p[from...].firstIndex(of: 0x0A) ?? count
                    #expect(CueLineParts.lineFeed(from: from, in: p) == expected, "\(text) from \(from)")
                }
            }
        }
    }
}

extension CueLinePartsTests {
    /// Random lines (ASCII words, part starts, music marks, other UTF-8, dots
    /// and colons) at random offsets: when the credit check says a line is no
    /// credit, it says whether the line holds a `[`, `(` or 0xE2 exactly (a
    /// line shorter than three bytes: that it may), so skipping the
    /// description search of a line with none (`appendParts`) is exact; and
    /// the check's answer is `isCredit`'s.
    @Test func theCreditPassSeesEveryPartStart() {
        var random = SplitMix64(state: 0xC0FFEE)
        let pieces = ["word", " ", "[", "(", ")", "]", "♪", "é", "—", ".", ":", "a", "THE", "by", "www", "日", "\u{2028}", "xy"]
        for _ in 0..<20_000 {
            var line = ""
            for _ in 0..<Int(random.next() % 24) { line += pieces[Int(random.next() % UInt64(pieces.count))] }
            let lead = Int(random.next() % 9)
            let buffer = [UInt8](repeating: 0x28, count: lead) + Array(line.utf8) + [0x5B, 0xE2]
            buffer.withUnsafeBufferPointer { p in
                let range = lead..<lead + line.utf8.count
                var mayHoldAPart = false
                let credit = CueLineParts.isCredit(range, in: p, mayHoldAPart: &mayHoldAPart)
                #expect(credit == CueLineParts.isCredit(range, in: p), "\(line)")
                // A line of three bytes or more that is no credit: exactly whether it holds one.
                if !credit && range.count >= 3 {
                    #expect(mayHoldAPart == p[range].contains { $0 == 0x5B || $0 == 0x28 || $0 == 0xE2 }, "\(line)")
                } else if !credit {
                    #expect(mayHoldAPart, "\(line)")
                }
            }
        }
    }
}
