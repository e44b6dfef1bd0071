/// Stable machine names for reasons, used in reports and by `--simulate-availability`.
extension UnavailableReason {
    /// The reason's stable name (`"deviceNotEligible"`, …, `"unknown"`), as written in reports.
    public var name: String { Diagnostics(self).name }

    /// Parses a reason's stable name; `unknown:message` gives `.unknown(message)`.
    ///
    /// Names are matched exactly (they are identifiers, not prose). Returns nil
    /// for anything else, so a command line can report the bad value.
    public init?(name: String) {
        if name == "unknown" {
            self = .unknown("")
            return
        }
        let unknownPrefix = "unknown:"
        if name.hasPrefix(unknownPrefix) {
            self = .unknown(String(name.dropFirst(unknownPrefix.count)))
            return
        }
        guard let match = Diagnostics.namedReasons.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// The names `init(name:)` accepts, for help text and error messages.
    public static var acceptedNames: [String] {
        Diagnostics.namedReasons.map(\.name) + ["unknown", "unknown:MESSAGE"]
    }
}
