import Foundation
import Testing
@testable import Captions

private typealias S = WebVTTTestSupport

@Suite("WebVTT reader")
struct WebVTTReaderTests {
    @Test func basicCuesTimesAndRuns() throws {
        let doc = try S.valid("basic.vtt")
        #expect(doc.format == .vtt)
        #expect(doc.warnings.isEmpty)
        #expect(doc.cues.count == 2)
        let (a, b) = (doc.cues[0], doc.cues[1])
        #expect(a.identifier == nil && a.settings == nil)
        #expect(S.ms(a.start) == 1000 && S.ms(a.end) == 3500 && a.line == 3)
        #expect(S.describe(a.runs) == ["t:Hello, world."])
        #expect(S.describe(b.runs) == ["t:Two lines", "br", "t:of text — déjà vu."])
        #expect(b.plainText == "Two lines\nof text — déjà vu.")
        // textRange: from the first text byte to the end of the last text line, line ending excluded.
        let bytes = doc.source.bytes
        #expect(String(decoding: bytes[b.textRange], as: UTF8.self) == "Two lines\nof text — déjà vu.")
        #expect(b.textRange.upperBound == bytes.count - 1)
    }

    @Test func crlfKeepsLineEndingsInRunSources() throws {
        let doc = try S.valid("crlf.vtt")
        #expect(doc.cues.map(\.identifier) == ["1", "2"])
        #expect(doc.cues.map(\.line) == [4, 9])
        let br = doc.cues[0].runs[1]
        #expect(br.kind == .lineBreak && Array(doc.source.bytes[br.source]) == [0x0D, 0x0A])
        #expect(doc.source.bytes[doc.cues[1].textRange.upperBound] == 0x0D)
    }

    @Test func mixedLineEndingsCountLines() throws {
        let doc = try S.valid("mixed_endings.vtt")
        #expect(doc.warnings.isEmpty)
        #expect(doc.cues.count == 2)
        #expect(doc.cues[0].line == 3 && doc.cues[1].line == 8)
        #expect(S.describe(doc.cues[0].runs) == ["t:line one", "br", "t:line two", "br", "t:line three"])
        #expect(doc.cues[0].runs.filter { $0.kind == .lineBreak }.map { $0.source.count } == [2, 1])
        #expect(S.describe(doc.cues[1].runs) == ["t:last"])
    }

    @Test(arguments: ["bom_utf8.vtt", "utf16le_bom.vtt", "utf16be_bom.vtt"])
    func encodingsAndByteOrderMarks(_ name: String) throws {
        let doc = try S.valid(name)
        #expect(doc.source.hasByteOrderMark)
        #expect(doc.cues.count == 1)
        #expect(S.ms(doc.cues[0].start) == 1000 && S.ms(doc.cues[0].end) == 2000)
        #expect(!doc.cues[0].plainText.isEmpty)
    }

    @Test func utf16TextIsDecoded() throws {
        #expect(try S.valid("utf16le_bom.vtt").cues[0].plainText == "Zoë says ♪ hi")
        #expect(S.describe(try S.valid("utf16be_bom.vtt").cues[0].runs) == ["t:Big-endian ", "m:<i>", "t:text+i", "m:</i>+i"])
    }

    @Test func noFinalNewline() throws {
        let doc = try S.valid("no_final_newline.vtt")
        #expect(doc.cues.count == 2)
        #expect(doc.cues[1].plainText == "the last cue has no newline")
        #expect(doc.cues[1].textRange.upperBound == doc.source.bytes.count)
    }

    @Test func headerTextAndMetadataHeaders() throws {
        let bytes = Array(try S.fixture("valid/vtt/header_metadata.vtt"))
        let parsed = try WebVTTReader.parse(bytes)
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.cues.count == 1 && parsed.cues[0].line == 5)
        #expect(parsed.blocks.map(\.kind) == [.header] && parsed.blocks.map(\.line) == [2])
        #expect(String(decoding: bytes[parsed.blocks[0].range], as: UTF8.self) == "Kind: captions\nLanguage: en-GB")
        let map = try WebVTTReader.parse(Array(try S.fixture("valid/vtt/x_timestamp_map.vtt")))
        #expect(map.blocks.map(\.kind) == [.header])
        #expect(map.cues.count == 1 && S.ms(map.cues[0].start) == 10_000)
    }

    @Test func noteStyleAndRegionBlocks() throws {
        let bytes = Array(try S.fixture("valid/vtt/note_style_region.vtt"))
        let parsed = try WebVTTReader.parse(bytes)
        #expect(parsed.blocks.map(\.kind) == [.note, .style, .region, .note])
        #expect(parsed.blocks.map(\.line) == [3, 6, 10, 13])
        #expect(String(decoding: bytes[parsed.blocks[1].range], as: UTF8.self) == "STYLE\n::cue(.loud) { color: red; }\n::cue(b) { font-weight: 900; }")
        #expect(parsed.cues.count == 2)
        let intro = parsed.cues[0]
        #expect(intro.identifier == "intro" && intro.settings == "region:fred align:left" && intro.line == 16)
        #expect(S.describe(intro.runs) == ["m:<c.loud>", "t:Hi", "m:</c>", "t: from the region"])
        // STYLE after the first cue: ignored (per spec), with a warning on its line.
        #expect(parsed.warnings.count == 1)
        #expect(S.lines(parsed.warnings, containing: "STYLE blocks must come before the first cue") == [19])
        #expect(parsed.cues[1].line == 22)
    }

    @Test func identifiersIncludingNumericOnes() throws {
        let doc = try S.valid("identifiers.vtt")
        #expect(doc.cues.map(\.identifier) == ["1", "42", "crédit de transcription", nil])
        #expect(doc.cues.map(\.line) == [4, 8, 12, 15])
        #expect(doc.warnings.isEmpty)
    }

    @Test func settingsKeptVerbatimAndBadOnesWarned() throws {
        let doc = try S.valid("settings.vtt")
        #expect(doc.cues.map(\.settings) == [
            "align:start line:0 position:10%,line-left size:50%", "line:-1 vertical:rl", "line:85%,end align:right",
            "align:middle colour:red size:150%", "position:50%",
        ])
        #expect(S.ms(doc.cues[4].end) == 6000)
        #expect(doc.warnings.map(\.line) == [12, 12, 12])
        #expect(doc.warnings.map(\.message).allSatisfy { $0.contains("players ignore it") })
        #expect(doc.warnings[1].message.contains("'colour:red'"))
    }

    @Test func hoursOmittedOneDigitAndManyDigitHours() throws {
        let doc = try S.valid("hours_omitted.vtt")
        #expect(doc.warnings.isEmpty)
        #expect(doc.cues.map { S.ms($0.start) } == [1000, 71_913, 123 * 3_600_000])
        #expect(doc.cues.map { S.ms($0.end) } == [2500, 3_723_004, 123 * 3_600_000 + 1000])
    }

    @Test func timestampTagsAreMarkup() throws {
        let doc = try S.valid("timestamp_tags.vtt")
        #expect(doc.warnings.isEmpty)
        #expect(S.describe(doc.cues[0].runs) == [
            "t:Never ", "m:<00:00:01.500>", "t:drink ", "m:<00:00:02.000>", "t:liquid ", "m:<00:00:03.000>", "t:nitrogen.",
        ])
        #expect(doc.cues[0].plainText == "Never drink liquid nitrogen.")
    }

    @Test func entitiesAreDecodedIntoTextRuns() throws {
        let doc = try S.valid("entities.vtt")
        #expect(doc.cues[0].runs.count == 1)
        #expect(doc.cues[0].plainText == "Tom & Jerry <3 > all")
        #expect(doc.cues[1].plainText == "non\u{A0}breaking\u{200E} \u{200F}café été \"q\" 'a'")
        #expect(doc.cues[2].plainText == "unknown &bogus; and bare & stay")
        #expect(doc.warnings.map(\.line) == [10])
        #expect(doc.warnings[0].message.contains("&bogus;"))
        // The run's source covers the raw bytes, entities as written.
        let run = doc.cues[0].runs[0]
        #expect(String(decoding: doc.source.bytes[run.source], as: UTF8.self) == "Tom &amp; Jerry &lt;3 &gt; all")
    }

    @Test(arguments: [
        ("&#65;&#x42;&#X43;", "ABC"), ("&#0;", "\u{FFFD}"), ("&#x110000;", "\u{FFFD}"), ("&#xD800;", "\u{FFFD}"),
        ("&#x80;", "€"), ("&#99999999999999999999;", "\u{FFFD}"), ("&amp", "&"), ("&ampx", "&x"), ("&#65x", "Ax"),
        ("&#;", "&#;"), ("&#x;", "&#x;"), ("&", "&"), ("a & b", "a & b"), ("&mdash;&hellip;", "—…"), ("&lrm", "&lrm"),
    ])
    func characterReferences(_ raw: String, _ decoded: String) throws {
        let doc = try S.read("WEBVTT\n\n00:01.000 --> 00:02.000\n\(raw)\n")
        #expect(doc.cues[0].plainText == decoded)
        #expect(doc.cues[0].runs.count == 1)
    }

    @Test func rubyAndRubyTextClosedByRuby() throws {
        let doc = try S.valid("ruby.vtt")
        #expect(S.describe(doc.cues[0].runs) == [
            "m:<ruby>", "t:漢", "m:<rt>", "t:kan", "m:</rt>", "t:字", "m:<rt>", "t:ji", "m:</rt>", "m:</ruby>", "t: done",
        ])
        #expect(doc.cues[1].plainText == "東京とうきょう closes both")
        #expect(doc.warnings.isEmpty)
    }

    @Test func voiceSpansClassesLanguageAndStyles() throws {
        let doc = try S.valid("voice_spans.vtt")
        #expect(S.describe(doc.cues[0].runs) == ["m:<v.first.loud Esme>", "t:It's a blue apple tree!"])
        #expect(S.describe(doc.cues[1].runs) == [
            "m:<v Roger Bingham>", "t:No ", "m:<b>", "t:way+b", "m:</b>+b", "t:!", "m:</v>", "t: ", "m:<i>", "t:laughs+i", "m:</i>+i",
        ])
        #expect(S.describe(doc.cues[2].runs) == [
            "t:Sur les ", "m:<i.foreignphrase>", "m:<lang en>+i", "t:playground+i", "m:</lang>+i", "m:</i>+i", "t:, ", "m:<u>", "t:ici+u", "m:</u>+u",
        ])
        // </b> while <i> is the current element is ignored (spec), so bold goes on to the end.
        #expect(S.describe(doc.cues[3].runs) == [
            "m:<b>", "m:<i>+b", "t:both+b+i", "m:</b>+b+i", "t: italic only+b+i", "m:</i>+b+i", "t: +b",
            "m:<font color=red>+b", "t:unknown+b", "m:</font>+b",
        ])
        #expect(doc.warnings.count == 1)
        #expect(S.lines(doc.warnings, containing: "<font> is not a WebVTT tag") == [13])
    }

    @Test func arrowWithoutBlankLineStartsANewCue() throws {
        let doc = try S.valid("missing_blank_line.vtt")
        #expect(doc.cues.map(\.line) == [2, 4, 7, 10])
        #expect(doc.cues.map(\.identifier) == [nil, nil, nil, nil])
        // Per spec the line above a third-line arrow stays in the cue text.
        #expect(doc.cues[1].plainText == "no blank line before me\nid-like line")
        // A blank line right after the timing line ends the cue: empty cue, then an orphan block.
        #expect(doc.cues[3].runs.isEmpty)
        #expect(doc.warnings.map(\.line) == [2, 4, 7, 12])
        #expect(doc.warnings[0].message.contains("between the header and this timing line"))
        #expect(doc.warnings[3].message.contains("the cue at line 10 has no text"))
    }

    @Test func emptyCueTextRangeIsTheLineAfterTheTiming() throws {
        let doc = try S.valid("empty_cue.vtt")
        #expect(doc.cues.count == 2)
        #expect(doc.cues[0].runs.isEmpty && doc.cues[0].textRange == 38..<38)
        #expect(doc.source.bytes[37] == 0x0A)
        #expect(doc.warnings.isEmpty)
    }

    @Test func lenientTimestampsBadOnesAndOverflowWarn() throws {
        let doc = try S.valid("lenient_timestamps.vtt")
        #expect(doc.cues.map(\.line) == [3, 6, 9, 12, 27])
        #expect(doc.cues.map { S.ms($0.start) } == [1000, 3500, 65_200, 8000, 12_000])
        #expect(doc.cues.map { S.ms($0.end) } == [2500, 4250, 66_000, 7000, 13_000])
        #expect(doc.warnings.map(\.line) == [3, 6, 9, 12, 15, 18, 21, 24])
        #expect(doc.warnings[0].message.contains("a comma before the milliseconds"))
        #expect(doc.warnings[1].message.contains("fewer than three millisecond digits"))
        #expect(doc.warnings[2].message.contains("one-digit"))
        #expect(doc.warnings[3].message.contains("ends before it starts"))
        #expect(doc.warnings[4].message.contains("at most 59"))
        #expect(doc.warnings[5].message.contains("too large"))
        #expect(doc.warnings[6].message.contains("no timing line"))
        #expect(doc.warnings[7].message.contains("exactly three digits"))
    }

    @Test func nulIsReadAsReplacementWithAWarning() throws {
        let doc = try S.valid("nul.vtt")
        #expect(doc.cues[0].plainText == "nul\u{FFFD}here")
        #expect(doc.warnings.map(\.line) == [4])
        #expect(doc.warnings[0].message.contains("NUL"))
    }

    @Test func optionalWhitespaceAroundTheArrow() throws {
        let doc = try S.valid("whitespace_arrows.vtt")
        #expect(doc.warnings.isEmpty)
        #expect(doc.cues.map { S.ms($0.start) } == [1000, 2000])
        #expect(doc.cues.map { S.ms($0.end) } == [2000, 3000])
        #expect(doc.cues.map(\.settings) == [nil, nil])
    }

    @Test func spacesOnlyLineDoesNotEndTheCue() throws {
        let doc = try S.valid("whitespace_line.vtt")
        #expect(doc.cues.count == 2)
        #expect(doc.cues[0].plainText == "text\n  \n2")
        #expect(doc.cues[1].identifier == nil)
        #expect(doc.warnings.map(\.line) == [5, 7])
        #expect(doc.warnings[0].message.contains("only spaces"))
    }

    @Test func unclosedTagRunsToTheEndOfTheCue() throws {
        let doc = try S.valid("unclosed_tag.vtt")
        #expect(S.describe(doc.cues[0].runs) == ["t:2 ", "m:<3 and\nmore"])
        #expect(doc.warnings.map(\.line) == [4])
        #expect(doc.warnings[0].message.contains("never closed"))
    }

    @Test func signatureOnlyIsAValidEmptyDocument() throws {
        for text in ["WEBVTT", "WEBVTT\n", "WEBVTT header text only\n\nNOTE nothing but a comment\n", "WEBVTT\tx\r\n"] {
            let doc = try S.read(text)
            #expect(doc.cues.isEmpty)
            #expect(doc.warnings.isEmpty)
            #expect(try doc.write() == Data(text.utf8))
        }
    }

    @Test func noteLineAboveATimingLineBecomesTheIdentifier() throws {
        let doc = try S.read("WEBVTT\n\nNOTE hello\n00:01.000 --> 00:02.000\ntext\n")
        #expect(doc.cues.map(\.identifier) == ["NOTE hello"])
        #expect(doc.warnings.map(\.line) == [3])
    }

    @Test func leadingBlankLinesBeforeTheSignatureAreSkippedWithAWarning() throws {
        let doc = try S.read("\n\nWEBVTT\n\n00:01.000 --> 00:02.000\ntext\n")
        #expect(doc.cues.map(\.line) == [5])
        #expect(doc.warnings.map(\.line) == [3])
    }

    @Test func timestampTagProblemsWarn() throws {
        let doc = try S.read("WEBVTT\n\n00:01.000 --> 00:02.000\na <00:05.000>b <1:2>c\n")
        #expect(doc.warnings.map(\.line) == [4, 4])
        #expect(doc.warnings[0].message.contains("outside the cue's time span"))
        #expect(doc.warnings[1].message.contains("not a valid timestamp tag"))
        #expect(doc.cues[0].plainText == "a b c")
    }

    @Test func tagsAcrossLinesAndEscapes() throws {
        let doc = try S.read("WEBVTT\n\n00:01.000 --> 00:02.000\n<b>one\ntwo</b> &lt;b&gt;\n")
        #expect(S.describe(doc.cues[0].runs) == ["m:<b>", "t:one+b", "br+b", "t:two+b", "m:</b>+b", "t: <b>"])
    }

    @Test func hostileInputNeverTraps() throws {
        var text = "WEBVTT\n\n"
        text += String(repeating: "<b>", count: 5000) + "\n\n"
        text += "00:00:00.000 --> 00:00:01.000\n" + String(repeating: "<b>", count: 5000) + "x" + String(repeating: "&#9999999999;", count: 50) + "\n\n"
        text += "99999999999999999999999:59:59.999 --> 1:00:00.000\nx\n\n"
        text += String(repeating: "00:00:00.000 --> x\n", count: 2000)
        let doc = try S.read(text)
        #expect(doc.cues.count == 1)
        #expect(doc.cues[0].runs.last?.style == .bold)
        #expect(doc.warnings.count <= CaptionWarningLog.limit + 1)
    }

    @Test func warningsAreCapped() throws {
        let text = "WEBVTT\n\n00:01.000 --> 00:02.000\nok\n\n" + String(repeating: "00:01 --> 00:02\nbad\n\n", count: 1500)
        let doc = try S.read(text)
        #expect(doc.cues.count == 1)
        // 20 of one kind are kept, then the rest are counted.
        #expect(doc.warnings.count == CaptionWarningLog.perKind + 1)
        #expect(doc.warnings.last?.message.hasPrefix("1480 more warnings like “cue ignored: the timing line") == true)
    }
}
