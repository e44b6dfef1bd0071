import Foundation
import Testing
@testable import Captions

/// A cue read from a file is held compact (`CompactCue`: offsets into the
/// document's bytes, times in milliseconds) when its values fit, and whole
/// (`CueFields`) when they do not or when one is set. Either way its public
/// values must be the ones read, and a setter must change only its own.
@Suite struct CompactCueTests {
    static func read(_ text: String, _ format: CaptionFormat) throws -> CaptionDocument {
        try CaptionDocument.read(SourceText.decode(bytes: Array(text.utf8)), hint: format)
    }

    /// Whether `cue` is held in the compact fields (its values not in a box).
    static func isCompact(_ cue: Cue) -> Bool {
        if case .fields = cue.storage { return false }
        return true
    }

    /// The same values, through the public initializer (held whole).
    static func whole(_ cue: Cue) -> Cue {
        Cue(identifier: cue.identifier, start: cue.start, end: cue.end, settings: cue.settings, line: cue.line,
            runs: cue.runs, textRange: cue.textRange)
    }

    @Test func aCueInAnArrayTakes32Bytes() {
        // What a 200,000-cue file's cue array costs per cue (it was 120, then 48): the
        // numbers in 24 bytes, and one reference whose case sits in its spare bits.
        #expect(MemoryLayout<CompactCue>.size == 24)
        #expect(MemoryLayout<Cue.Storage>.size == 8)
        #expect(MemoryLayout<Cue>.stride == 32)
    }

    @Test func anSRTCueIsCompactWithTheValuesRead() throws {
        let document = try Self.read("  7 \n00:00:01,500 --> 00:01:02,250  X1:10 X2:20 Y1:5 Y2:9\n<i>Hello</i>\nthere\n\n8\n00:00:03,000 --> 00:00:04,000\nbye\n", .srt)
        let cue = try #require(document.cues.first)
        #expect(Self.isCompact(cue))
        #expect(cue.identifier == "7")
        #expect(cue.settings == "X1:10 X2:20 Y1:5 Y2:9")
        #expect(cue.start == CaptionTime(milliseconds: 1500) && cue.end == CaptionTime(milliseconds: 62_250))
        #expect(cue.line == 2)
        #expect(cue.plainText == "Hello\nthere")
        #expect(cue == Self.whole(cue))
        #expect(cue.hashValue == Self.whole(cue).hashValue)
        #expect(document.cues[1].settings == nil && document.cues[1].identifier == "8")
    }

    @Test func webVTTAndTTMLCuesAreCompactWithTheValuesRead() throws {
        let vtt = try Self.read("WEBVTT\n\nintro &amp; more\n00:01.000 --> 00:02.000 align:start line:0\n<b>Hi</b> &amp; bye\n\n00:03.000 --> 00:04.000\nx\n", .vtt)
        #expect(vtt.cues.allSatisfy(Self.isCompact))
        #expect(vtt.cues[0].identifier == "intro &amp; more" && vtt.cues[0].settings == "align:start line:0")
        #expect(vtt.cues[1].identifier == nil && vtt.cues[1].settings == nil)
        #expect(vtt.cues[0].plainText == "Hi & bye")
        let ttml = try Self.read(#"<?xml version="1.0"?><tt xmlns="http://www.w3.org/ns/ttml"><body><div><p xml:id="c1" begin="00:00:01.000" end="00:00:02.000">one</p><p xml:id="a&amp;b" begin="1.5s" end="2s">two</p></div></body></tt>"#, .ttml)
        #expect(Self.isCompact(ttml.cues[0]) && ttml.cues[0].identifier == "c1")
        // An identifier that a character reference spells differs from its bytes: held whole.
        #expect(!Self.isCompact(ttml.cues[1]) && ttml.cues[1].identifier == "a&b")
        #expect(ttml.cues[1].start == CaptionTime(milliseconds: 1500) && ttml.cues[1].plainText == "two")
    }

    @Test func valuesThatDoNotFitAreHeldWhole() throws {
        // Past 49 days (UInt32 milliseconds) is still compact: the start has 38 bits (8.7 years), the length 26 (18.6 hours).
        let late = try Self.read("1\n1200:00:00,000 --> 1200:00:01,000\nlate\n", .srt)
        #expect(Self.isCompact(late.cues[0]) && late.cues[0].start == CaptionTime(milliseconds: 4_320_000_000)
            && late.cues[0].end == CaptionTime(milliseconds: 4_320_001_000))
        // The last start and the longest length that fit, and one millisecond more of each: held whole, with the values read.
        let lastStart = (1 << 38) - 1, longest = (1 << 26) - 1
        func time(_ ms: Int) -> String {
            String(format: "%02d:%02d:%02d,%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        }
        for (start, end, compact) in [(lastStart, lastStart + 1, true), (lastStart + 1, lastStart + 2, false),
                                      (5, 5 + longest, true), (5, 5 + longest + 1, false)] {
            let document = try Self.read("1\n\(time(start)) --> \(time(end)) X1:1\nedge\n", .srt)
            let cue = try #require(document.cues.first)
            #expect(Self.isCompact(cue) == compact, "\(start) --> \(end)")
            #expect(cue.start == CaptionTime(milliseconds: Int64(start)) && cue.end == CaptionTime(milliseconds: Int64(end)))
            #expect(cue.identifier == "1" && cue.settings == "X1:1" && cue.plainText == "edge" && cue.line == 2)
        }
        // A text of 65,535 bytes is compact, one of 65,536 held whole.
        for (length, compact) in [(65_535, true), (65_536, false)] {
            let text = String(repeating: "a", count: length)
            let document = try Self.read("7\n00:00:01,000 --> 00:00:02,000\n\(text)\n\n8\n00:00:03,000 --> 00:00:04,000\nnext\n", .srt)
            #expect(Self.isCompact(document.cues[0]) == compact && document.cues[0].textRange.count == length)
            #expect(document.cues[0].plainText == text && document.cues[0].identifier == "7")
            #expect(Self.isCompact(document.cues[1]) && document.cues[1].plainText == "next" && document.cues[1].identifier == "8")
        }
        // An identifier over 255 bytes, an end before the start: held whole, with the values read.
        let long = String(repeating: "9", count: 300)
        let srt = try Self.read("\(long)\n00:00:05,000 --> 00:00:06,000\nlong\n\n2\n00:00:09,000 --> 00:00:08,000\nbackwards\n", .srt)
        #expect(!Self.isCompact(srt.cues[0]) && srt.cues[0].identifier == long && srt.cues[0].plainText == "long")
        #expect(!Self.isCompact(srt.cues[1]) && srt.cues[1].end == CaptionTime(milliseconds: 8000)
            && srt.cues[1].start == CaptionTime(milliseconds: 9000) && srt.cues[1].plainText == "backwards")
        // Frames at 30000/1001 fps are not whole milliseconds.
        let ttml = try Self.read(#"<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001"><body><div><p begin="00:00:01:01" end="00:00:02:00">f</p></div></body></tt>"#, .ttml)
        let frames = try #require(ttml.cues.first)
        #expect(!Self.isCompact(frames))
        #expect(1000 % frames.start.denominator != 0 && frames.plainText == "f")
        #expect(frames.start > CaptionTime(milliseconds: 1000) && frames.start < CaptionTime(milliseconds: 1100))
    }

    @Test func aSetterChangesItsOwnValueOnly() throws {
        let document = try Self.read("3\n00:00:01,000 --> 00:00:02,000 X1:1\n<b>bold</b> text\n", .srt)
        let read = try #require(document.cues.first)
        let runs = [TextRun(kind: .text, text: "new", source: 0..<0)]
        var changed = read
        changed.start = CaptionTime(milliseconds: 500)
        #expect(changed.start == CaptionTime(milliseconds: 500) && changed.end == read.end && changed.runs == read.runs)
        #expect(changed.identifier == "3" && changed.settings == "X1:1" && changed.line == read.line && changed.textRange == read.textRange)
        #expect(read.start == CaptionTime(milliseconds: 1000))
        changed = read; changed.end = CaptionTime(milliseconds: 9000)
        #expect(changed.end == CaptionTime(milliseconds: 9000) && changed.start == read.start && changed.runs == read.runs)
        changed = read; changed.identifier = nil
        #expect(changed.identifier == nil && changed.settings == "X1:1" && changed.runs == read.runs)
        changed = read; changed.settings = "Y1:2"
        #expect(changed.settings == "Y1:2" && changed.identifier == "3")
        changed = read; changed.line = 40
        #expect(changed.line == 40 && changed.start == read.start)
        changed = read; changed.textRange = 0..<1
        // The runs are still built from the text as read.
        #expect(changed.textRange == 0..<1 && changed.runs == read.runs)
        changed = read; changed.runs = runs
        #expect(changed.runs == runs && changed.plainText == "new" && changed.textRange == read.textRange && read.plainText == "bold text")
        #expect(changed != read)
    }
}
