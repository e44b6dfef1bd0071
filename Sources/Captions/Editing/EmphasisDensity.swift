/// How many of the keyword occurrences that emphasis finds are made bold.
///
/// Emphasis finds every whole-word occurrence (`KeywordEmphasis`); the
/// density then selects among them, in file order (cue by cue, left to right
/// in each), without changing how words are matched:
///
/// - `all`: every occurrence (the default);
/// - `firstInCue`: each keyword's first occurrence in each cue;
/// - `first`: each keyword's first occurrence in the file;
///
/// and, with `perCue`, at most that many occurrences in any one cue (the
/// first ones the mode keeps). An occurrence not selected is left plain, and
/// counted as left (`KeywordEmphasis.Result.left`).
public struct EmphasisDensity: Sendable, Hashable {
    /// Which occurrences of each keyword are emphasised.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Every occurrence.
        case all
        /// The first occurrence of each keyword in each cue.
        case firstInCue = "first-in-cue"
        /// The first occurrence of each keyword in the file.
        case first
    }

    /// Which occurrences of each keyword.
    public var mode: Mode
    /// The most occurrences emphasised in one cue (from 1); nil: no cap.
    public var perCue: Int?

    /// Creates a density; the default emphasises every occurrence.
    public init(mode: Mode = .all, perCue: Int? = nil) {
        self.mode = mode
        self.perCue = perCue.map { max($0, 1) }
    }

    /// Every occurrence, as without a density.
    public static let all = EmphasisDensity()

    /// Whether every occurrence is emphasised (nothing can be left).
    public var keepsEverything: Bool { mode == .all && perCue == nil }

    /// The selection over one pass of occurrences, in file order.
    struct Selection {
        let density: EmphasisDensity
        /// The keywords emphasised so far in the file (`first`) or in the current cue (`firstInCue`).
        private var seen: Set<Int> = []
        /// The cue the occurrences now come from, and how many of them were kept.
        private var cue = -1
        private var keptInCue = 0

        init(_ density: EmphasisDensity) { self.density = density }

        /// Whether the occurrence of `keyword` found next, in cue `cueIndex`, is emphasised.
        mutating func keeps(keyword: Int, cue cueIndex: Int) -> Bool {
            if cueIndex != cue {
                cue = cueIndex
                keptInCue = 0
                if density.mode == .firstInCue { seen.removeAll(keepingCapacity: true) }
            }
            if let cap = density.perCue, keptInCue >= cap { return false }
            if density.mode != .all, seen.contains(keyword) { return false }
            if density.mode != .all { seen.insert(keyword) }
            keptInCue += 1
            return true
        }
    }
}
