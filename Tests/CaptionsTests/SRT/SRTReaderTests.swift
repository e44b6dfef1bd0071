import Foundation
import Testing
@testable import Captions

/// Reads a fixture's bytes from the test bundle.
private func fixture(_ path: String) throws -> Data {
    let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return try Data(contentsOf: root.appendingPathComponent(path))
}

private func readSRT(_ name: String) throws -> CaptionDocument {
    let doc = try CaptionDocument.read(fixture("valid/srt/\(name)"), hint: .srt)
    #expect(doc.format == .srt)
    checkSources(doc)
    return doc
}

private func ms(_ value: Int64) -> CaptionTime { CaptionTime(milliseconds: value) }

/// Runs written compactly: `T:text`, `T[bi]:text`, `M:<raw>`, `BR`.
private func describe(_ runs: [TextRun]) -> [String] {
    runs.map { run in
        var flags = ""
        if run.style.contains(.bold) { flags += "b" }
        if run.style.contains(.italic) { flags += "i" }
        if run.style.contains(.underline) { flags += "u" }
        if run.style.contains(.strikethrough) { flags += "s" }
        let style = flags.isEmpty ? "" : "[\(flags)]"
        switch run.kind {
        case .text: return "T\(style):\(run.text)"
        case .markup: return "M\(style):\(run.text)"
        case .lineBreak: return "BR"
        }
    }
}

/// Every run's source bytes are its text (SRT has no entities), line breaks
/// sit on a line ending, and the text range spans the runs exactly.
private func checkSources(_ doc: CaptionDocument) {
    let bytes = doc.source.bytes
    for cue in doc.cues {
        for run in cue.runs {
            let raw = Array(bytes[run.source])
            switch run.kind {
            case .text, .markup:
                // Exact bytes, unless a damaged UTF-8 file put U+FFFD in place of invalid bytes.
                if doc.source.warnings.isEmpty || doc.source.encoding != .utf8 {
                    #expect(raw == Array(run.text.utf8), "run source differs from its text at line \(cue.line)")
                } else {
                    #expect(String(decoding: raw, as: UTF8.self) == run.text)
                }
            case .lineBreak: #expect(raw == [10] || raw == [13] || raw == [13, 10], "line break not on a line ending at line \(cue.line)")
            }
        }
        if let first = cue.runs.first, let last = cue.runs.last {
            #expect(cue.textRange == first.source.lowerBound..<last.source.upperBound)
        } else {
            #expect(cue.textRange.isEmpty)
        }
    }
}

/// Checks the warnings one by one: the line and a phrase of the message.
private func expectWarnings(_ doc: CaptionDocument, _ expected: [(Int?, String)],
                            sourceLocation: SourceLocation = #_sourceLocation) {
    let got = doc.warnings.map { "\($0.line.map(String.init) ?? "-"): \($0.message)" }
    #expect(doc.warnings.count == expected.count, "warnings: \(got)", sourceLocation: sourceLocation)
    for (warning, (line, phrase)) in zip(doc.warnings, expected) {
        #expect(warning.line == line, "\(warning) should be on line \(line.map(String.init) ?? "-")", sourceLocation: sourceLocation)
        #expect(warning.message.contains(phrase), "\(warning) should say \(phrase)", sourceLocation: sourceLocation)
    }
}

@Suite("SRT reader")
struct SRTReaderTests {
    @Test func crlfCuesAndItalics() throws {
        let doc = try readSRT("crlf.srt")
        #expect(doc.cues.count == 2)
        let a = doc.cues[0], b = doc.cues[1]
        #expect(a.identifier == "1" && a.line == 2)
        #expect(a.start == ms(1000) && a.end == ms(2500) && a.settings == nil)
        #expect(describe(a.runs) == ["T:Hello ", "M[i]:<i>", "T[i]:world", "M:</i>", "BR", "T:Second line"])
        #expect(a.runs[4].source.count == 2)  // CR LF
        #expect(a.plainText == "Hello world\nSecond line")
        #expect(b.identifier == "2" && b.line == 7 && b.start == ms(3000) && b.end == ms(4000))
        #expect(describe(b.runs) == ["T:Bye"])
        expectWarnings(doc, [])
    }

    @Test func mixedLineEndingsCountAsLines() throws {
        let doc = try readSRT("mixed_endings.srt")
        #expect(doc.cues.map(\.line) == [2, 7])
        #expect(doc.cues.map(\.identifier) == ["1", "2"])
        #expect(describe(doc.cues[0].runs) == ["T:A", "BR", "T:B"])
        #expect(doc.cues[0].runs[1].source.count == 1)  // a bare CR
        #expect(describe(doc.cues[1].runs) == ["T:C"])
        #expect(doc.cues[1].start == ms(3000) && doc.cues[1].end == ms(4000))
        expectWarnings(doc, [])
    }

    @Test func byteOrderMarksAndEncodings() throws {
        let bom = try readSRT("bom_utf8.srt")
        #expect(bom.source.hasByteOrderMark && bom.source.encoding == .utf8)
        #expect(bom.cues.count == 1 && bom.cues[0].identifier == "1")
        #expect(bom.cues[0].start == ms(500) && bom.cues[0].plainText == "Café ☕")
        expectWarnings(bom, [])
        for (name, encoding) in [("utf16le_bom.srt", TextEncoding.utf16LittleEndian), ("utf16be_bom.srt", .utf16BigEndian)] {
            let doc = try readSRT(name)
            #expect(doc.source.encoding == encoding)
            #expect(doc.cues.count == 1 && doc.cues[0].line == 2)
            #expect(describe(doc.cues[0].runs) == ["T:Übung — naïve 日本"])
            expectWarnings(doc, [])
        }
        let cp = try readSRT("windows1252.srt")
        #expect(cp.source.encoding == .windows1252)
        #expect(describe(cp.cues[0].runs) == ["T:Café “quoted”"])
        #expect(cp.warnings.count == 1)
        #expect(cp.warnings.first?.message.contains("Windows-1252") == true)
    }

    @Test func lastCueWithoutFinalNewline() throws {
        let doc = try readSRT("no_final_newline.srt")
        #expect(doc.cues.count == 2)
        let last = try #require(doc.cues.last)
        #expect(last.identifier == "2" && last.line == 6 && last.start == ms(3000) && last.end == ms(4000))
        #expect(describe(last.runs) == ["T:Last line"])
        #expect(last.textRange.upperBound == doc.source.bytes.count)
        expectWarnings(doc, [])
    }

    @Test func aTimingLineCutShortEndsTheCueBeforeItAndIsReported() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,0"
        let doc = try CaptionDocument.read(Data(text.utf8), hint: .srt)
        #expect(doc.cues.count == 1)
        #expect(doc.cues.first?.plainText == "Hello")
        #expect(doc.warnings.map(\.line) == [6])
        #expect(doc.warnings.first?.message.contains("timing line cannot be read") == true)
        #expect(try doc.write() == Data(text.utf8))
        // A line that only looks numeric-ish stays cue text.
        let prose = "1\n00:00:01,000 --> 00:00:02,000\nThe score was\n\n2\n3 to 1\n"
        let kept = try CaptionDocument.read(Data(prose.utf8), hint: .srt)
        #expect(kept.cues.first?.plainText == "The score was\n\n2\n3 to 1")
    }

    @Test func missingZeroNegativeAndOutOfOrderNumbers() throws {
        let doc = try readSRT("missing_numbers.srt")
        #expect(doc.cues.map(\.identifier) == [nil, "0", "-5", "7", "3"])
        #expect(doc.cues.map(\.line) == [1, 5, 9, 13, 17])
        #expect(doc.cues.map(\.start) == [ms(1000), ms(3000), ms(5000), ms(7000), ms(9000)])
        #expect(doc.cues.map(\.plainText) == ["No number", "Zero", "Negative", "Out of order", "Back"])
        expectWarnings(doc, [
            (1, "no cue number"),
            (4, "cue number 0 is not in sequence (expected 2)"),
            (8, "cue number -5 is not in sequence (expected 1)"),
            (12, "cue number 7 is not in sequence (expected -4)"),
            (16, "cue number 3 is not in sequence (expected 8)"),
        ])
    }

    @Test func assOverrideCodesStayAsMarkup() throws {
        let doc = try readSRT("ass_an8.srt")
        #expect(describe(doc.cues[0].runs) == ["M:{\\an8}", "T:Top of screen", "BR", "T:{not ass} text"])
        #expect(doc.cues[0].plainText == "Top of screen\n{not ass} text")
        expectWarnings(doc, [])
    }

    @Test func tagsStylesAndLiteralLessThan() throws {
        let doc = try readSRT("font_tags.srt")
        #expect(describe(doc.cues[0].runs) == [
            "M:<font color=\"#ff0000\">", "T:Red", "M:</font>", "T: and ", "M[b]:<B>", "T[b]:bold ",
            "M[bi]:<I>", "T[bi]:both", "M[b]:</I>", "M:</B>", "BR",
            "M[u]:<u>", "T[u]:under", "M:</u>", "T: ", "M[s]:<s>", "T[s]:struck", "M:</s>",
            "T: 2<3 ", "M:<c.yellow>", "T:odd", "M:</c>",
        ])
        #expect(doc.cues[0].plainText == "Red and bold both\nunder struck 2<3 odd")
        // An unclosed tag keeps its style to the end of the cue, across lines.
        #expect(describe(doc.cues[1].runs) == ["M[i]:<i>", "T[i]:unclosed italic", "BR", "T[i]:still italic"])
        expectWarnings(doc, [])
    }

    @Test func blankLinesInsideCueText() throws {
        let doc = try readSRT("blank_line_inside.srt")
        #expect(doc.cues.map(\.identifier) == ["1", "2", "3", "4"])
        #expect(doc.cues.map(\.line) == [2, 8, 12, 18])
        #expect(describe(doc.cues[0].runs) == ["T:First paragraph", "BR", "BR", "T:second paragraph"])
        #expect(doc.cues[0].plainText == "First paragraph\n\nsecond paragraph")
        #expect(describe(doc.cues[1].runs) == ["T:Next"])
        #expect(describe(doc.cues[2].runs) == ["T:A", "BR", "T: \t", "BR", "T:B"])
        // "2" after a blank line is text: no timing line follows it.
        #expect(describe(doc.cues[3].runs) == ["T:Count:", "BR", "BR", "T:2", "BR", "T:apples"])
        expectWarnings(doc, [(4, "blank line inside the cue text"), (14, "blank line inside the cue text"),
                             (20, "blank line inside the cue text")])
    }

    @Test func coordinatesKeptVerbatim() throws {
        let doc = try readSRT("coordinates.srt")
        #expect(doc.cues[0].settings == "X1:100 X2:600 Y1:50 Y2:80")
        #expect(doc.cues[0].end == ms(2000))
        #expect(doc.cues[1].settings == "X1:1 X2:2 Y1:3 Y2:4")
        #expect(doc.cues.map(\.plainText) == ["Positioned", "Tabbed"])
        expectWarnings(doc, [])
    }

    @Test func dotBeforeMilliseconds() throws {
        let doc = try readSRT("dot_ms.srt")
        #expect(doc.cues[0].start == ms(1250) && doc.cues[0].end == ms(2500))
        expectWarnings(doc, [(2, "'.' instead of ',' before the start"), (2, "'.' instead of ',' before the end")])
    }

    @Test func shortMillisecondsAreDecimalFractions() throws {
        let doc = try readSRT("short_ms.srt")
        #expect(doc.cues[0].start == ms(1500) && doc.cues[0].end == ms(2250))
        #expect(doc.cues[1].start == ms(3050) && doc.cues[1].end == ms(4500))
        expectWarnings(doc, [
            (2, "start time's milliseconds have 1 digit instead of 3: read as a decimal fraction (500 ms)"),
            (2, "end time's milliseconds have 2 digits instead of 3: read as a decimal fraction (250 ms)"),
            (6, "start time's milliseconds have 2 digits instead of 3: read as a decimal fraction (50 ms)"),
            (6, "end time's milliseconds have 1 digit instead of 3: read as a decimal fraction (500 ms)"),
        ])
    }

    @Test func timesPastTwentyFourHours() throws {
        let doc = try readSRT("past_24h.srt")
        #expect(doc.cues[0].start == ms(86_399_000) && doc.cues[0].end == ms(86_401_000))
        #expect(doc.cues[1].start == ms(360_000_000) && doc.cues[1].end == ms(360_001_500))
        expectWarnings(doc, [(2, "past 24 hours (and 1 later cue)")])
    }

    @Test func badTimesAreKeptAndReported() throws {
        let doc = try readSRT("overlapping.srt")
        #expect(doc.cues.count == 4)
        #expect(doc.cues.map(\.start) == [ms(1000), ms(4000), ms(8000), ms(9000)])
        #expect(doc.cues.map(\.end) == [ms(5000), ms(6000), ms(7000), ms(9000)])
        expectWarnings(doc, [(6, "before the previous cue ends"), (10, "ends (00:00:07.000) before it starts (00:00:08.000)"),
                             (14, "zero length")])
    }

    @Test func extraBlankAndWhitespaceLinesBetweenCues() throws {
        let doc = try readSRT("extra_blank_lines.srt")
        #expect(doc.cues.map(\.line) == [4, 12])
        #expect(doc.cues.map(\.plainText) == ["A", "B"])
        expectWarnings(doc, [])
    }

    @Test func textBeforeTheFirstCue() throws {
        let doc = try readSRT("text_before_first.srt")
        #expect(doc.cues.count == 1 && doc.cues[0].identifier == "1" && doc.cues[0].line == 5)
        expectWarnings(doc, [(1, "text before the first cue"), (2, "text before the first cue")])
    }

    @Test func malformedAndOverflowingTimingLinesAreSkipped() throws {
        let doc = try readSRT("malformed_timing.srt")
        #expect(doc.cues.map(\.identifier) == ["1", "6"])
        #expect(doc.cues.map(\.plainText) == ["Good one", "Good again"])
        #expect(doc.cues[1].line == 22 && doc.cues[1].start == ms(5000))
        expectWarnings(doc, [(6, "timing line cannot be read"), (10, "timing line cannot be read"),
                             (14, "timing line cannot be read"), (18, "timing line cannot be read")])
    }

    @Test func emptyCue() throws {
        let doc = try readSRT("empty_cue.srt")
        #expect(doc.cues.count == 2)
        #expect(doc.cues[0].runs.isEmpty && doc.cues[0].plainText.isEmpty)
        #expect(doc.cues[1].identifier == "2" && doc.cues[1].plainText == "Text")
        expectWarnings(doc, [(2, "cue has no text")])
    }

    @Test func cueWithoutBlankLineBefore() throws {
        let doc = try readSRT("no_blank_between.srt")
        #expect(doc.cues.map(\.identifier) == ["1", "2"])
        #expect(doc.cues.map(\.plainText) == ["A", "B"])
        expectWarnings(doc, [(4, "no blank line before this cue")])
    }

    @Test func textThatLooksLikeNumbersOrArrows() throws {
        let text = "1\n00:00:01,000 --> 00:00:02,000\n42\nthe answer --> here\n"
        let doc = try SRTReader.read(SourceText(utf8: text))
        #expect(doc.cues.count == 1)
        #expect(describe(doc.cues[0].runs) == ["T:42", "BR", "T:the answer --> here"])
        expectWarnings(doc, [])
    }

    @Test func identifierThatIsNotANumber() throws {
        let doc = try SRTReader.read(SourceText(utf8: "Intro\r\n00:00:01,000 --> 00:00:02,000\r\nHi\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nThere"))
        #expect(doc.cues.map(\.identifier) == ["Intro", "2"])
        #expect(doc.cues.map(\.plainText) == ["Hi", "There"])
        expectWarnings(doc, [(1, "cue number \"Intro\" is not a number")])
    }

    @Test func blankLineBetweenTimingAndText() throws {
        let doc = try SRTReader.read(SourceText(utf8: "1\n00:00:01,000 --> 00:00:02,000\n\n  \nLate text\nmore\n\n2\n00:00:03,000 --> 00:00:04,000\nB\n"))
        #expect(doc.cues.count == 2)
        #expect(describe(doc.cues[0].runs) == ["T:Late text", "BR", "T:more"])
        #expect(doc.cues[1].line == 9)
        expectWarnings(doc, [(3, "blank line between the timing line and the cue text")])
    }

    @Test func damagedUTF8KeepsItsBytes() throws {
        let doc = try readSRT("damaged_utf8.srt")
        #expect(doc.source.encoding == .utf8)
        #expect(doc.cues[0].plainText == "Café naïve ü ö ä \u{FFFD} robot")
        #expect(doc.warnings.count == 1 && doc.warnings.first?.line == 3)
    }

    @Test func longLinesOfOpenBracesAndTagsStayLinear() throws {
        let line = String(repeating: "{\\", count: 200_000) + String(repeating: "<a", count: 200_000)
        let doc = try SRTReader.read(SourceText(utf8: "1\n00:00:01,000 --> 00:00:02,000\n" + line + "\n"))
        #expect(doc.cues.count == 1 && doc.cues[0].runs.count == 1 && doc.cues[0].runs[0].kind == .text)
    }

    @Test(arguments: ["", "1\n", "x\n-->\n", "-->", "1\n2\n3:\n", "\r\r\r", "<b>", "{\\", "00:00:01,000 -->"])
    func hostileFragmentsNeverTrap(_ text: String) {
        // Either a document or a CaptionError; never a crash.
        do { _ = try SRTReader.read(SourceText(utf8: text)) } catch { #expect(error is CaptionError) }
    }
}

@Suite("SRT invalid files")
struct SRTInvalidFileTests {
    @Test(arguments: [
        ("empty.srt", CaptionError.Code.emptyFile, nil as Int?),
        ("blank.srt", .emptyFile, nil),
        ("no_timing.srt", .noCues, nil),
        ("binary_png.srt", .binaryFile, nil),
        ("binary_garbage.srt", .binaryFile, nil),
        ("all_malformed.srt", .malformedTiming, 2),
    ])
    func invalidFileFails(_ name: String, _ code: CaptionError.Code, _ line: Int?) throws {
        let data = try fixture("invalid/srt/\(name)")
        do {
            let doc = try CaptionDocument.read(data, hint: .srt)
            Issue.record("\(name) was read with \(doc.cues.count) cues")
        } catch let error as CaptionError {
            #expect(error.code == code)
            #expect(error.line == line)
            #expect(!(error.errorDescription ?? "").isEmpty)
        }
    }

    @Test func everyInvalidFixtureIsChecked() throws {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("invalid/srt").path)
            .filter { !$0.hasPrefix(".") }.sorted()
        #expect(names == ["all_malformed.srt", "binary_garbage.srt", "binary_png.srt", "blank.srt", "empty.srt", "no_timing.srt"])
    }
}
