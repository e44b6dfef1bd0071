import Assistant
import Captions

/// A file's page: the CapScribe menu (each action, what it gave, and why
/// not), the output and the reader's warnings, then the captions.
extension ReviewPages {
    /// The page of one file. `indexPage` is the name of the index page that
    /// lists it; `hasNext` whether a file follows it in the plan.
    static func filePage(_ e: ReviewSite.Entry, captions: Captions, sidecar: SidecarCheck, indexPage: String, hasNext: Bool,
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
        let r = e.report
        if let format = r.format {
            w.raw(" · ")
            w.text(formatName(format))
            if let to = r.convertedTo {
                w.raw(" → ")
                w.text(formatName(to))
            }
        }
        if let cues = r.cues {
            w.raw(" · ")
            w.number(cues)
            w.raw(cues == 1 ? " cue" : " cues")
        }
        w.raw(" · model: ")
        Provenance(r).write(&w)
        w.raw(" (")
        switch r.model.availability {
        case nil: w.raw("not checked")
        case .available?: w.raw("available")
        case .unavailable?: w.raw("unavailable")
        }
        w.raw(")</p>\n</div></header>\n<main id=\"main\" class=\"wrap\">\n")

        if let error = r.error {
            w.raw("<p class=\"callout\" role=\"alert\"><strong>")
            w.raw(r.output == nil ? "Not written: " : "Error: ")
            w.raw("</strong>")
            w.text(error)
            w.raw("</p>\n")
        }
        if let kept = r.kept {
            // The page shows an earlier run's output: say so, and what this run's model did.
            w.raw("<p class=\"callout\"><strong>Kept from an earlier run: </strong>this run gave nothing to store over it (")
            w.text(kept.why + (kept.error.map { ": " + $0 } ?? ""))
            w.raw("), so the output the earlier run made with the model was kept; this page shows that output.</p>\n")
        }
        if !e.unread.isEmpty { unread(&w, e.unread) }

        w.raw("<div class=\"columns\"><section>\n")
        menu(&w, e)
        w.raw("</section><section>\n<h2 id=\"files-h\">Output</h2>\n<ul class=\"warnings\">\n")
        if let output = r.output {
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
        if let cost = r.model.cost {
            w.raw("<li>Model cost: ")
            w.text(cost.summary())
            w.raw("</li>\n")
        }
        if let t = r.transcript {
            w.raw("<li>Transcript: ")
            w.number(t.characters)
            w.raw(" characters, ")
            w.number(t.sentCharacters)
            w.raw(t.truncated ? " sent to the model (cut at the limit)</li>\n" : " sent to the model</li>\n")
        }
        w.raw("</ul>\n")

        w.raw("<h2 id=\"warnings-h\">Warnings</h2>\n")
        if r.warnings.isEmpty {
            w.raw("<p class=\"muted\">The reader repaired nothing in this file.</p>\n")
        } else {
            w.raw("<ul class=\"warnings\">\n")
            for warning in r.warnings {
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

        if r.convertedTo != nil || !r.losses.isEmpty {
            w.raw("<h2 id=\"losses-h\">Conversion losses</h2>\n")
            if r.losses.isEmpty {
                w.raw("<p class=\"muted\">Nothing was lost in the conversion.</p>\n")
            } else {
                w.raw("<ul class=\"warnings\">\n")
                for loss in r.losses {
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
            cueList(&w, document, emoji: addedEmoji(r), limit: cueLimit, output: r.output)
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

    /// Says which values of the entry could not be read (at most 20 named),
    /// so the page is not taken for the whole entry.
    static func unread(_ w: inout HTMLWriter, _ problems: [ReportError]) {
        w.raw("<div class=\"callout\" role=\"note\"><p>Part of this file’s entry in report.json could not be read, so this page leaves it out:</p>\n<ul>\n")
        for problem in problems.prefix(20) {
            w.raw("<li>")
            w.text(problem.localizedDescription)
            w.raw("</li>\n")
        }
        if problems.count > 20 {
            w.raw("<li>and ")
            w.number(problems.count - 20)
            w.raw(" more</li>\n")
        }
        w.raw("</ul></div>\n")
    }

    /// The emoji the report says was added and the cue it went on (from 0),
    /// when the emoji action was applied: the report records the cue
    /// (`ActionReport.cue`), so the page marks it there, never where it
    /// would guess the emoji went.
    static func addedEmoji(_ r: FileReport) -> (text: String, cue: Int)? {
        guard let action = r.actions.first(where: { $0.id == .emoji }), action.state == .applied,
              let emoji = action.emoji, !emoji.isEmpty, let cue = action.cue else { return nil }
        return (emoji, cue - 1)
    }

    /// The three actions as the CapScribe menu: each with its state and what
    /// it gave, then (when the actions were not applied) the reason row, the
    /// remedy, and "Open Settings" where the report says Settings can help.
    static func menu(_ w: inout HTMLWriter, _ e: ReviewSite.Entry) {
        w.raw("<h2 id=\"menu-h\">Assistant</h2>\n<ul class=\"menu\" aria-labelledby=\"menu-h\">\n")
        for action in e.report.actions {
            switch action.state {
            case .applied: w.raw("<li class=\"action applied\"")
            case .failed: w.raw("<li class=\"action failed\"")
            case .disabled: w.raw("<li class=\"action disabled\" aria-disabled=\"true\"")
            case .notRequested: w.raw("<li class=\"action notRequested\" aria-disabled=\"true\"")
            }
            w.raw(" data-action=\"")
            w.text(action.id.reportName)
            w.raw("\"><div class=\"head\"><span class=\"label\">")
            w.text(action.id.label)
            w.raw("</span><span class=\"state\">")
            switch action.state {
            case .applied: w.raw("✓ Applied")
            case .failed: w.raw("✗ Failed")
            case .disabled: w.raw("Disabled")
            case .notRequested: w.raw("Not requested")
            }
            w.raw("</span></div>\n")
            switch action.source {
            case .fallback: w.raw("<p class=\"source\">From the transcript itself (the fallback), not from the model</p>\n")
            case .earlier: w.raw("<p class=\"source\">Kept from an earlier run's model, not from this run's</p>\n")
            case .model: break
            }
            if action.state == .applied { appliedDetails(&w, action) }
            if action.state == .failed {
                w.raw("<p class=\"error\">")
                w.text(action.reason ?? e.report.error ?? "The report gives no error text.")
                w.raw("</p>\n")
            } else if let reason = action.reason, !reason.isEmpty {
                // Not requested: why; from the fallback: why the model's content was not used.
                w.raw("<p class=\"muted\">")
                w.text(reason)
                w.raw("</p>\n")
            }
            if action.state != .applied, let dropped = action.dropped, !dropped.isEmpty {
                droppedKeywords(&w, dropped)
            }
            w.raw("</li>\n")
        }
        let anyDisabled = e.hasDisabled
        if anyDisabled || e.report.reasonRow != nil {
            w.raw("<li class=\"reason\" role=\"note\"><p class=\"reason-row\">")
            let row = e.report.reasonRow.flatMap { $0.isEmpty ? nil : $0 }
            w.text(row ?? "The model was unavailable (the report gives no reason)")
            w.raw("</p>\n")
            if anyDisabled, let remedy = e.unavailability?.remedy, !remedy.isEmpty {
                w.raw("<p class=\"remedy\">")
                w.text(remedy)
                w.raw("</p>\n")
            }
            if anyDisabled, e.unavailability?.offersSettings == true {
                w.raw("<p><span class=\"settings\">Open Settings</span> <span class=\"muted\">")
                w.text(Diagnostics.settingsPath)
                w.raw("</span></p>\n")
            }
            w.raw("</li>\n")
        }
        w.raw("</ul>\n")
    }

    /// `texts`, each escaped in an `item` element (`<li …>`, closed with `</li>`), between `open` and `close`.
    static func textList(_ w: inout HTMLWriter, _ texts: [String], open: StaticString, item: StaticString, close: StaticString) {
        w.raw(open)
        for text in texts {
            w.raw(item)
            w.text(text)
            w.raw("</li>")
        }
        w.raw(close)
    }

    static func appliedDetails(_ w: inout HTMLWriter, _ action: ActionReport) {
        if let keywords = action.keywords {
            textList(&w, keywords, open: "<ul class=\"chips\" aria-label=\"Keywords\">", item: "<li>", close: "</ul>\n")
            if let n = action.occurrences {
                w.raw("<p class=\"muted\">")
                w.number(n)
                w.raw(n == 1 ? " occurrence emphasised" : " occurrences emphasised")
                if let left = action.occurrencesLeft {
                    w.raw(", ")
                    w.number(left)
                    w.raw(" left plain by the emphasis density")
                }
                w.raw("</p>\n")
            }
            if let dropped = action.dropped, !dropped.isEmpty { droppedKeywords(&w, dropped) }
        }
        if let titles = action.titles {
            textList(&w, titles, open: "<ol class=\"titles\">", item: "<li class=\"title\">", close: "</ol>\n")
        }
        if let emoji = action.emoji {
            w.raw("<p class=\"big-emoji\">")
            w.text(emoji)
            emojiName(&w, emoji)
            if let cue = action.cue {
                w.raw(" <span class=\"muted\">added to the end of cue ")
                w.number(cue)
                w.raw(", the one shown last</span></p>\n")
            } else {
                w.raw(" <span class=\"muted\">added to the end of the cue shown last</span></p>\n")
            }
        }
    }

    static func droppedKeywords(_ w: inout HTMLWriter, _ dropped: [DroppedKeyword]) {
        w.raw("<p class=\"muted\">Dropped: ")
        for (i, item) in dropped.enumerated() {
            if i > 0 { w.raw("; ") }
            w.raw("“")
            w.text(item.keyword)
            w.raw("”")
            if !item.reason.isEmpty {
                w.raw(" (")
                w.text(item.reason)
                w.raw(")")
            }
        }
        w.raw("</p>\n")
    }
}
