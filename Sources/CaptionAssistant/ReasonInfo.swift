import Assistant

/// What the report and `check` say about an unavailability reason.
///
/// The wording comes from `Diagnostics`, the one place with a switch over
/// reasons; this is only the shape the pipeline writes.
public struct ReasonInfo: Sendable, Equatable {
    /// The reason's machine name (`deviceNotEligible`, …).
    public var name: String
    /// The short reason row shown beside the disabled actions (never empty).
    public var row: String
    /// What the person can do about it.
    public var remedy: String
    /// `permanent`, `userFixable` or `temporary`.
    public var permanence: String
    /// Whether to point the person to Settings.
    public var offersSettings: Bool

    /// Creates a description.
    public init(name: String, row: String, remedy: String, permanence: String, offersSettings: Bool) {
        self.name = name; self.row = row; self.remedy = remedy; self.permanence = permanence
        self.offersSettings = offersSettings
    }
}
