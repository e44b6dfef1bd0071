import Foundation
import Testing
import TestSupport

/// Headless Chromium, found where Debian's `chromium` package puts it (or at `$CHROMIUM`).
enum Browser {
    static let path: String? = {
        var candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        if let chosen = ProcessInfo.processInfo.environment["CHROMIUM"], !chosen.isEmpty { candidates.insert(chosen, at: 0) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether CI said a browser must be there (`.ci/run` installs `chromium` and sets this).
    static var required: Bool { ProcessInfo.processInfo.environment["CAPTION_ASSISTANT_REQUIRE_BROWSER"] == "1" }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the browser headless on `page` with `arguments` (`--dump-dom`,
    /// `--screenshot=…`), with its own profile folder, stopped after two minutes.
    static func run(_ arguments: [String], page: URL, profile: URL, width: Int = 1200, height: Int = 1000) throws -> Run {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "120", path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                             "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--enable-logging=stderr",
                             "--user-data-dir=" + profile.path, "--window-size=\(width),\(height)"] + arguments + [page.absoluteString]
        let scratch = profile.deletingLastPathComponent()
        let out = scratch.appendingPathComponent("browser-stdout-\(UUID().uuidString)"), err = scratch.appendingPathComponent("browser-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try launch(process)
        process.waitUntilExit()
        try outHandle.close(); try errHandle.close()
        return Run(status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// A PNG's width and height, from its header; nil when `data` is not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        func be(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }
}

/// `caption-assistant review` checked in a real browser: the pages a batch
/// with hostile caption text and a hostile model title makes, and the pages of
/// a batch whose model was unavailable, rendered by headless Chromium; the
/// assertions are on the DOM Chromium built (so on what a person would see)
/// and on its screenshots (not blank, and styled: the policy let the page's
/// own style sheet through).
@Suite(.serialized, .mayBlock) struct ReviewBrowserTests {
    /// Breaks out of an attribute and opens an element; its quotes are paired,
    /// so the title rules (`TitleCheck`: no unclosed quotation) let it through to the page, and its words are
    /// English ones (`TitleDictionary`: "script", "alert") or the captions' ("Rocket").
    static let hostileTitle = "\"Rocket\"><script>alert(1)</script>"

    /// The model's answer: keywords, three titles (one hostile) and an emoji.
    static var answer: String {
        let object: [String: Any] = ["keywords": ["rocket"], "titles": [hostileTitle, "Rocket countdown at the coast", "Rocket liftoff & after"],
                                     "emoji": "🚀"]
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    static let models = #"{"object":"list","data":[{"id":"qwen2.5:0.5b","object":"model","owned_by":"library"}]}"#

    static let hostileVTT = """
    WEBVTT

    00:00:01.000 --> 00:00:03.000
    &lt;img src=x onerror=alert(1)&gt;

    00:00:03.500 --> 00:00:06.000
    The rocket is on the pad, and the rocket is ready.

    """

    /// Makes a batch through the HTTP backend (against a server in this
    /// process), then its review; returns the scratch folder and the output folder.
    func hostileBatch() throws -> (ScratchFolder, URL) {
        let server = try HTTPTestServer { request, _ in
            switch request.path {
            case "/health": .respond(200, #"{"status":"ok"}"#)
            case "/v1/models": .respond(200, Self.models)
            case "/v1/chat/completions": .completion(Self.answer)
            default: .respond(404, #"{"error":"not found"}"#)
            }
        }
        defer { server.stop() }
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try Data(Self.hostileVTT.utf8).write(to: input.appendingPathComponent("hostile.vtt"))
        let run = try ExecutableRun.run(["input", "-o", "out", "--model", "http", "--endpoint", server.endpoint,
                                         "--model-name", "qwen2.5:0.5b", "--server-kind", "ollama", "--request-timeout", "30",
                                         "--jobs", "1", "--quiet"], in: scratch.url)
        #expect(run.status == 0, "stderr: \(run.stderrText)")
        let review = try ExecutableRun.run(["review", "out"], in: scratch.url)
        #expect(review.status == 0, "stderr: \(review.stderrText)")
        #expect(review.stderrText.contains("out/review/index.html"))
        return (scratch, scratch.url.appendingPathComponent("out"))
    }

    @Test(.enabled(if: Browser.path != nil || Browser.required))
    func hostileCaptionsAndTitlesShowAsTextInTheBrowser() throws {
        let (scratch, out) = try hostileBatch()
        let profile = scratch.url.appendingPathComponent("profile")
        let page = out.appendingPathComponent("review/files/00001.html")
        let dom = try Browser.run(["--dump-dom"], page: page, profile: profile)
        #expect(dom.status == 0, "chromium: \(dom.stderr.suffix(2000))")
        // The titles are there, as text.
        #expect(dom.stdout.contains("<li class=\"title\">\"Rocket\"&gt;&lt;script&gt;alert(1)&lt;/script&gt;</li>"), "DOM: \(dom.stdout.prefix(4000))")
        #expect(dom.stdout.contains("<li class=\"title\">Rocket countdown at the coast</li>"))
        #expect(dom.stdout.contains("<li class=\"title\">Rocket liftoff &amp; after</li>"))
        // The caption line is text; no element was injected by either.
        #expect(dom.stdout.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!dom.stdout.contains("<img"))
        #expect(!dom.stdout.contains("<script"))
        // Emphasis from the written file, and the emoji where it landed.
        #expect(dom.stdout.contains("The <strong>rocket</strong> is on the pad, and the <strong>rocket</strong> is ready."))
        #expect(dom.stdout.contains("<mark class=\"emoji\" title=\"the emoji the assistant added\">🚀</mark>"))

        let index = try Browser.run(["--dump-dom"], page: out.appendingPathComponent("review/index.html"), profile: profile)
        #expect(index.status == 0)
        #expect(index.stdout.contains("<a href=\"files/00001.html\"><span class=\"dir\">input/</span><span class=\"fname\">hostile.vtt</span></a>"))
        #expect(index.stdout.contains("<dt>Actions applied</dt><dd>3</dd>"))
        #expect(!index.stdout.contains("<img") && !index.stdout.contains("<script"))
        // The row shows the titles (as text) and the emoji; the totals the model's cost.
        #expect(index.stdout.contains("<td class=\"titles\" data-label=\"Titles\"><ol><li>\"Rocket\"&gt;&lt;script&gt;alert(1)&lt;/script&gt;</li><li>Rocket countdown at the coast</li><li>Rocket liftoff &amp; after</li></ol></td><td class=\"emoji\" data-label=\"Emoji\">🚀 <span class=\"muted emoji-name\">(rocket)</span></td>"))
        #expect(index.stdout.contains("<dt>Model requests</dt><dd>1</dd>"))
        #expect(dom.stdout.contains("<li>Model cost: 1 request, "))
        let csv = String(decoding: try Data(contentsOf: out.appendingPathComponent("review/titles.csv")), as: UTF8.self)
        #expect(csv.contains("input/hostile.vtt,\"\"\"Rocket\"\"><script>alert(1)</script>\",Rocket countdown at the coast,Rocket liftoff & after,🚀,rocket\r\n"))
    }

    /// YouTube's word timing tags read as times between the words, not as markup chips.
    @Test(.enabled(if: Browser.path != nil || Browser.required))
    func wordTimingShowsAsTimesInTheBrowser() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let vtt = "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nThe<00:00:00.400> <c>rocket</c><00:00:00.900> <c>rises</c>\n"
        try Data(vtt.utf8).write(to: input.appendingPathComponent("karaoke.vtt"))
        #expect(try ExecutableRun.run(["input", "-o", "out", "--model", "none", "--quiet"], in: scratch.url).status == 0)
        #expect(try ExecutableRun.run(["review", "out", "--quiet"], in: scratch.url).status == 0)
        let dom = try Browser.run(["--dump-dom"], page: scratch.url.appendingPathComponent("out/review/files/00001.html"),
                                  profile: scratch.url.appendingPathComponent("profile"))
        #expect(dom.status == 0)
        #expect(dom.stdout.contains("The<time class=\"word\" title=\"this word is shown from this time (word timing)\">00:00:00.400</time> rocket<time class=\"word\""), "DOM: \(dom.stdout.suffix(3000))")
        #expect(!dom.stdout.contains("<code class=\"markup\""))
    }

    @Test(.enabled(if: Browser.path != nil || Browser.required))
    func disabledActionsCarryTheirReasonRowInTheBrowser() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try Data(Self.hostileVTT.utf8).write(to: input.appendingPathComponent("a.vtt"))
        for (out, reason) in [("off", "appleIntelligenceNotEnabled"), ("never", "deviceNotEligible")] {
            let run = try ExecutableRun.run(["input", "-o", out, "-test-fake-assistant", "--simulate-availability", reason, "--quiet"],
                                            in: scratch.url)
            #expect(run.status == 0)
            #expect(try ExecutableRun.run(["review", out, "--quiet"], in: scratch.url).status == 0)
        }
        let profile = scratch.url.appendingPathComponent("profile")
        let off = try Browser.run(["--dump-dom"], page: scratch.url.appendingPathComponent("off/review/files/00001.html"), profile: profile)
        let never = try Browser.run(["--dump-dom"], page: scratch.url.appendingPathComponent("never/review/files/00001.html"), profile: profile)
        for dom in [off.stdout, never.stdout] {
            // The three actions are there, disabled, and the menu ends with a reason row that is not empty.
            #expect(dom.components(separatedBy: "<li class=\"action disabled\" aria-disabled=\"true\"").count == 4)
            let menu = dom.components(separatedBy: "<ul class=\"menu\"").dropFirst().first?.components(separatedBy: "</ul>").first ?? ""
            #expect(menu.contains("<li class=\"reason\" role=\"note\"><p class=\"reason-row\">"))
            #expect(!menu.contains("<p class=\"reason-row\"></p>"))
        }
        #expect(off.stdout.contains("<p class=\"reason-row\">Apple Intelligence is turned off</p>"))
        #expect(off.stdout.contains("<span class=\"settings\">Open Settings</span>"))
        #expect(never.stdout.contains("<p class=\"reason-row\">This device cannot run Apple Intelligence</p>"))
        #expect(!never.stdout.contains("Open Settings"))
    }

    @Test(.enabled(if: Browser.path != nil || Browser.required))
    func screenshotsOfTheIndexAndAFilePageAreNotBlank() throws {
        let (scratch, out) = try hostileBatch()
        let profile = scratch.url.appendingPathComponent("profile")
        let blankPage = scratch.url.appendingPathComponent("blank.html")
        try Data("<!doctype html><title>blank</title>".utf8).write(to: blankPage)
        func shot(_ page: URL, _ name: String, width: Int) throws -> Data {
            let file = scratch.url.appendingPathComponent(name)
            let run = try Browser.run(["--screenshot=" + file.path], page: page, profile: profile, width: width, height: 900)
            #expect(run.status == 0, "chromium: \(run.stderr.suffix(2000))")
            return try Data(contentsOf: file)
        }
        let blank = try shot(blankPage, "blank.png", width: 1200)
        for (page, width) in [("review/index.html", 1200), ("review/files/00001.html", 1200), ("review/files/00001.html", 400)] {
            let png = try shot(out.appendingPathComponent(page), "shot.png", width: width)
            let size = try #require(Browser.pngSize(png))
            #expect(size.width == width && size.height == 900)
            // A blank page compresses to almost nothing; text, cards and colours do not.
            #expect(png.count > max(3 * blank.count, 8_000), "\(page) at \(width) px: \(png.count) bytes, blank \(blank.count)")
        }
        // The Content-Security-Policy allows the inline style sheet by its hash: the page
        // renders differently from the same page without its sheet. (Were the hash wrong,
        // the browser would refuse the sheet and both would be the same unstyled picture.)
        let filePage = out.appendingPathComponent("review/files/00001.html")
        let html = String(decoding: try Data(contentsOf: filePage), as: UTF8.self)
        let start = try #require(html.range(of: "<style>")), end = try #require(html.range(of: "</style>"))
        let unstyledPage = scratch.url.appendingPathComponent("unstyled.html")
        try Data((String(html[..<start.lowerBound]) + String(html[end.upperBound...])).utf8).write(to: unstyledPage)
        let styled = try shot(filePage, "styled.png", width: 1200), unstyled = try shot(unstyledPage, "unstyled.png", width: 1200)
        #expect(styled != unstyled)
    }

    @Test func aBrowserIsThereWhenCIRequiresOne() {
        #expect(!Browser.required || Browser.path != nil, "CAPTION_ASSISTANT_REQUIRE_BROWSER=1 but no chromium was found (bash .ci/run installs it)")
    }
}

/// `caption-assistant review` as a command: what it writes and its exit statuses.
@Suite(.mayBlock) struct ReviewCommandTests {
    @Test func aMissingFolderOrReportExits66AndAnUnreadableReportExits65() throws {
        let scratch = try ScratchFolder()
        let missing = try ExecutableRun.run(["review", "nothing-here"], in: scratch.url)
        #expect(missing.status == 66)
        #expect(missing.stderrText.contains("nothing-here does not exist"))
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("out"), withIntermediateDirectories: true)
        let noReport = try ExecutableRun.run(["review", "out"], in: scratch.url)
        #expect(noReport.status == 66)
        #expect(noReport.stderrText.contains("report.json is not there"))
        try Data(#"{"schemaVersion": 1, "files": [{"input": "a.srt"}, 7]}"#.utf8).write(to: scratch.url.appendingPathComponent("out/report.json"))
        let garbled = try ExecutableRun.run(["review", "out"], in: scratch.url)
        #expect(garbled.status == 65)
        #expect(garbled.stderrText.contains("an element of \"files\" that is not a JSON object"))
        try Data(#"{"schemaVersion": 2, "files": []}"#.utf8).write(to: scratch.url.appendingPathComponent("out/report.json"))
        let newer = try ExecutableRun.run(["review", "out"], in: scratch.url)
        #expect(newer.status == 65)
        #expect(newer.stderrText.contains("schemaVersion 2"))
        #expect(try ExecutableRun.run(["review"], in: scratch.url).status == 64)
    }

    @Test func aConversionPageListsWhatWasLostAndTheReviewStaysInsideReview() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000 align:start position:10%\nThe rocket is on the pad, the rocket waits.\n"
        try Data(vtt.utf8).write(to: input.appendingPathComponent("a.vtt"))
        #expect(try ExecutableRun.run(["input", "-o", "out", "-test-fake-assistant", "--to", "srt", "--quiet"], in: scratch.url).status == 0)
        let before = filesUnder(scratch.url.appendingPathComponent("out"))
        let run = try ExecutableRun.run(["review", "out", "--json"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.stdoutText.contains(#""files": 1"#))
        let after = filesUnder(scratch.url.appendingPathComponent("out"))
        // Everything new is under review/, and nothing that was there changed place.
        #expect(Set(after).subtracting(before).allSatisfy { $0.hasPrefix("review/") })
        #expect(Set(before).isSubset(of: Set(after)))
        let page = String(decoding: try Data(contentsOf: scratch.url.appendingPathComponent("out/review/files/00001.html")), as: UTF8.self)
        #expect(page.contains("WebVTT → SRT"))
        #expect(page.contains("<h2 id=\"losses-h\">Conversion losses</h2>\n<ul class=\"warnings\">\n<li>WebVTT cue settings (position, line, align) were dropped</li>"))
        #expect(page.contains("The <strong>rocket</strong> is on the pad, the <strong>rocket</strong> <strong>waits</strong>. <mark class=\"emoji\""))
    }
}
