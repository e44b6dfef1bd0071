/// Finds the name a mistyped word was probably meant to be, for "did you
/// mean …?" hints (as git and cargo give for unknown commands and options).
enum NearestName {
    /// The candidate closest to `word`, ignoring case, when it is close enough
    /// to be a likely typo: at most two edits for short names, a third of the
    /// name for longer ones, or `word` is the start of exactly one candidate
    /// (`--max-char` → `--max-characters`). nil when nothing is close.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let core = typed.drop { $0 == "-" }
        guard !core.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let d = distance(typed, Array(candidate.lowercased()))
            if let known = best, known.distance <= d { continue }
            best = (candidate, d)
        }
        if let best, best.distance <= max(2, best.name.count / 3), best.distance < typed.count {
            return best.name
        }
        if core.count >= 3 {
            let starts = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
            if starts.count == 1 { return starts[0] }
        }
        return nil
    }

    /// `; did you mean 'x'?` to append to a message, or an empty string when nothing is close.
    static func hint(for word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The Damerau–Levenshtein distance (optimal string alignment): insertions,
    /// deletions, substitutions and swaps of two neighbours count one each.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}
