import Foundation
import Testing
@testable import Captions

/// `Cue.appendReadableText` copies SRT text straight from the source bytes;
/// it must give exactly what walking the cue's runs gives.
@Suite struct ReadableTextTests {
    /// The reference: the runs, walked.
    static func fromRuns(_ cue: Cue) -> [UInt8] {
        var out: [UInt8] = []
        for run in cue.runs {
            switch run.kind {
            case .text: out += Array(run.text.utf8)
            case .lineBreak: out.append(0x20)
            case .markup: break
            }
        }
        return out
    }

    static let documents: [[UInt8]] = [
        Array("1\n00:00:01,000 --> 00:00:02,000\nPlain line\nsecond <i>italic</i> {\\an8}tail\n\n".utf8),
        Array("1\r\n00:00:01,000 --> 00:00:02,000\r\ncafé — déjà vu…\r\n  \r\nafter a blank\r\n\r\n".utf8),
        [0x31, 0x0A] + Array("00:00:01,000 --> 00:00:02,000\n".utf8) + [0x61, 0xC3, 0x3C, 0x69, 0x3E, 0xA9, 0x62, 0x0A, 0xFF, 0xE2, 0x82, 0x0A, 0x0A],
        Array("1\n00:00:01,000 --> 00:00:02,000\n<b>bold</b><font color=\"red\">x</font> < not a tag {not ass}\n{\\b1}ass{\\b0}\t\n\n".utf8),
        [0x31, 0x0A] + Array("00:00:01,000 --> 00:00:02,000\n".utf8) + [0xED, 0xA0, 0x80, 0xE0, 0x80, 0xAF, 0xF4, 0x90, 0x80, 0x80, 0xF0, 0x9F, 0x8E, 0xAC, 0x0A],
    ]

    @Test(arguments: documents.indices)
    func srtTextMatchesTheRuns(_ index: Int) throws {
        let document = try CaptionDocument.read(SourceText.decode(bytes: Self.documents[index]), hint: .srt)
        #expect(!document.cues.isEmpty)
        for cue in document.cues {
            var out: [UInt8] = []
            cue.appendReadableText(to: &out, lineBreak: 0x20)
            #expect(out == Self.fromRuns(cue))
        }
    }

    @Test func everySRTFixtureMatchesTheRuns() throws {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent("valid/srt")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".srt") }
        #expect(names.count > 10)
        for name in names {
            let document = try CaptionDocument.read(Data(contentsOf: root.appendingPathComponent(name)), hint: .srt)
            for cue in document.cues {
                var out: [UInt8] = []
                cue.appendReadableText(to: &out, lineBreak: 0x20)
                #expect(out == Self.fromRuns(cue), "\(name) line \(cue.line)")
            }
        }
    }

    @Test func utf8ValidityAgreesWithTheStandardLibrary() {
        var samples: [[UInt8]] = [[], [0x41], [0xC2, 0x80], [0xC1, 0xBF], [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
                                  [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
                                  [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80], [0xC3], [0xE2, 0x82]]
        // Every two-byte sequence, and every lead byte with each kind of follower.
        for a in 0...255 { for b in [0x00, 0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] { samples.append([UInt8(a), UInt8(b), 0x80, 0x80]) } }
        for sample in samples {
            let valid = sample.withUnsafeBufferPointer { UTF8Repair.isValid($0) }
            let roundTrips = Array(String(decoding: sample, as: UTF8.self).utf8) == sample
            #expect(valid == roundTrips, "\(sample)")
        }
    }
}

/// `CaptionDocument.readableText` (one pass, repaired once at the end) must
/// give what joining the cues' `appendReadableText` and decoding gives.
@Suite struct DocumentReadableTextTests {
    static func reference(_ document: CaptionDocument) -> String {
        var out: [UInt8] = []
        for (i, cue) in document.cues.enumerated() {
            if i > 0 { out.append(0x0A) }
            out += ReadableTextTests.fromRuns(cue)
        }
        return String(decoding: out, as: UTF8.self)
    }

    static var documents: [[UInt8]] {
        var docs = ReadableTextTests.documents
        let header = Array("00:00:01,000 --> 00:00:02,000\n".utf8)
        // Invalid bytes cut by markup, by line ends (LF, CR LF, CR) and at each offset of an eight-byte block.
        for offset in 0..<9 {
            let pad = Array(repeating: UInt8(ascii: "w"), count: offset)
            var doc: [UInt8] = Array("1\n".utf8) + header
            doc += pad + [0xE2, 0x80] + Array("<i>".utf8) + [0x99] + Array("</i>ok{\\an8}".utf8) + [0xC3] + Array("\r\n".utf8)
            doc += pad + [0xF0, 0x9F] + Array("\r".utf8) + [0x8E, 0xAC] + Array(" tail <b>b</b>\n\n".utf8)
            doc += Array("2\r\n00:00:03,000 --> 00:00:04,000\r\n".utf8) + pad + Array("<<{{}}>> {\\b1}x{\\b0} &amp; café\u{301}\r\n\r\n".utf8)
            doc += Array("3\n00:00:05,000 --> 00:00:06,000\n".utf8) + pad + [0xFF, 0xFE, 0x3C, 0x75, 0x3E, 0xBF] + Array("\n  \t\nafter blank\n".utf8)
            docs.append(doc)
        }
        return docs
    }

    @Test(arguments: documents.indices)
    func oneStringMatchesTheCues(_ index: Int) throws {
        let document = try CaptionDocument.read(SourceText.decode(bytes: Self.documents[index]), hint: .srt)
        #expect(!document.cues.isEmpty)
        #expect(document.readableText() == Self.reference(document))
        // Non-ASCII separators take the cue-by-cue way; the bytes are the same.
        var out: [UInt8] = []
        for (i, cue) in document.cues.enumerated() {
            if i > 0 { out.append(0xFF) }
            cue.appendReadableText(to: &out, lineBreak: 0x20)
        }
        #expect(document.readableText(cueSeparator: 0xFF) == String(decoding: out, as: UTF8.self))
    }

    @Test func everySRTFixtureMatchesTheCues() throws {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent("valid/srt")
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path) where name.hasSuffix(".srt") {
            let document = try CaptionDocument.read(Data(contentsOf: root.appendingPathComponent(name)), hint: .srt)
            #expect(document.readableText() == Self.reference(document), "\(name)")
        }
    }
}

/// The writer's run layout (kinds and source bytes, no strings) must be the runs' own.
@Suite struct RunLayoutTests {
    @Test func layoutIsTheRunsKindsAndSources() throws {
        var documents = DocumentReadableTextTests.documents.map { try? CaptionDocument.read(SourceText.decode(bytes: $0), hint: .srt) }
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent("valid/srt")
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path) where name.hasSuffix(".srt") {
            documents.append(try CaptionDocument.read(Data(contentsOf: root.appendingPathComponent(name)), hint: .srt))
        }
        var cues = 0
        for document in documents.compactMap({ $0 }) {
            for cue in document.cues {
                let layout = cue.runOutlines()
                let runs = cue.runs
                #expect(layout.map(\.kind) == runs.map(\.kind))
                #expect(layout.map(\.source) == runs.map(\.source))
                #expect(layout.map(\.style) == runs.map(\.style))
                cues += 1
            }
        }
        #expect(cues > 50)
    }
}

/// The count `textStart` cuts by is the string's count, ASCII (CR LF, a lone CR) or not.
@Suite struct CharacterCountTests {
    @Test func theCountIsTheStringsCount() {
        let texts = ["", "a", "\r", "\n", "\r\n", "\r\r\n\n", "ab\r\ncd\rx\n", "abcdefgh\r", "abcdefg\r\nhijklmnop", "café", "e\u{301}\r\n",
                     "👍🏽 ok", "ラーメン\r\nok", String(repeating: "line one\r\n", count: 40), "\r\n" + String(repeating: "x", count: 17) + "\r"]
        for text in texts {
            let bytes = Array(text.utf8)
            #expect(CaptionDocument.characterCount(bytes) == text.count, "\(bytes)")
        }
    }

    /// Random byte strings of pieces that grapheme rules join or split
    /// (CR LF, combining marks after ASCII, ZWJ sequences, flags, a prepend
    /// before a digit, Hangul jamo, bytes that are not UTF-8): the count,
    /// made of stretches cut between two ASCII bytes, is the whole string's.
    @Test func theCountOfStretchesIsTheWholeStringsCount() {
        let pieces: [[UInt8]] = ["a", "b", " ", ".", "\r", "\n", "\r\n", "\u{301}", "e\u{301}", "é", "👍", "🏽", "\u{200D}", "👨‍👩‍👧",
                                 "🇫🇷", "🇺", "\u{600}", "1", "\u{1100}", "\u{1161}", "\u{11A8}", "ラ", "\u{915}\u{94D}\u{937}", "\u{A0}", "x"]
            .map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x80], [0x80]]
        var state: UInt64 = 34
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            for k in 0..<Int(state % 24) {
                bytes += pieces[Int(((state >> UInt64(k % 40)) &+ UInt64(k) &* 7) % UInt64(pieces.count))]
            }
            #expect(CaptionDocument.characterCount(bytes) == String(decoding: bytes, as: UTF8.self).count, "\(bytes)")
        }
    }

    /// Long runs of ASCII (counted eight bytes at a time) with a CR, CR LF or
    /// a combining mark at every offset: the count is the string's.
    @Test func eightASCIIBytesAtATimeCountAsTheString() {
        let marks = ["\r", "\r\n", "\n", "\u{301}", "é", "👍🏽", "\r\r\n"]
        for lead in 0..<20 {
            for mark in marks {
                for tail in [0, 1, 7, 8, 9, 16] {
                    let text = String(repeating: "a", count: lead) + mark + String(repeating: "b", count: tail)
                    let bytes = Array(text.utf8)
                    #expect(CaptionDocument.characterCount(bytes) == text.count, "\(bytes)")
                }
            }
        }
    }

    /// Random cue texts (ASCII, accents, combining marks, emoji, CR at a
    /// cue's end) and caps: the fewest start is the fewest cues whose text
    /// holds more than the cap (the string's count), and a prefix of the start counted by doublings.
    @Test func theFewestStartHoldsJustMoreThanTheCap() throws {
        let pieces = ["a", "word ", "é", "e\u{301}", "👍🏽", "ラ", ".", "\r", "ab\r", "\u{301}"]
        var state: UInt64 = 39
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        let srt = (1...40).map { "\($0)\n00:00:01,000 --> 00:00:02,000\nx\n\n" }.joined()
        let document = try CaptionDocument.read(SourceText.decode(bytes: Array(srt.utf8)), hint: .srt)
        #expect(document.cues.count == 40)
        for _ in 0..<400 {
            let texts = (0..<40).map { _ in (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined() }
            let cap = next(160)
            let append = { (index: Int, out: inout [UInt8]) in out += Array(texts[index].utf8) }
            let (start, cues) = document.textStart(characters: cap, cueSeparator: 0x0A, fewest: true, appendCue: append)
            let (doubled, _) = document.textStart(characters: cap, cueSeparator: 0x0A, appendCue: append)
            #expect(doubled.utf8.starts(with: start.utf8), "cap \(cap)")
            let held = texts.prefix(cues).joined(separator: "\n")
            if cues < texts.count {
                #expect(start == held + "\n", "cap \(cap)")
                #expect(held.count > cap, "cap \(cap)")
                #expect(texts.prefix(cues - 1).joined(separator: "\n").count <= cap, "cap \(cap): \(cues) cues")
            } else {
                #expect(start == held, "cap \(cap)")
            }
        }
    }
}
