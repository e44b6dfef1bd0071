import Assistant
import Captions
import Foundation

/// The HTML of the review pages: a file's page (the CapScribe menu, then the
/// captions) and the rows and pages of the index. Pure functions of their
/// inputs; `ReviewSite` reads the files and writes the pages.
enum ReviewPages {
    /// The captions a file's page shows, read from the written file through `Captions`.
    enum Captions {
        /// The document as read.
        case read(CaptionDocument)
        /// Why it could not be read.
        case unreadable(String)
        /// Nothing was written.
        case none
    }

    /// What the sidecar next to the written file says compared with `report.json`.
    enum SidecarCheck {
        /// It holds the same entry.
        case matches
        /// It holds something else (this page shows `report.json`'s entry).
        case differs
        /// There is none (or it is not a regular file in the folder).
        case missing
        /// It is not JSON the review can read.
        case unreadable
        /// No file was written, so there is no sidecar to look for by name.
        case notApplicable
    }

    /// A file page's name inside `review/files/` for plan position `index`.
    static func pageName(_ index: Int) -> String {
        let n = String(index + 1)
        return String(repeating: "0", count: max(0, 5 - n.count)) + n + ".html"
    }


    // MARK: the page frame

    static func open(_ w: inout HTMLWriter, title: String, sheet: ReviewStyle.Sheet) {
        w.raw("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"")
        w.text(sheet.policy)
        w.raw("\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<title>")
        w.text(title)
        w.raw("</title>\n<style>")
        w.fragment(sheet.bytes)
        w.raw("</style>\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to content</a>\n")
    }

    static func close(_ w: inout HTMLWriter) {
        w.raw("<footer class=\"wrap\">Made by caption-assistant review from report.json, the sidecars and the written captions. This page runs no script and loads nothing.</footer>\n</body>\n</html>\n")
    }

    // MARK: a file's page

    /// The page of one file. `indexPage` is the name of the index page that
    /// lists it; `hasNext` whether a file follows it in the plan.
    static func filePage(_ e: ReviewEntry, captions: Captions, sidecar: SidecarCheck, indexPage: String, hasNext: Bool,
                         cueLimit: Int = ReviewSite.defaultCueLimit) -> [UInt8] {
        var w = HTMLWriter()
        open(&w, title: e.input + " — caption review", sheet: ReviewStyle.file)
        w.raw("<header class=\"top\"><div class=\"wrap\">\n<nav class=\"crumbs\" aria-label=\"Review\"><a href=\"../")
        w.text(indexPage)
        w.raw("#file-")
        w.number(e.index + 1)
        w.raw("\">← All files</a>")
        if e.index > 0 {
            w.raw("<a href=\"")
            w.text(pageName(e.index - 1))
            w.raw("\" rel=\"prev\">Previous file</a>")
        }
        if hasNext {
            w.raw("<a href=\"")
            w.text(pageName(e.index + 1))
            w.raw("\" rel=\"next\">Next file</a>")
        }
        w.raw("</nav>\n<h1>")
        w.text(e.input)
        w.raw("</h1>\n<p class=\"sub\">File ")
        w.number(e.index + 1)
        if let format = e.format {
            w.raw(" · ")
            w.text(formatName(format))
            if let to = e.convertedTo {
                w.raw(" → ")
                w.text(formatName(to))
            }
        }
        if let cues = e.cues {
            w.raw(" · ")
            w.number(cues)
            w.raw(cues == 1 ? " cue" : " cues")
        }
        w.raw(" · model: ")
        w.text(e.backend ?? "unknown")
        w.raw(" (")
        w.text(e.availability ?? "not checked")
        w.raw(")</p>\n</div></header>\n<main id=\"main\" class=\"wrap\">\n")

        if e.output == nil || e.error != nil, let error = e.error {
            w.raw("<p class=\"callout\" role=\"alert\"><strong>")
            w.raw(e.output == nil ? "Not written: " : "Error: ")
            w.raw("</strong>")
            w.text(error)
            w.raw("</p>\n")
        }

        w.raw("<div class=\"columns\"><section>\n")
        menu(&w, e)
        w.raw("</section><section>\n<h2 id=\"files-h\">Output</h2>\n<ul class=\"warnings\">\n")
        if let output = e.output {
            w.raw("<li>Captions written: ")
            link(&w, to: output)
            w.raw("</li>\n<li>Sidecar: ")
            link(&w, to: output + ".assistant.json")
            w.raw(" ")
            switch sidecar {
            case .matches: w.raw("(the same entry as report.json)")
            case .differs: w.raw("<strong>(differs from report.json; this page shows report.json’s entry)</strong>")
            case .missing: w.raw("<strong>(missing)</strong>")
            case .unreadable: w.raw("<strong>(cannot be read as JSON)</strong>")
            case .notApplicable: break
            }
            w.raw("</li>\n")
        } else {
            w.raw("<li>No caption file was written.</li>\n")
        }
        if let t = e.transcript {
            w.raw("<li>Transcript: ")
            w.number(t.characters)
            w.raw(" characters, ")
            w.number(t.sent)
            w.raw(t.truncated ? " sent to the model (cut at the limit)</li>\n" : " sent to the model</li>\n")
        }
        w.raw("</ul>\n")

        w.raw("<h2 id=\"warnings-h\">Warnings</h2>\n")
        if e.warnings.isEmpty {
            w.raw("<p class=\"muted\">The reader repaired nothing in this file.</p>\n")
        } else {
            w.raw("<ul class=\"warnings\">\n")
            for warning in e.warnings {
                w.raw("<li>")
                if let line = warning.line {
                    w.raw("<span class=\"line\">line ")
                    w.number(line)
                    w.raw("</span>: ")
                }
                w.text(warning.message)
                w.raw("</li>\n")
            }
            w.raw("</ul>\n")
        }

        if e.convertedTo != nil || !e.losses.isEmpty {
            w.raw("<h2 id=\"losses-h\">Conversion losses</h2>\n")
            if e.losses.isEmpty {
                w.raw("<p class=\"muted\">Nothing was lost in the conversion.</p>\n")
            } else {
                w.raw("<ul class=\"warnings\">\n")
                for loss in e.losses {
                    w.raw("<li>")
                    w.text(loss)
                    w.raw("</li>\n")
                }
                w.raw("</ul>\n")
            }
        }

        w.raw("</section></div>\n<h2 id=\"captions-h\">Captions</h2>\n")
        switch captions {
        case .none:
            w.raw("<p class=\"muted\">No captions were written for this file.</p>\n")
        case .unreadable(let why):
            w.raw("<p class=\"callout\">The written captions could not be read: ")
            w.text(why)
            w.raw("</p>\n")
        case .read(let document):
            cueList(&w, document, emoji: appliedEmoji(e), limit: cueLimit, output: e.output)
        }
        w.raw("</main>\n")
        close(&w)
        return w.bytes
    }

    /// A link from a file page to `path` in the output folder, or the path as
    /// plain text when it could lead outside the folder (a report is
    /// untrusted: `..`, absolute paths and empty parts are never linked).
    static func link(_ w: inout HTMLWriter, to path: String) {
        guard OutputFolder.safeParts(path) != nil else {
            w.text(path)
            return
        }
        w.raw("<a href=\"")
        w.text(HTMLWriter.relativeURL(path, prefix: "../../"))
        w.raw("\">")
        w.text(path)
        w.raw("</a>")
    }

    /// The emoji the report says was added, if the emoji action was applied.
    static func appliedEmoji(_ e: ReviewEntry) -> String? {
        guard let action = e.actions.first(where: { $0.id == "emoji" }), action.state == "applied",
              case .string(let emoji)? = action.json["emoji"], !emoji.isEmpty else { return nil }
        return emoji
    }

    /// The three actions as the CapScribe menu: each with its state and what
    /// it gave, then (when the actions were not applied) the reason row, the
    /// remedy, and "Open Settings" where the report says Settings can help.
    static func menu(_ w: inout HTMLWriter, _ e: ReviewEntry) {
        w.raw("<h2 id=\"menu-h\">Assistant</h2>\n<ul class=\"menu\" aria-labelledby=\"menu-h\">\n")
        for action in e.actions {
            let state = action.state
            switch state {
            case "applied": w.raw("<li class=\"action applied\"")
            case "failed": w.raw("<li class=\"action failed\"")
            case "disabled": w.raw("<li class=\"action disabled\" aria-disabled=\"true\"")
            default: w.raw("<li class=\"action\"")
            }
            w.raw(" data-action=\"")
            w.text(action.id)
            w.raw("\"><div class=\"head\"><span class=\"label\">")
            w.text(action.label)
            w.raw("</span><span class=\"state\">")
            switch state {
            case "applied": w.raw("✓ Applied")
            case "failed": w.raw("✗ Failed")
            case "disabled": w.raw("Disabled")
            default: w.text(state)
            }
            w.raw("</span></div>\n")
            if state == "applied" { appliedDetails(&w, action) }
            if state == "failed" {
                w.raw("<p class=\"error\">")
                w.text(action.reason ?? e.error ?? "The report gives no error text.")
                w.raw("</p>\n")
            }
            if state != "applied", case .array(let dropped)? = action.json["dropped"], !dropped.isEmpty {
                droppedKeywords(&w, dropped)
            }
            w.raw("</li>\n")
        }
        let anyDisabled = e.hasDisabled
        if anyDisabled || e.reasonRow != nil {
            w.raw("<li class=\"reason\" role=\"note\"><p class=\"reason-row\">")
            let row = e.reasonRow.flatMap { $0.isEmpty ? nil : $0 }
            w.text(row ?? "The model was unavailable (the report gives no reason)")
            w.raw("</p>\n")
            if anyDisabled, let remedy = e.remedy, !remedy.isEmpty {
                w.raw("<p class=\"remedy\">")
                w.text(remedy)
                w.raw("</p>\n")
            }
            if anyDisabled, e.offersSettings {
                w.raw("<p><span class=\"settings\">Open Settings</span> <span class=\"muted\">")
                w.text(Diagnostics.settingsPath)
                w.raw("</span></p>\n")
            }
            w.raw("</li>\n")
        }
        w.raw("</ul>\n")
    }

    /// A list of the strings among `values`, each escaped in an `item` element
    /// (`<li …>`, closed with `</li>`), between `open` and `close`.
    static func textList(_ w: inout HTMLWriter, _ values: [JSONValue], open: StaticString, item: StaticString, close: StaticString) {
        w.raw(open)
        for case .string(let text) in values {
            w.raw(item)
            w.text(text)
            w.raw("</li>")
        }
        w.raw(close)
    }

    static func appliedDetails(_ w: inout HTMLWriter, _ action: ReviewEntry.Action) {
        let j = action.json
        if case .array(let keywords)? = j["keywords"] {
            textList(&w, keywords, open: "<ul class=\"chips\" aria-label=\"Keywords\">", item: "<li>", close: "</ul>\n")
            if case .int(let n)? = j["occurrences"] {
                w.raw("<p class=\"muted\">")
                w.number(n)
                w.raw(n == 1 ? " occurrence emphasised" : " occurrences emphasised")
                w.raw("</p>\n")
            }
            if case .array(let dropped)? = j["dropped"], !dropped.isEmpty { droppedKeywords(&w, dropped) }
        }
        if case .array(let titles)? = j["titles"] {
            textList(&w, titles, open: "<ol class=\"titles\">", item: "<li class=\"title\">", close: "</ol>\n")
        }
        if case .string(let emoji)? = j["emoji"] {
            w.raw("<p class=\"big-emoji\">")
            w.text(emoji)
            w.raw(" <span class=\"muted\">added to the end of the last cue</span></p>\n")
        }
    }

    static func droppedKeywords(_ w: inout HTMLWriter, _ dropped: [JSONValue]) {
        w.raw("<p class=\"muted\">Dropped: ")
        for (i, item) in dropped.enumerated() {
            if i > 0 { w.raw("; ") }
            if case .string(let k)? = item["keyword"] {
                w.raw("“")
                w.text(k)
                w.raw("”")
                if case .string(let why)? = item["reason"] {
                    w.raw(" (")
                    w.text(why)
                    w.raw(")")
                }
            } else if case .string(let k) = item {
                w.text(k)
            }
        }
        w.raw("</p>\n")
    }

    /// The cues as a list: times, then the text from the parsed runs, with
    /// bold (the keyword emphasis), italic, underline and strike-through as
    /// the file styles them, line breaks kept, markup that is not a plain
    /// style tag shown as written (dimmed), and the added emoji marked in the
    /// last cue.
    static func cueList(_ w: inout HTMLWriter, _ document: CaptionDocument, emoji: String?, limit: Int, output: String?) {
        let cues = document.cues
        if cues.isEmpty {
            w.raw("<p class=\"muted\">The file has no cues.</p>\n")
            return
        }
        if cues.count > limit {
            w.raw("<p class=\"note\">This page lists the first ")
            w.number(limit)
            w.raw(" of ")
            w.number(cues.count)
            w.raw(" cues; the rest are in ")
            if let output, OutputFolder.safeParts(output) != nil {
                w.raw("<a href=\"")
                w.text(HTMLWriter.relativeURL(output, prefix: "../../"))
                w.raw("\">the file</a>.</p>\n")
            } else {
                w.raw("the file.</p>\n")
            }
        }
        w.raw("<ol class=\"cues\">\n")
        let last = cues.count - 1
        let emojiBytes = emoji.map { Array($0.utf8) } ?? []
        var text: [UInt8] = []
        for i in 0..<min(cues.count, limit) {
            let cue = cues[i]
            w.raw("<li><time>")
            w.time(milliseconds: cue.start.roundedMilliseconds)
            w.raw(" → ")
            w.time(milliseconds: cue.end.roundedMilliseconds)
            w.raw("</time><span>")
            // The emoji lands at the end of the last cue's last text run, after one space.
            var lastText = -1, index = 0
            if i == last, !emojiBytes.isEmpty {
                cue.forEachRun { if $0.kind == .text { lastText = index }; index += 1 }
            }
            index = 0
            // Walked, not built: an SRT cue's text comes from its source bytes with no run or string made.
            cue.forEachRun { run in
                defer { index += 1 }
                text.removeAll(keepingCapacity: true)
                run.appendText(to: &text)
                switch run.kind {
                case .lineBreak:
                    w.raw("<br>")
                case .markup:
                    if !isStyleTag(text[...]) {
                        w.raw("<code class=\"markup\" title=\"markup kept as written in the file\">")
                        w.text(utf8: text[...])
                        w.raw("</code>")
                    }
                case .text:
                    let marked = index == lastText && text.count >= emojiBytes.count && text.suffix(emojiBytes.count).elementsEqual(emojiBytes)
                    let end = marked ? text.count - emojiBytes.count : text.count
                    if end > 0 { styled(&w, run.style, text[..<end]) }
                    if marked {
                        w.raw("<mark class=\"emoji\" title=\"the emoji the assistant added\">")
                        w.text(utf8: text[end...])
                        w.raw("</mark>")
                    }
                }
            }
            w.raw("</span></li>\n")
        }
        w.raw("</ol>\n")
    }

    static func styled(_ w: inout HTMLWriter, _ style: TextStyle, _ utf8: ArraySlice<UInt8>) {
        utf8.withUnsafeBufferPointer { styled(&w, style, $0) }
    }

    /// `styled` of the UTF-8 bytes `utf8`.
    static func styled(_ w: inout HTMLWriter, _ style: TextStyle, _ utf8: UnsafeBufferPointer<UInt8>) {
        if style.contains(.bold) { w.raw("<strong>") }
        if style.contains(.italic) { w.raw("<em>") }
        if style.contains(.underline) { w.raw("<u>") }
        if style.contains(.strikethrough) { w.raw("<s>") }
        w.text(utf8: utf8)
        if style.contains(.strikethrough) { w.raw("</s>") }
        if style.contains(.underline) { w.raw("</u>") }
        if style.contains(.italic) { w.raw("</em>") }
        if style.contains(.bold) { w.raw("</strong>") }
    }

    /// Whether `markup` is a tag whose effect the page already shows (as
    /// style) or that only structures the text: `b`, `i`, `u`, `s`, `c`, `v`,
    /// `lang`, `ruby`, `rt`, `span`, `br`, `p`, `font`, opening or closing.
    /// Such tags are not shown as written; any other markup is.
    static func isStyleTag(_ markup: ArraySlice<UInt8>) -> Bool {
        markup.withUnsafeBufferPointer { isStyleTag($0) }
    }

    /// `isStyleTag` of the UTF-8 bytes `p`.
    static func isStyleTag(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard p.count >= 2, p[0] == UInt8(ascii: "<") else { return false }
        var i = p[1] == UInt8(ascii: "/") ? 2 : 1
        let start = i
        var name: UInt64 = 0  // up to 8 lower-case ASCII letters, packed
        while i < p.count, i - start < 8 {
            let b = p[i] | 0x20
            guard b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") else { break }
            name = name << 8 | UInt64(b)
            i += 1
        }
        guard i > start, i < p.count else { return false }
        let next = p[i]
        // The name ends at a space, '.', '/', '>' (WebVTT classes and annotations, attributes, self-closing).
        guard next == 0x20 || next == 0x09 || next == UInt8(ascii: ".") || next == UInt8(ascii: "/") || next == UInt8(ascii: ">") else {
            return false
        }
        return styleTagNames.contains(name)
    }

    /// The names `isStyleTag` accepts, packed as it packs them.
    static let styleTagNames: Set<UInt64> = Set(["b", "i", "u", "s", "c", "v", "lang", "ruby", "rt", "span", "br", "p", "font"].map {
        $0.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    })

    static func formatName(_ format: String) -> String {
        switch format {
        case "srt": return "SRT"
        case "vtt": return "WebVTT"
        case "ttml": return "TTML"
        default: return format
        }
    }

    // MARK: the index

    /// A row of the index table for `e`, whose page is `files/<pageName>`.
    static func indexRow(_ e: ReviewEntry) -> [UInt8] {
        var w = HTMLWriter(capacity: 1024)
        w.raw("<tr id=\"file-")
        w.number(e.index + 1)
        w.raw("\"><td class=\"num pos\">")
        w.number(e.index + 1)
        w.raw("</td><td class=\"name\"><a href=\"files/")
        w.text(pageName(e.index))
        w.raw("\">")
        let slash = e.input.lastIndex(of: "/")
        if let slash {
            w.raw("<span class=\"dir\">")
            w.text(String(e.input[...slash]))
            w.raw("</span>")
        }
        w.raw("<span class=\"fname\">")
        w.text(slash.map { String(e.input[e.input.index(after: $0)...]) } ?? e.input)
        w.raw("</span></a></td><td class=\"meta\" data-label=\"Format\">")
        if let format = e.format {
            w.text(formatName(format))
            if let to = e.convertedTo {
                w.raw(" → ")
                w.text(formatName(to))
            }
        } else {
            w.raw("—")
        }
        w.raw("</td><td class=\"num meta\" data-label=\"Cues\">")
        if let cues = e.cues { w.number(cues) } else { w.raw("—") }
        w.raw("</td><td class=\"num meta\" data-label=\"Warnings\">")
        if e.warnings.isEmpty { w.raw("0") } else {
            w.raw("<span class=\"badge warn\">")
            w.number(e.warnings.count)
            w.raw("</span>")
        }
        w.raw("</td><td data-label=\"Actions\"><span class=\"badges\">")
        for action in e.actions {
            switch action.state {
            case "applied": w.raw("<span class=\"badge applied\"><span aria-hidden=\"true\">✓ </span>")
            case "failed": w.raw("<span class=\"badge failed\"><span aria-hidden=\"true\">✗ </span>")
            case "disabled": w.raw("<span class=\"badge disabled\"><span aria-hidden=\"true\">– </span>")
            default: w.raw("<span class=\"badge\">")
            }
            switch action.id {
            case "keywordEmphasis": w.raw("Keywords")
            case "titles": w.raw("Titles")
            case "emoji": w.raw("Emoji")
            default: w.text(action.label)
            }
            w.raw("<span class=\"vh\"> ")
            w.text(action.state)
            w.raw("</span></span>")
        }
        w.raw("</span></td>")
        if let error = e.error {
            w.raw("<td class=\"err\" data-label=\"Error\">")
            w.text(error)
            w.raw("</td>")
        } else {
            w.raw("<td class=\"err\"></td>")
        }
        w.raw("</tr>\n")
        return w.bytes
    }

    /// A distinct reason the model was unavailable, with how many files it covers.
    struct Reason {
        var name: String
        var reasonRow: String
        var remedy: String
        var permanence: String?
        var offersSettings: Bool
        var count: Int
    }

    /// The filters of the index, each with its own pages.
    enum Filter: CaseIterable {
        case all, failed, disabled, warnings

        /// The first page's file name; later pages add `-2`, `-3`, ….
        var baseName: String {
            switch self {
            case .all: return "index"
            case .failed: return "failed"
            case .disabled: return "disabled"
            case .warnings: return "warnings"
            }
        }

        /// The name of page `page` (from 1).
        func pageName(_ page: Int) -> String { page <= 1 ? baseName + ".html" : baseName + "-\(page).html" }

        var title: StaticString {
            switch self {
            case .all: return "All files"
            case .failed: return "With failures"
            case .disabled: return "Disabled"
            case .warnings: return "With warnings"
            }
        }
    }

    /// One page of the index.
    static func indexPage(filter: Filter, page: Int, pages: Int, rows: ArraySlice<[UInt8]>, counts: [Filter: Int],
                          totals: BatchReport.Totals, reasons: [Reason], folderName: String) -> [UInt8] {
        var w = HTMLWriter(capacity: rows.reduce(8 << 10) { $0 + $1.count })
        let titleText = "Caption review: " + folderName + (page > 1 ? " (page \(page))" : "")
        open(&w, title: titleText, sheet: ReviewStyle.index)
        w.raw("<header class=\"top\"><div class=\"wrap\">\n<h1>Caption review</h1>\n<p class=\"sub\">")
        w.text(folderName)
        w.raw(" · ")
        w.number(totals.files)
        w.raw(totals.files == 1 ? " file" : " files")
        w.raw("</p>\n</div></header>\n<main id=\"main\" class=\"wrap\">\n<h2 id=\"totals-h\">Totals</h2>\n<dl class=\"stats\" aria-labelledby=\"totals-h\">")
        func stat(_ w: inout HTMLWriter, _ label: StaticString, _ n: Int) {
            w.raw("<div><dt>")
            w.raw(label)
            w.raw("</dt><dd>")
            w.number(n)
            w.raw("</dd></div>")
        }
        stat(&w, "Files", totals.files)
        stat(&w, "Written", totals.written)
        stat(&w, "Failed", totals.failed)
        if totals.notProcessed > 0 { stat(&w, "Not processed", totals.notProcessed) }
        stat(&w, "Actions applied", totals.applied)
        stat(&w, "Actions failed", totals.actionsFailed)
        stat(&w, "Actions disabled", totals.disabled)
        stat(&w, "Cues", totals.cues)
        stat(&w, "Warnings", totals.warnings)
        w.raw("</dl>\n")

        if !reasons.isEmpty {
            w.raw("<h2 id=\"reasons-h\">Why the model was unavailable</h2>\n")
            for reason in reasons {
                w.raw("<div class=\"card\"><p class=\"reason-row\">")
                w.text(reason.reasonRow)
                w.raw(" <span class=\"badge disabled\">")
                w.number(reason.count)
                w.raw(reason.count == 1 ? " file" : " files")
                w.raw("</span></p>\n<p class=\"remedy\">")
                w.text(reason.remedy)
                w.raw("</p>\n<p class=\"muted\">")
                w.text(reason.name)
                if let permanence = reason.permanence {
                    w.raw(" · ")
                    w.text(permanence)
                }
                w.raw("</p>\n")
                if reason.offersSettings {
                    w.raw("<p><span class=\"settings\">Open Settings</span> <span class=\"muted\">")
                    w.text(Diagnostics.settingsPath)
                    w.raw("</span></p>\n")
                }
                w.raw("</div>\n")
            }
        }

        w.raw("<h2 id=\"list-h\">Files</h2>\n<nav aria-label=\"Filter by state\"><ul class=\"tabs\">")
        for f in Filter.allCases {
            w.raw("<li><a href=\"")
            w.text(f.pageName(1))
            w.raw("\"")
            if f == filter { w.raw(" aria-current=\"page\"") }
            w.raw(">")
            w.raw(f.title)
            w.raw(" (")
            w.number(counts[f] ?? 0)
            w.raw(")</a></li>")
        }
        w.raw("</ul></nav>\n")
        pageLinks(&w, filter: filter, page: page, pages: pages)
        if rows.isEmpty {
            w.raw("<p class=\"muted\">No file is in this list.</p>\n")
        } else {
            w.raw("<table class=\"files\" aria-labelledby=\"list-h\">\n<thead><tr><th scope=\"col\">#</th><th scope=\"col\">File</th><th scope=\"col\">Format</th><th scope=\"col\">Cues</th><th scope=\"col\">Warnings</th><th scope=\"col\">Actions</th><th scope=\"col\">Error</th></tr></thead>\n<tbody>\n")
            for row in rows { w.fragment(row) }
            w.raw("</tbody>\n</table>\n")
        }
        pageLinks(&w, filter: filter, page: page, pages: pages)
        w.raw("</main>\n")
        close(&w)
        return w.bytes
    }

    static func pageLinks(_ w: inout HTMLWriter, filter: Filter, page: Int, pages: Int) {
        guard pages > 1 else { return }
        w.raw("<nav class=\"pages\" aria-label=\"Pages\">")
        if page > 1 {
            w.raw("<a href=\"")
            w.text(filter.pageName(page - 1))
            w.raw("\" rel=\"prev\">← Previous</a>")
        }
        w.raw("<span>Page ")
        w.number(page)
        w.raw(" of ")
        w.number(pages)
        w.raw("</span>")
        if page < pages {
            w.raw("<a href=\"")
            w.text(filter.pageName(page + 1))
            w.raw("\" rel=\"next\">Next →</a>")
        }
        // A few direct links: the first, the last, and those near this one.
        for p in 1...pages where p != page && (p == 1 || p == pages || abs(p - page) <= 3) {
            w.raw("<a href=\"")
            w.text(filter.pageName(p))
            w.raw("\">")
            w.number(p)
            w.raw("</a>")
        }
        w.raw("</nav>\n")
    }
}
