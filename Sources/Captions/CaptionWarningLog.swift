/// A reader's warnings, capped per kind: the first `perKind` of each kind are
/// kept with their line numbers, and `finish()` adds one line per kind that
/// had more, saying how many were left out.
struct CaptionWarningLog {
    /// How many warnings of one kind are kept.
    let perKind: Int
    /// The warnings kept so far, in the order they were reported.
    private(set) var warnings: [CaptionWarning] = []
    private var counts: [String: Int] = [:]

    init(perKind: Int) { self.perKind = perKind }

    /// Records a warning of `kind` (kept only while fewer than `perKind` of that kind were).
    mutating func warn(_ line: Int?, _ kind: String, _ message: String) {
        let count = counts[kind, default: 0]
        counts[kind] = count + 1
        if count < perKind { warnings.append(CaptionWarning(line: line, message: message)) }
    }

    /// Records a warning that is never capped (one that sums up many cases itself).
    mutating func append(_ warning: CaptionWarning) { warnings.append(warning) }

    /// The warnings, followed by one line per kind that had more than `perKind` (kinds in alphabetical order).
    func finish() -> [CaptionWarning] {
        var all = warnings
        for (kind, count) in counts.sorted(by: { $0.key < $1.key }) where count > perKind {
            all.append(CaptionWarning(line: nil, message: "\(count - perKind) more warnings like the ones about \(kind) were left out"))
        }
        return all
    }
}
