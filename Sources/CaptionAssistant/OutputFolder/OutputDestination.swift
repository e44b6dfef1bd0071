/// Where a batch writes.
public enum OutputDestination: Sendable, Equatable {
    /// A folder: captions mirrored under it, sidecars beside them, `report.json` at the top.
    case folder(String)
    /// Standard output (`-o -`): the one caption file only; no report files.
    case standardOutput
}
