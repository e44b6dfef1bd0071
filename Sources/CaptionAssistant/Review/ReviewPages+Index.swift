import Assistant

/// The index: its rows, its filters (all, with failures, disabled, with
/// warnings), and its pages with the batch's totals and the reasons the model
/// was unavailable.
extension ReviewPages {
    /// A row of the index table for `e`, whose page is `files/<pageName>`.
    static func indexRow(_ e: ReviewSite.Entry) -> [UInt8] {
        var w = HTMLWriter(capacity: 1024)
        w.raw("<tr id=\"file-")
        w.number(e.index + 1)
        w.raw("\"><td class=\"num pos\">")
        w.number(e.index + 1)
        w.raw("</td><td class=\"name\"><a href=\"files/")
        w.text(pageName(e.index))
        w.raw("\">")
        // The last `/` byte (a `/` before a combining mark is one `Character` with it: `PathText.parts`).
        let slash = e.input.utf8.lastIndex(of: UInt8(ascii: "/"))
        if let slash {
            w.raw("<span class=\"dir\">")
            w.text(String(Substring(e.input.utf8[...slash])))
            w.raw("</span>")
        }
        w.raw("<span class=\"fname\">")
        w.text(slash.map { String(Substring(e.input.utf8[e.input.utf8.index(after: $0)...])) } ?? e.input)
        w.raw("</span></a></td><td class=\"meta\" data-label=\"Format\">")
        let r = e.report
        if let format = r.format {
            w.text(formatName(format))
            if let to = r.convertedTo {
                w.raw(" → ")
                w.text(formatName(to))
            }
        } else {
            w.raw("—")
        }
        w.raw("</td><td class=\"num meta\" data-label=\"Cues\">")
        if let cues = r.cues { w.number(cues) } else { w.raw("—") }
        w.raw("</td><td class=\"num meta\" data-label=\"Warnings\">")
        if r.warnings.isEmpty { w.raw("0") } else {
            w.raw("<span class=\"badge warn\">")
            w.number(r.warnings.count)
            w.raw("</span>")
        }
        w.raw("</td><td data-label=\"Actions\"><span class=\"badges\">")
        for action in r.actions {
            switch (action.state, action.source) {
            case (.applied, .fallback): w.raw("<span class=\"badge fallback\"><span aria-hidden=\"true\">✓ </span>")
            case (.applied, _): w.raw("<span class=\"badge applied\"><span aria-hidden=\"true\">✓ </span>")
            case (.failed, _): w.raw("<span class=\"badge failed\"><span aria-hidden=\"true\">✗ </span>")
            case (.disabled, _): w.raw("<span class=\"badge disabled\"><span aria-hidden=\"true\">– </span>")
            case (.notRequested, _): w.raw("<span class=\"badge notRequested\"><span aria-hidden=\"true\">· </span>")
            }
            switch action.id {
            case .keywords: w.raw("Keywords")
            case .titles: w.raw("Titles")
            case .emoji: w.raw("Emoji")
            }
            w.raw("<span class=\"vh\"> ")
            w.text(stateWords(action))
            w.raw("</span></span>")
        }
        w.raw("</span></td><td class=\"titles\" data-label=\"Titles\">")
        if let titles = r.actions.first(where: { $0.id == .titles && $0.state == .applied })?.titles, !titles.isEmpty {
            w.raw("<ol>")
            for title in titles.prefix(3) {
                w.raw("<li>")
                w.text(shortened(title))
                w.raw("</li>")
            }
            w.raw("</ol>")
        }
        w.raw("</td><td class=\"emoji\" data-label=\"Emoji\">")
        if let emoji = r.actions.first(where: { $0.id == .emoji && $0.state == .applied })?.emoji {
            w.text(shortened(emoji, to: 16))
            emojiName(&w, emoji)
        }
        w.raw("</td>")
        if let error = r.error {
            w.raw("<td class=\"err\" data-label=\"Error\">")
            w.text(error)
            w.raw("</td>")
        } else {
            w.raw("<td class=\"err\"></td>")
        }
        w.raw("</tr>\n")
        return w.bytes
    }

    /// An action's state in words, for a screen reader: `applied`, `applied from the fallback`, `not requested`.
    static func stateWords(_ action: ActionReport) -> String {
        switch (action.state, action.source) {
        case (.applied, .fallback): return "applied from the fallback"
        case (.applied, .earlier): return "kept from an earlier run"
        case (.notRequested, _): return "not requested"
        default: return action.state.rawValue
        }
    }

    /// `text` cut to `limit` `Character`s (an ellipsis ends a cut one), so a
    /// hand-edited report's huge value cannot swell the index.
    static func shortened(_ text: String, to limit: Int = 100) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
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

        /// Whether `name` is the name of one of the index's pages (of any filter).
        static func isIndexPage(_ name: String) -> Bool {
            guard name.hasSuffix(".html") else { return false }
            let stem = name.dropLast(5)
            for filter in allCases {
                if stem == filter.baseName { return true }
                if stem.hasPrefix(filter.baseName + "-"), let n = Int(stem.dropFirst(filter.baseName.count + 1)), n > 1,
                   stem.allSatisfy(\.isASCII) { return true }
            }
            return false
        }

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
                          totals: BatchReport.Totals, reasons: [Reason], models: Provenance.Tally, folderName: String) -> [UInt8] {
        var w = HTMLWriter(capacity: rows.reduce(8 << 10) { $0 + $1.count })
        let titleText = "Caption review: " + folderName + (page > 1 ? " (page \(page))" : "")
        open(&w, title: titleText, sheet: ReviewStyle.index)
        w.raw("<header class=\"top\"><div class=\"wrap\">\n<h1>Caption review</h1>\n<p class=\"sub\">")
        w.text(folderName)
        w.raw(" · ")
        w.number(totals.files)
        w.raw(totals.files == 1 ? " file" : " files")
        models.write(&w)
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
        stat(&w, "Actions applied", totals.actions.applied)
        if totals.actions.fallback > 0 { stat(&w, "From the fallback", totals.actions.fallback) }
        stat(&w, "Actions failed", totals.actions.failed)
        stat(&w, "Actions disabled", totals.actions.disabled)
        if totals.actions.notRequested > 0 { stat(&w, "Not requested", totals.actions.notRequested) }
        stat(&w, "Cues", totals.cues)
        stat(&w, "Warnings", totals.warnings)
        if let cost = totals.cost, cost.requests > 0 {
            stat(&w, "Model requests", cost.requests)
            if let tokens = cost.tokens { stat(&w, "Model tokens", tokens) }
            w.raw("<div><dt>Model time, summed over requests</dt><dd>")
            w.text(cost.seconds)
            w.raw("</dd></div>")
        }
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
            w.raw("<table class=\"files\" aria-labelledby=\"list-h\">\n<thead><tr><th scope=\"col\">#</th><th scope=\"col\">File</th><th scope=\"col\">Format</th><th scope=\"col\">Cues</th><th scope=\"col\">Warnings</th><th scope=\"col\">Actions</th><th scope=\"col\">Titles</th><th scope=\"col\">Emoji</th><th scope=\"col\">Error</th></tr></thead>\n<tbody>\n")
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
