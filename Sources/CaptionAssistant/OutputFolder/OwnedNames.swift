/// Every name this tool owns in an output folder, in one list: a caption is
/// never written under one of them (the plan refuses such an input with its
/// own error), so no caption is overwritten by the tool's own files, read as
/// one of them, or removed with them.
///
/// - `report.json` (the batch report) at the top;
/// - the report parts of a sharded run at the top, `report.shard-INDEX-of-COUNT.json`
///   (`ReportPart`), which `merge` reads and removes;
/// - `review/` at the top, where `review` writes its pages (and removes old ones);
/// - every sidecar: a name that ends in `.assistant.json`, in any folder
///   (a caption so named would be taken for the sidecar of another);
/// - the temporary files of atomic writes (`AtomicFileWriter.temporaryName`),
///   which a later `--resume` removes, in any folder;
/// - the probe made when the folder is opened (`.caption-assistant-…`) at the top.
///
/// Names are compared ignoring ASCII case: on a file system that ignores case
/// (macOS's, by default), `Report.json` is `report.json`.
enum OwnedNames {
    /// The batch report, at the top of the output folder.
    static let batchReport = "report.json"
    /// What a caption's output name gets for its sidecar.
    static let sidecarSuffix = ".assistant.json"
    /// The folder `review` writes into, at the top of the output folder.
    static let reviewFolder = "review"
    /// How the names of the files made to probe the folder start.
    static let probePrefix = ".caption-assistant-"

    /// The sidecar of the output `output`.
    static func sidecar(of output: String) -> String { output + sidecarSuffix }

    /// Why the output path `output` (relative to the output folder) would
    /// take a name the tool owns, as an input's error; nil when it does not.
    static func reservation(of output: String) -> String? {
        isOrdinaryASCII(output) ? nil : checkedReservation(of: output)
    }

    /// `reservation(of:)`, every name looked at in full.
    static func checkedReservation(of output: String) -> String? {
        // Cut at `/` bytes, as the output folder cuts it (`OutputFolder.safeParts`): `/` and a combining mark are one `Character`.
        let parts = output.utf8.split(separator: 0x2F, omittingEmptySubsequences: false).map { Substring($0) }
        guard let first = parts.first, let last = parts.last else { return nil }
        let name = String(last).lowercased(), top = parts.count == 1
        let why: String
        if top && name == batchReport {
            why = "the batch report \(batchReport)"
        } else if top, ReportPart.shard(named: name) != nil {
            why = "a report part of a sharded run (\(String(last))), which merge reads and then removes"
        } else if String(first).lowercased() == reviewFolder {
            why = "the review's folder \(reviewFolder)/, which review writes"
        } else if name.hasSuffix(sidecarSuffix) {
            why = "a sidecar report (a name that ends in \(sidecarSuffix))"
        } else if AtomicFileWriter.temporaryNamePID(String(last)) != nil {
            why = "one of this tool's temporary files, which later runs remove"
        } else if top && name.hasPrefix(probePrefix) {
            why = "one of this tool's probe files"
        } else {
            return nil
        }
        return "its output \(output) would take the name of \(why), a name this tool keeps for its own files in the output folder; rename the file"
    }

    /// How the batch report's name and every report part's start (`report.json`, `report.shard-…`).
    static let reportNamesStart = "report."

    /// Whether the ASCII path `output` is none of the names, told from its
    /// bytes without the checks `reservation(of:)` makes (the common case,
    /// asked for every file of a batch): every name the tool owns is, in its
    /// last part, `reportNamesStart…`, `.…` (a temporary file, a probe) or
    /// `…sidecarSuffix`, or `reviewFolder` as its first part, ignoring ASCII
    /// case. False (not known) for a path with other bytes, which
    /// `reservation(of:)` then looks at.
    static func isOrdinaryASCII(_ output: String) -> Bool {
        var output = output
        return output.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            let firstEnd = bytes.firstIndex(of: 0x2F) ?? bytes.count
            let lastStart = bytes.lastIndex(of: 0x2F).map { $0 + 1 } ?? 0
            /// Whether the bytes `part` start (or, `atEnd`, end) with the lower-case `word`, ignoring ASCII case.
            func has(_ word: String, in part: Range<Int>, atEnd: Bool = false) -> Bool {
                let count = word.utf8.count
                guard part.count >= count else { return false }
                let start = atEnd ? part.upperBound - count : part.lowerBound
                return zip(bytes[start..<start + count], word.utf8).allSatisfy { byte, lower in
                    (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == lower
                }
            }
            if firstEnd == reviewFolder.utf8.count && has(reviewFolder, in: 0..<firstEnd) { return false }
            let last = lastStart..<bytes.count
            if last.first.map({ bytes[$0] == 0x2E }) ?? false { return false }
            return !has(reportNamesStart, in: last) && !has(sidecarSuffix, in: last, atEnd: true)
        }
    }
}
