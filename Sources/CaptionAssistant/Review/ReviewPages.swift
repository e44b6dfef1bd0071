import Assistant
import Captions
import Foundation

/// The HTML of the review pages: the frame every page shares (here), a
/// file's page (`+FilePage`: the CapScribe menu, then its captions,
/// `+Captions`) and the rows and pages of the index (`+Index`). Pure
/// functions of their inputs; `ReviewSite` reads the files and writes the pages.
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
}
