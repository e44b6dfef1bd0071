/// The subcommands of `caption-assistant`, in one place: the parser's
/// dispatch, `--help`'s usage lines and "did you mean" all read this list.
///
/// A new subcommand is a new case here (its name is its raw value) plus its
/// branch in `CommandLineParser.parse`.
enum Subcommand: String, CaseIterable, Sendable {
    /// Process caption files (the default when no subcommand is named).
    case process
    /// Show whether a model is available, why not, and what to do.
    case check
    /// Write `report.json` from the report parts of a sharded run.
    case merge
    /// Write an HTML review of a batch's output folder under its `review/` folder.
    case review
    /// Print the help text (as `--help`).
    case help
    /// Print the version (as `--version`).
    case version

    /// Every subcommand's name, for messages and suggestions.
    static var names: [String] { allCases.map(\.rawValue) }
}
