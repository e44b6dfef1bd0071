import Assistant
import JSON

/// A sidecar an earlier run left in the output folder, as read back.
enum SidecarRead {
    /// There is no regular file at its name (nothing, a link, a folder).
    case absent
    /// It is there but cannot be trusted: not JSON, not a report entry, or
    /// not as this tool writes one (the error names the file and the value).
    case damaged(ReportError)
    /// Its report, and the JSON it was read from.
    case read(FileReport, JSONValue)
}

extension OutputFolder {
    /// The largest sidecar read back (far larger than any sidecar this tool writes).
    static let sidecarLimit = 64 << 20

    /// Reads the sidecar of the output `output` strictly, through the
    /// report's one definition: a sidecar is trusted only when it is a
    /// complete report entry and prints back to exactly its own bytes
    /// (`--resume` and the keeping of earlier outputs both rely on that).
    func readSidecar(of output: String) -> SidecarRead {
        let name = OwnedNames.sidecar(of: output)
        guard regularFileStatus(name) != nil else { return .absent }
        guard let bytes = read(name, limit: Self.sidecarLimit) else {
            return .damaged(ReportError("cannot be read, or is larger than \(Self.sidecarLimit >> 20) MiB").inFile(name))
        }
        guard let json = JSONValue.parse(bytes) else { return .damaged(ReportError("is not JSON").inFile(name)) }
        let report: FileReport
        do { report = try FileReport(reportJSON: json) } catch { return .damaged(error.inFile(name)) }
        guard report.json.renderedBytes() == bytes else {
            return .damaged(ReportError("is not written as this tool writes a sidecar (it was edited or cut)").inFile(name))
        }
        return .read(report, json)
    }
}
