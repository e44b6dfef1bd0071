/// The one cap on a document's warnings: readers (and the decoder) report
/// every problem here, and only a bounded number is kept.
///
/// The first `perKind` warnings of each kind are kept, with their line
/// numbers, in the order they were reported. A kind is a message with its
/// numbers and quoted values set aside (`CaptionWarning.kind(of:)`): "cue
/// number 7 is not in sequence (expected 5)" and "cue number 9 is not in
/// sequence (expected 8)" are one kind. At most `limit` warnings are kept
/// in all, whatever their kinds (a file can make a kind per element or
/// attribute name). `finish` adds one line per kind that had more than
/// `perKind`, saying how many were left out, and one line for the warnings
/// left out by `limit`. So a hostile file (100,000 bad cues, a megabyte of
/// invalid text) gives a report of bounded size, and reading it keeps
/// bounded memory.
struct CaptionWarningLog {
    /// How many warnings of one kind are kept.
    static let perKind = 20
    /// How many warnings are kept in all.
    static let limit = 1000

    /// The warnings kept so far, in the order they were reported.
    private(set) var warnings: [CaptionWarning] = []
    /// For each kind seen (by its hash): how many came, and the first one's message.
    private var kinds: [UInt64: (count: Int, example: String)] = [:]
    /// The kinds in the order they were first seen.
    private var order: [UInt64] = []
    /// Warnings left out because `limit` were kept already.
    private var overLimit = 0

    init() {}

    /// Records a warning (kept while fewer than `perKind` of its kind, and fewer than `limit` in all, were).
    mutating func warn(_ line: Int?, _ message: String) {
        guard warnings.count < Self.limit else { overLimit += 1; return }
        let kind = CaptionWarning.kindHash(of: message)
        let count: Int
        if let seen = kinds[kind] {
            count = seen.count
            kinds[kind] = (count + 1, seen.example)
        } else {
            count = 0
            kinds[kind] = (1, message)
            order.append(kind)
        }
        if count < Self.perKind { warnings.append(CaptionWarning(line: line, message: message)) }
    }

    /// Records a warning that is never capped (one that sums up many cases
    /// itself); returns its index in `warnings`.
    @discardableResult
    mutating func append(_ warning: CaptionWarning) -> Int {
        warnings.append(warning)
        return warnings.count - 1
    }

    /// Replaces the message of the warning at `index` (one added by `append`
    /// whose count is known only at the end).
    mutating func replaceMessage(at index: Int, with message: String) {
        guard warnings.indices.contains(index) else { return }
        warnings[index].message = message
    }

    /// The warnings kept (in line order when `sortedByLine`, the order
    /// reported otherwise), then one line per kind that had more than
    /// `perKind` (in the order the kinds were first seen), then one for those
    /// left out by `limit`.
    func finish(sortedByLine: Bool = false) -> [CaptionWarning] {
        var all = warnings
        if sortedByLine {
            all = all.enumerated().sorted { a, b in
                let (la, lb) = (a.element.line ?? .max, b.element.line ?? .max)
                return la != lb ? la < lb : a.offset < b.offset
            }.map(\.element)
        }
        for kind in order {
            guard let seen = kinds[kind], seen.count > Self.perKind else { continue }
            all.append(CaptionWarning(line: nil, message: "\(seen.count - Self.perKind) more warnings like “\(seen.example)” were left out"))
        }
        if overLimit > 0 {
            all.append(CaptionWarning(line: nil, message: "\(overLimit) more warnings were left out (a document keeps at most \(Self.limit))"))
        }
        return all
    }
}
