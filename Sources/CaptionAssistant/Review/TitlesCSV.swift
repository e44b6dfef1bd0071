import Assistant

/// `review/titles.csv`: one row per file, in plan order, with what a
/// producer copies into a spreadsheet: the file, the three titles, the emoji
/// and the keywords.
///
/// RFC 4180: fields separated by commas, lines ended by CRLF, a field that
/// holds a comma, a double quote, CR or LF enclosed in double quotes with its
/// double quotes doubled; UTF-8 with a byte-order mark, so that Excel reads
/// the emoji and accented letters right. Titles, keywords and the emoji come
/// from a model (untrusted) and file names from anyone: a cell that starts
/// with `=`, `+`, `-`, `@`, a tab or a CR, which a spreadsheet could take for
/// a formula, gets a `'` in front (OWASP's advice against CSV injection).
/// Actions that were not applied leave their cells empty.
enum TitlesCSV {
    /// The file's name in the review folder.
    static let name = "titles.csv"

    /// The header row, after the byte-order mark.
    static var header: [UInt8] {
        [0xEF, 0xBB, 0xBF] + line(["file", "title 1", "title 2", "title 3", "emoji", "keywords"])
    }

    /// The row of `report`, whose input is shown as `input`.
    static func row(_ report: FileReport, input: String) -> [UInt8] {
        func applied(_ id: AssistantAction) -> ActionReport? {
            report.actions.first { $0.id == id && $0.state == .applied }
        }
        let titles = applied(.titles)?.titles ?? []
        var cells = [input]
        for i in 0..<3 { cells.append(i < titles.count ? titles[i] : "") }
        cells.append(applied(.emoji)?.emoji ?? "")
        cells.append((applied(.keywords)?.keywords ?? []).joined(separator: "; "))
        return line(cells)
    }

    /// The cells as one line, CRLF at its end.
    static func line(_ cells: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for (i, cell) in cells.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += field(cell).utf8
        }
        out += [0x0D, 0x0A]
        return out
    }

    /// One field: guarded against formulas, then quoted when RFC 4180 asks.
    static func field(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
