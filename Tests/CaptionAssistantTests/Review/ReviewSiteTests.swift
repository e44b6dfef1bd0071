import Assistant
import Foundation
import Testing
@testable import CaptionAssistant
import TestSupport
import JSON

/// An output folder written by hand: report.json, captions and sidecars.
private final class HandMadeBatch {
    let url: URL
    var path: String { url.path }
    var entries: [JSONValue] = []

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ca-review-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    static func action(_ id: String, _ label: String, _ state: String, _ more: [(String, JSONValue)] = []) -> JSONValue {
        .object([("id", .string(id)), ("label", .string(label)), ("state", .string(state))] + more)
    }

    /// The three actions applied, the emoji on cue `emojiCue` (from 1).
    static func applied(emojiCue: Int = 2) -> [JSONValue] { [
        action("keywordEmphasis", "Emphasize keywords", "applied",
               [("keywords", .strings(["rocket"])), ("occurrences", .int(1)), ("dropped", .array([]))]),
        action("titles", "Suggest titles", "applied",
               [("titles", .strings(["\"><img src=x onerror=alert(1)>", "Second <b>title</b>", "Third & last"]))]),
        action("emoji", "Add emoji", "applied", [("emoji", .string("🎬")), ("cue", .int(emojiCue))]),
    ] }

    static func disabled() -> [JSONValue] {
        [action("keywordEmphasis", "Emphasize keywords", "disabled"), action("titles", "Suggest titles", "disabled"),
         action("emoji", "Add emoji", "disabled")]
    }

    /// Adds a file: its captions (when `captions` is given), its sidecar and its report entry.
    func add(input: String, output: String?, captions: String? = nil, warnings: [(Int, String)] = [],
             model: JSONValue = .object([("backend", .string("fake")), ("availability", .string("available"))]),
             actions: [JSONValue] = applied(), reasonRow: String? = nil, error: String? = nil, sidecar: Bool = true,
             options: [(String, JSONValue)]? = nil) throws {
        var fields: [(String, JSONValue)] = [
            ("schemaVersion", .int(1)), ("input", .string(input)), ("output", .string(output)), ("format", .string("srt")),
            ("cues", .int(2)),
            ("warnings", .array(warnings.map { .object([("line", .int($0.0)), ("message", .string($0.1))]) })),
            ("transcript", .null), ("model", model), ("actions", .array(actions)),
            ("reasonRow", .string(reasonRow)), ("error", .string(error)),
        ]
        if let options {
            fields.append(("fingerprint", .object([("inputSHA256", .null), ("outputSHA256", .null), ("options", .object(options))])))
        }
        let entry: JSONValue = .object(fields)
        entries.append(entry)
        if let output, let captions {
            let file = url.appendingPathComponent(output)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(captions.utf8).write(to: file)
            if sidecar { try Data(entry.renderedBytes()).write(to: URL(fileURLWithPath: file.path + ".assistant.json")) }
        }
    }

    func writeReport() throws {
        try Data(BatchReportText.render(entries).utf8).write(to: url.appendingPathComponent("report.json"))
    }

    func page(_ relative: String) throws -> String {
        try String(decoding: Data(contentsOf: url.appendingPathComponent("review/" + relative)), as: UTF8.self)
    }
}

private enum BatchReportText {
    static func render(_ entries: [JSONValue]) -> String {
        JSONValue.object([("schemaVersion", .int(1)), ("files", .array(entries)),
                          ("totals", .object([("files", .int(entries.count)), ("written", .int(entries.count)), ("failed", .int(0)),
                                              ("modelUnavailable", .int(0)),
                                              ("actions", .object([("applied", .int(3)), ("failed", .int(0)), ("disabled", .int(0))]))]))])
            .rendered()
    }
}

private let hostileSRT = """
1
00:00:01,000 --> 00:00:02,000
The <b>rocket</b> &amp; <script>alert(1)</script>

2
00:00:02,500 --> 00:00:04,000
<i>Lift</i> off now 🎬

"""

@Suite(.mayBlock) struct ReviewSiteTests {
    @Test func escapingLeavesNoMarkupFromUntrustedText() {
        let hostile = "\"><img src=x onerror=alert(1)> <script>alert('x')</script> & \u{0}\u{1B}"
        let out = HTMLWriter.escaped(hostile)
        #expect(!out.contains("<") && !out.contains(">") && !out.contains("\"") && !out.contains("'"))
        #expect(out.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(out.contains("&amp;"))
        #expect(!out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    }

    /// Escaping looks at eight bytes at a time: each special byte, at every
    /// position of a long text, is escaped exactly as a byte-by-byte reference does.
    @Test func escapingFindsEverySpecialByteAtEveryPosition() {
        func reference(_ s: String) -> String {
            var out = ""
            for u in s.unicodeScalars {
                switch u {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&#39;"
                case "\t", "\n", "\r": out.unicodeScalars.append(u)
                case _ where u.value < 0x20 || u.value == 0x7F: out += "\u{FFFD}"
                default: out.unicodeScalars.append(u)
                }
            }
            return out
        }
        let specials: [Character] = ["&", "<", ">", "\"", "'", "\u{0}", "\u{1F}", "\u{7F}", "\t", "é", "🎬", "?", "=", "\u{80}"]
        let filler = Array("The rocket is ready for launch today, said the crew.")
        for special in specials {
            for position in 0..<20 {
                var chars = Array(filler.prefix(19))
                chars.insert(special, at: position)
                let text = String(chars)
                #expect(HTMLWriter.escaped(text) == reference(text), "\(special.unicodeScalars.map(\.value)) at \(position)")
            }
        }
    }

    @Test func linksToFilesCannotLeaveTheSiteOrNameAScheme() {
        #expect(HTMLWriter.relativeURL("javascript:alert(1)") == "javascript%3Aalert%281%29")
        #expect(HTMLWriter.relativeURL("s 1/ep\"1.srt", prefix: "../../") == "../../s%201/ep%221.srt")
        #expect(!HTMLWriter.relativeURL("a/<b>?#.srt").contains { "<>?#\"".contains($0) })
    }

    @Test func aTruncatedReportIsAnErrorNotAShortReview() throws {
        let batch = try HandMadeBatch()
        try batch.add(input: "a.srt", output: "a.srt", captions: hostileSRT)
        let text = BatchReportText.render(batch.entries)
        try Data(text.utf8.prefix(text.utf8.count / 2)).write(to: batch.url.appendingPathComponent("report.json"))
        #expect(throws: ReviewSite.Failure.self) { try ReviewSite.build(outputFolder: batch.path) }
    }

    @Test func aFilePageShowsTheMenuCaptionsBoldEmojiAndEscapedModelText() throws {
        let batch = try HandMadeBatch()
        try batch.add(input: "in/a.srt", output: "a.srt", captions: hostileSRT, warnings: [(7, "cue has <no> number")])
        try batch.writeReport()
        let result = try ReviewSite.build(outputFolder: batch.path)
        #expect(result.files == 1)
        let page = try batch.page("files/00001.html")
        // Model titles and caption text are text, never markup.
        #expect(page.contains("<li class=\"title\">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</li>"))
        #expect(page.contains("<li class=\"title\">Second &lt;b&gt;title&lt;/b&gt;</li>"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("<script"))
        // Emphasis from the parsed runs; the stray tag shown as written; the emoji marked where it landed.
        #expect(page.contains("The <strong>rocket</strong> &amp;amp; "))
        #expect(page.contains("<code class=\"markup\" title=\"markup kept as written in the file\">&lt;script&gt;</code>alert(1)"))
        #expect(page.contains("<em>Lift</em> off now <mark class=\"emoji\""))
        #expect(page.contains("<span class=\"line\">line 7</span>: cue has &lt;no&gt; number"))
        #expect(page.contains("00:00:01.000 → 00:00:02.000"))
        #expect(page.contains("(the same entry as report.json)"))
        // The policy allows no script and only the page's own style sheet.
        #expect(page.contains("default-src &#39;none&#39;; style-src &#39;sha256-"))
        #expect(page.contains("script-src &#39;none&#39;"))
        // The hash in the policy is the hash of the page's one style element, as browsers compute it.
        let style = try #require(page.components(separatedBy: "<style>").dropFirst().first?.components(separatedBy: "</style>").first)
        var hash = SHA256()
        hash.update(Array(style.utf8))
        #expect(page.contains("style-src &#39;sha256-\(Data(hash.finalize()).base64EncodedString())&#39;"))
        #expect(page.components(separatedBy: "<style>").count == 2)
        #expect(!page.contains(" style=\""))
    }

    @Test func srtLinesQuotesAndOverrideCodesComeOutAsTheyRead() throws {
        let batch = try HandMadeBatch()
        let srt = "1\r\n00:00:01,000 --> 00:00:02,000\r\n{\\an8}Tom & \"Jerry\" <font color=\"red\">said</font>\r\nline 'two' 🎬\r\n"
        try batch.add(input: "a.srt", output: "a.srt", captions: srt, actions: HandMadeBatch.applied(emojiCue: 1))
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let page = try batch.page("files/00001.html")
        #expect(page.contains("<li><time>00:00:01.000 → 00:00:02.000</time><span><code class=\"markup\" title=\"markup kept as written in the file\">{\\an8}</code>Tom &amp; &quot;Jerry&quot; said<br>line &#39;two&#39; <mark class=\"emoji\""), "\(page)")
    }

    /// A damaged SRT (a byte that is not UTF-8, kept as it is in the output) is shown with U+FFFD,
    /// as its text reads: the page stays valid UTF-8 (it wrote the raw byte before the walker).
    @Test func aDamagedSRTsPageIsValidUTF8() throws {
        let batch = try HandMadeBatch()
        try batch.add(input: "a.srt", output: "a.srt", captions: "x", actions: HandMadeBatch.applied(emojiCue: 1))
        let damaged = Array("1\n00:00:01,000 --> 00:00:02,000\nCafé naïve ü ö <b>ok</b> ".utf8) + [0xFF] + Array(" robot 🎬\n".utf8)
        try Data(damaged).write(to: batch.url.appendingPathComponent("a.srt"))
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let bytes = try Data(contentsOf: batch.url.appendingPathComponent("review/files/00001.html"))
        let valid = String(validating: Array(bytes), as: UTF8.self)
        let page = try #require(valid, "the page is not valid UTF-8")
        #expect(page.contains("Café naïve ü ö <strong>ok</strong> \u{FFFD} robot <mark class=\"emoji\""), "\(page)")
    }

    @Test func disabledActionsCarryTheReasonRowAndSettingsOnlyWhereOffered() throws {
        let batch = try HandMadeBatch()
        func unavailable(_ reason: String, settings: Bool) -> JSONValue {
            .object([("backend", .string("foundation")), ("availability", .string("unavailable")), ("reason", .string(reason)),
                     ("remedy", .string("Remedy for \(reason).")), ("permanence", .string("userFixable")),
                     ("offersSettings", .bool(settings))])
        }
        try batch.add(input: "off.srt", output: "off.srt", captions: hostileSRT,
                      model: unavailable("appleIntelligenceNotEnabled", settings: true), actions: HandMadeBatch.disabled(),
                      reasonRow: "Apple Intelligence is turned off")
        try batch.add(input: "never.srt", output: "never.srt", captions: hostileSRT,
                      model: unavailable("deviceNotEligible", settings: false), actions: HandMadeBatch.disabled(),
                      reasonRow: "This device cannot run Apple Intelligence")
        try batch.add(input: "never2.srt", output: "never2.srt", captions: hostileSRT,
                      model: unavailable("deviceNotEligible", settings: false), actions: HandMadeBatch.disabled(),
                      reasonRow: "This device cannot run Apple Intelligence")
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let off = try batch.page("files/00001.html"), never = try batch.page("files/00002.html")
        #expect(off.components(separatedBy: "<li class=\"action disabled\" aria-disabled=\"true\"").count == 4)
        #expect(off.contains("<p class=\"reason-row\">Apple Intelligence is turned off</p>"))
        #expect(off.contains("Remedy for appleIntelligenceNotEnabled."))
        #expect(off.contains("Open Settings"))
        #expect(never.contains("<p class=\"reason-row\">This device cannot run Apple Intelligence</p>"))
        #expect(!never.contains("Open Settings"))
        // The index counts each reason once per file, with its remedy.
        let index = try batch.page("index.html")
        #expect(index.contains("This device cannot run Apple Intelligence <span class=\"badge disabled\">2 files</span>"))
        #expect(index.contains("Apple Intelligence is turned off <span class=\"badge disabled\">1 file</span>"))
        #expect(try batch.page("disabled.html").components(separatedBy: "<tr id=\"file-").count == 4)
        #expect(try batch.page("failed.html").contains("No file is in this list."))
    }

    @Test func failedActionsShowTheRealErrorAndUnwrittenFilesSaySo() throws {
        let batch = try HandMadeBatch()
        let failed = ["keywordEmphasis", "titles", "emoji"].map {
            HandMadeBatch.action($0, $0, "failed", [("reason", .string("HTTP 500: <boom>"))])
        }
        try batch.add(input: "x.srt", output: "x.srt", captions: hostileSRT, actions: failed,
                      reasonRow: "The assistant could not answer", error: "HTTP 500: <boom>")
        try batch.add(input: "gone.vtt", output: nil, actions: failed, error: "line 1: this is binary data")
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let x = try batch.page("files/00001.html"), gone = try batch.page("files/00002.html")
        #expect(x.components(separatedBy: "<p class=\"error\">HTTP 500: &lt;boom&gt;</p>").count == 4)
        #expect(gone.contains("<strong>Not written: </strong>line 1: this is binary data"))
        #expect(gone.contains("No captions were written for this file."))
        #expect(try batch.page("failed.html").components(separatedBy: "<tr id=\"file-").count == 3)
    }

    @Test func theIndexIsSplitIntoPagesAndStalePagesAreRemoved() throws {
        let batch = try HandMadeBatch()
        for i in 0..<5 { try batch.add(input: "f\(i).srt", output: "f\(i).srt", captions: hostileSRT) }
        try batch.writeReport()
        // Left by an earlier, larger review.
        let files = batch.url.appendingPathComponent("review/files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        for name in ["00009.html", "notes.html"] { try Data("old".utf8).write(to: files.appendingPathComponent(name)) }
        try Data("old".utf8).write(to: batch.url.appendingPathComponent("review/index-9.html"))
        let result = try ReviewSite.build(outputFolder: batch.path, pageSize: 2)
        #expect(result.files == 5)
        let index = try batch.page("index.html"), third = try batch.page("index-3.html")
        #expect(index.contains("Page 1 of 3"))
        #expect(index.components(separatedBy: "<tr id=\"file-").count == 3)
        #expect(third.contains("<tr id=\"file-5\">"))
        // A file page links back to the index page that lists it.
        #expect(try batch.page("files/00005.html").contains("href=\"../index-3.html#file-5\""))
        #expect(!FileManager.default.fileExists(atPath: files.appendingPathComponent("00009.html").path))
        #expect(!FileManager.default.fileExists(atPath: batch.url.appendingPathComponent("review/index-9.html").path))
        #expect(FileManager.default.fileExists(atPath: files.appendingPathComponent("notes.html").path))
    }

    /// An SRT whose cues are out of time order: the emoji goes on the cue shown
    /// last (the first in the file), the report says so (`cue`), and the review
    /// marks it there, not on the last cue in the file.
    @Test func theEmojiIsMarkedOnTheCueTheReportSaysItWentOn() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", """
            1
            00:00:05,000 --> 00:00:06,000
            The rocket lands.

            2
            00:00:01,000 --> 00:00:02,000
            The rocket launch begins.

            """)
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let run = await BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"),
                                    jobs: 1, keepsReports: true).run(plan)
        let emoji = try #require(run.files.first?.actions.first { $0.id == .emoji })
        #expect(emoji.state == .applied && emoji.cue == 1)
        let written = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/a.srt")), as: UTF8.self)
        #expect(written.contains("The <b>rocket</b> lands. 🎬\n"))
        try ReviewSite.build(outputFolder: dir.path + "/out")
        let page = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/review/files/00001.html")), as: UTF8.self)
        let items = page.components(separatedBy: "<li><time>").dropFirst()
        #expect(items.count == 2)
        #expect(items.first?.contains("lands. <mark class=\"emoji\" title=\"the emoji the assistant added\">🎬</mark>") == true, "\(page)")
        #expect(items.dropFirst().allSatisfy { !$0.contains("<mark") })
        #expect(page.contains("added to the end of cue 1, the one shown last"))
    }

    /// Whitespace after the emoji (the emoji goes after the last visible
    /// character, and trailing spaces stay after it) does not hide it from
    /// the review: in the same text run (SRT) or in a run of its own after
    /// a closing tag (WebVTT).
    @Test(arguments: [
        ("a.srt", "1\n00:00:01,000 --> 00:00:02,000\nThe rocket lands. \t \n", "<b>lands</b>. 🎬 \t \n",
         "<strong>lands</strong>. <mark class=\"emoji\" title=\"the emoji the assistant added\">🎬</mark> \t </span>"),
        ("a.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<i>The rocket lands.</i>   \n", "<b>lands</b>. 🎬</i>   \n",
         "<em>. </em><mark class=\"emoji\" title=\"the emoji the assistant added\">🎬</mark>   </span>"),
    ])
    func anEmojiFollowedByWhitespaceIsMarked(name: String, source: String, writtenEnd: String, marked: String) async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/" + name, source)
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let run = await BatchRunner(processor: FileProcessor(configuration: fakeConfiguration()), destination: .folder(dir.path + "/out"),
                                    jobs: 1, keepsReports: true).run(plan)
        let emoji = try #require(run.files.first?.actions.first { $0.id == .emoji })
        #expect(emoji.state == .applied && emoji.cue == 1)
        let written = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/" + name)), as: UTF8.self)
        #expect(written.hasSuffix(writtenEnd), "\(written)")
        try ReviewSite.build(outputFolder: dir.path + "/out")
        let page = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/review/files/00001.html")), as: UTF8.self)
        // Marked, with the whitespace after it kept after the mark.
        #expect(page.contains(marked), "\(page)")
    }

    @Test func aCueListLongerThanTheLimitSaysWhereTheRestIs() throws {
        let batch = try HandMadeBatch()
        try batch.add(input: "a.srt", output: "a.srt", captions: hostileSRT)
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path, cueLimit: 1)
        let page = try batch.page("files/00001.html")
        #expect(page.contains("This page lists the first 1 of 2 cues"))
        #expect(page.components(separatedBy: "<li><time>").count == 2)
    }

    /// One huge cue (here 2 MB of text that escapes to five times its size) makes a small page:
    /// the cue is cut after `cueTextLimit` bytes on a character boundary, with a note and a link.
    @Test func oneHugeCueMakesASmallPage() throws {
        let batch = try HandMadeBatch()
        let cue = String(repeating: "<&é", count: 500_000)
        try batch.add(input: "a.srt", output: "a.srt", captions: "1\n00:00:01,000 --> 00:00:02,000\n" + cue + "\n")
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: batch.path + "/review/files/00001.html"))
        #expect(bytes.count < 64 << 10, "\(bytes.count) bytes")
        let page = String(decoding: bytes, as: UTF8.self)
        #expect(page.contains("1 cue is cut after its first \(ReviewPages.cueTextLimit) bytes"))
        #expect(page.contains("… (cut here"))
        #expect(page.contains("<a href=\"../../a.srt\">the file</a>"))
        #expect(!page.contains("\u{FFFD}"))  // never cut inside a character
    }

    /// Many long cues: the list stops once it holds `cueListByteLimit` bytes, with a note
    /// that says how many of the cues it shows.
    @Test func manyLongCuesStopAtThePagesByteLimit() throws {
        let batch = try HandMadeBatch()
        var srt = ""
        for i in 1...1500 { srt += "\(i)\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "\"quoted\" ", count: 300) + "\n\n" }
        try batch.add(input: "a.srt", output: "a.srt", captions: srt)
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: batch.path + "/review/files/00001.html"))
        #expect(bytes.count < ReviewPages.cueListByteLimit + (64 << 10), "\(bytes.count) bytes")
        let page = String(decoding: bytes, as: UTF8.self)
        let shown = page.components(separatedBy: "<li><time>").count - 1
        #expect(shown > 10 && shown < 1500)
        #expect(page.contains("This page lists the first \(shown) of 1500 cues (a page is kept under about 1 MB of captions)"), "\(shown)")
    }

    @Test func aReviewFolderThatIsALinkIsNotWrittenThrough() throws {
        let batch = try HandMadeBatch()
        try batch.add(input: "a.srt", output: "a.srt", captions: hostileSRT)
        try batch.writeReport()
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("ca-elsewhere-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try FileManager.default.createSymbolicLink(at: batch.url.appendingPathComponent("review"), withDestinationURL: elsewhere)
        #expect(throws: ReviewSite.Failure.self) { try ReviewSite.build(outputFolder: batch.path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test func aCaptionFileReachedThroughALinkIsNotRead() throws {
        let batch = try HandMadeBatch()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("ca-secret-" + UUID().uuidString + ".srt")
        try Data("1\n00:00:01,000 --> 00:00:02,000\nSECRET-TEXT\n".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try batch.add(input: "a.srt", output: "a.srt")
        try FileManager.default.createSymbolicLink(at: batch.url.appendingPathComponent("a.srt"), withDestinationURL: outside)
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let page = try batch.page("files/00001.html")
        #expect(!page.contains("SECRET-TEXT"))
        #expect(page.contains("The written captions could not be read"))
    }

    @Test func anOutputPathLeadingOutsideTheFolderIsNeitherReadNorLinked() throws {
        let batch = try HandMadeBatch()
        try batch.add(input: "a.srt", output: "../../etc/passwd")
        try batch.add(input: "b.srt", output: "/etc/passwd")
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        for page in [try batch.page("files/00001.html"), try batch.page("files/00002.html")] {
            #expect(!page.contains("etc/passwd\">"))
            #expect(!page.contains("href=\"../../..") && !page.contains("href=\"../..//"))
            #expect(page.contains("The written captions could not be read"))
            #expect(!page.contains("root:"))
        }
    }

    @Test func aMissingReportIsAMissingInput() throws {
        let batch = try HandMadeBatch()
        do {
            try ReviewSite.build(outputFolder: batch.path)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .missing)
        }
        #expect(!FileManager.default.fileExists(atPath: batch.url.appendingPathComponent("review").path))
    }

    // MARK: What a producer takes from the review

    @Test func theIndexRowsShowTheTitlesAndTheEmojiEscaped() throws {
        let batch = try HandMadeBatch()
        try batch.add(input: "a.srt", output: "a.srt", captions: hostileSRT)
        try batch.add(input: "b.srt", output: "b.srt", captions: hostileSRT, actions: HandMadeBatch.disabled())
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let index = try batch.page("index.html")
        #expect(index.contains("<th scope=\"col\">Titles</th><th scope=\"col\">Emoji</th>"))
        #expect(index.contains("<td class=\"titles\" data-label=\"Titles\"><ol><li>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</li><li>Second &lt;b&gt;title&lt;/b&gt;</li><li>Third &amp; last</li></ol></td><td class=\"emoji\" data-label=\"Emoji\">🎬 <span class=\"muted emoji-name\">(clapper board)</span></td>"))
        // A file whose actions were not applied has empty cells.
        #expect(index.contains("<td class=\"titles\" data-label=\"Titles\"></td><td class=\"emoji\" data-label=\"Emoji\"></td>"))
        #expect(!index.contains("<img"))
    }

    @Test func actionsNotRequestedAndContentFromTheFallbackAreMarkedApart() throws {
        let batch = try HandMadeBatch()
        let actions: [JSONValue] = [
            HandMadeBatch.action("keywordEmphasis", "Emphasize keywords", "notRequested", [("reason", .string("not requested: this run asks only for titles and emoji (--actions titles,emoji)"))]),
            HandMadeBatch.action("titles", "Suggest titles", "applied", [("source", .string("fallback")), ("titles", .strings(["One title here", "Two titles here", "Three titles here"]))]),
            HandMadeBatch.action("emoji", "Add emoji", "applied", [("source", .string("fallback")), ("reason", .string("HTTP 500: boom")), ("emoji", .string("🐋")), ("cue", .int(2))]),
        ]
        try batch.add(input: "a.srt", output: "a.srt", captions: hostileSRT, actions: actions)
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let index = try batch.page("index.html")
        #expect(index.contains("<span class=\"badge notRequested\"><span aria-hidden=\"true\">· </span>Keywords<span class=\"vh\"> not requested</span></span>"))
        #expect(index.contains("<span class=\"badge fallback\"><span aria-hidden=\"true\">✓ </span>Titles<span class=\"vh\"> applied from the fallback</span></span>"))
        #expect(index.contains("<div><dt>From the fallback</dt><dd>2</dd></div>"))
        #expect(index.contains("<div><dt>Not requested</dt><dd>1</dd></div>"))
        let page = try batch.page("files/00001.html")
        #expect(page.contains("<li class=\"action notRequested\" aria-disabled=\"true\" data-action=\"keywordEmphasis\">"))
        #expect(page.contains("<span class=\"state\">Not requested</span></div>\n<p class=\"muted\">not requested: this run asks only for titles and emoji (--actions titles,emoji)</p>"))
        #expect(page.components(separatedBy: "<p class=\"source\">From the transcript itself (the fallback), not from the model</p>").count == 3)
        #expect(page.contains("<p class=\"muted\">HTTP 500: boom</p>"))
        // Not requested is not disabled: the file is in no "Disabled" list.
        #expect(try batch.page("disabled.html").contains("No file is in this list."))
    }

    /// The options of an HTTP run, with the server's address as a hand-edited report might hold it.
    static func httpOptions(model: String, endpoint: String) -> [(String, JSONValue)] {
        [("backend", .string("http")), ("model", .string(model)), ("endpoint", .string(endpoint)), ("serverKind", .null),
         ("simulatedAvailability", .null), ("maxCharacters", .int(3000)), ("to", .null)]
    }

    @Test func theIndexAndEveryPageNameTheModelAndTheEmojisName() throws {
        let batch = try HandMadeBatch()
        let http: JSONValue = .object([("backend", .string("http")), ("availability", .string("available"))])
        // A key never reaches a page: the address is shown without user name, password, query or fragment.
        let endpoint = "http://user:s3cret@127.0.0.1:8765/v1?api_key=k3y#frag"
        try batch.add(input: "a.srt", output: "a.srt", captions: hostileSRT, model: http,
                      options: Self.httpOptions(model: "smollm2", endpoint: endpoint))
        try batch.add(input: "b.srt", output: "b.srt", captions: hostileSRT, model: http,
                      options: Self.httpOptions(model: "smollm2", endpoint: endpoint))
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let index = try batch.page("index.html")
        #expect(index.contains(" · 2 files · model: http, smollm2 at http://127.0.0.1:8765/v1</p>"), "\(index)")
        #expect(index.contains("🎬 <span class=\"muted emoji-name\">(clapper board)</span>"))
        for name in ["files/00001.html", "files/00002.html"] {
            let page = try batch.page(name)
            #expect(page.contains(" · model: http, smollm2 at http://127.0.0.1:8765/v1 (available)</p>"), "\(name)")
            #expect(page.contains("🎬 <span class=\"muted emoji-name\">(clapper board)</span>"), "\(name)")
        }
        for page in [index, try batch.page("files/00001.html")] {
            #expect(!page.contains("s3cret") && !page.contains("k3y") && !page.contains("frag"))
        }
        // Two models (a resumed batch with another model): each is named, with its files.
        let mixed = try HandMadeBatch()
        try mixed.add(input: "a.srt", output: "a.srt", captions: hostileSRT, model: http,
                      options: Self.httpOptions(model: "smollm2", endpoint: "http://127.0.0.1:8765"))
        try mixed.add(input: "b.srt", output: "b.srt", captions: hostileSRT)
        try mixed.writeReport()
        try ReviewSite.build(outputFolder: mixed.path)
        #expect(try mixed.page("index.html").contains(" · models: http, smollm2 at http://127.0.0.1:8765 (1 file); fake (1 file)</p>"))
    }

    @Test func theModelsCostIsOnTheIndexAndTheFilePage() throws {
        let batch = try HandMadeBatch()
        let cost: JSONValue = .object([("requests", .int(3)), ("promptTokens", .int(1200)), ("completionTokens", .int(90)), ("milliseconds", .int(12345))])
        let model: JSONValue = .object([("backend", .string("http")), ("availability", .string("available")), ("cost", cost)])
        try batch.add(input: "a.srt", output: "a.srt", captions: hostileSRT, model: model)
        try batch.add(input: "b.srt", output: "b.srt", captions: hostileSRT, model: model)
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let index = try batch.page("index.html")
        #expect(index.contains("<div><dt>Model requests</dt><dd>6</dd></div><div><dt>Model tokens</dt><dd>2580</dd></div><div><dt>Model time, summed over requests</dt><dd>24.7 s</dd></div>"))
        let page = try batch.page("files/00001.html")
        #expect(page.contains("<li>Model cost: 3 requests, 1200 prompt + 90 completion tokens, 12.3 s summed over requests</li>"))
        // The fake model records no cost, and nothing is said about one.
        let fake = try HandMadeBatch()
        try fake.add(input: "a.srt", output: "a.srt", captions: hostileSRT)
        try fake.writeReport()
        try ReviewSite.build(outputFolder: fake.path)
        #expect(try !fake.page("index.html").contains("Model requests"))
        #expect(try !fake.page("files/00001.html").contains("Model cost"))
    }

    @Test func wordTimingTagsAreShownAsTimesNotMarkup() throws {
        let batch = try HandMadeBatch()
        let vtt = "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nWe<00:00:00.400> <c>launch</c><00:00:00.900> today <00:00:01.x00>\n"
        try batch.add(input: "a.vtt", output: "a.vtt", captions: vtt, actions: HandMadeBatch.disabled())
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let page = try batch.page("files/00001.html")
        #expect(page.contains("We<time class=\"word\" title=\"this word is shown from this time (word timing)\">00:00:00.400</time> launch<time class=\"word\""), "\(page)")
        #expect(!page.contains("&lt;00:00:00.400&gt;"))
        // Markup that only looks like a timestamp is still shown as written.
        #expect(page.contains("<code class=\"markup\" title=\"markup kept as written in the file\">&lt;00:00:01.x00&gt;</code>"))
    }

    @Test func titlesCSVHasARowPerFileQuotedAndGuardedAgainstFormulas() throws {
        let batch = try HandMadeBatch()
        let actions: [JSONValue] = [
            HandMadeBatch.action("keywordEmphasis", "Emphasize keywords", "applied", [("keywords", .strings(["rocket", "=cmd|' /C calc'!A0"])), ("occurrences", .int(2))]),
            HandMadeBatch.action("titles", "Suggest titles", "applied", [("titles", .strings(["=HYPERLINK(\"http://x\")", "Plain, with a comma", "Line\nbreak and \"quotes\""]))]),
            HandMadeBatch.action("emoji", "Add emoji", "applied", [("emoji", .string("🚀")), ("cue", .int(2))]),
        ]
        try batch.add(input: "shows/a.srt", output: "a.srt", captions: hostileSRT, actions: actions)
        try batch.add(input: "-weird@name.srt", output: "b.srt", captions: hostileSRT, actions: HandMadeBatch.disabled())
        try batch.writeReport()
        try ReviewSite.build(outputFolder: batch.path)
        let bytes = try Data(contentsOf: batch.url.appendingPathComponent("review/titles.csv"))
        #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let csv = String(decoding: bytes.dropFirst(3), as: UTF8.self)
        #expect(csv == "file,title 1,title 2,title 3,emoji,keywords\r\n"
                + "shows/a.srt,\"'=HYPERLINK(\"\"http://x\"\")\",\"Plain, with a comma\",\"Line\nbreak and \"\"quotes\"\"\",🚀,rocket; =cmd|' /C calc'!A0\r\n"
                + "'-weird@name.srt,,,,,\r\n")
        #expect(TitlesCSV.field("@SUM(1)") == "'@SUM(1)" && TitlesCSV.field("+1") == "'+1" && TitlesCSV.field("\tx") == "'\tx")
        #expect(TitlesCSV.field("a\r\nb") == "\"a\r\nb\"" && TitlesCSV.field("plain") == "plain")
    }
}
