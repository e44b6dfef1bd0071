import Assistant
import Foundation

/// Everything `caption-assistant review` was asked to do.
public struct ReviewOptions: Sendable, Equatable {
    /// The output folder of a batch (the one given to `process -o`).
    public var folder: String = ""
    /// `--quiet`: no summary line.
    public var quiet = false
    /// `--json`: a machine-readable summary on standard output.
    public var json = false
    /// `--jobs N`: pages made at once; nil: the number of processor cores.
    public var jobs: Int?

    /// Creates the defaults.
    public init() {}
}

extension CommandLineParser {
    /// Parses the arguments after `review`: one folder, `--jobs N`, `--quiet`, `--json`, `--help`.
    static func parseReview(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var options = ReviewOptions()
        var folders: [String] = []
        var onlyFolders = false
        var args = arguments
        while let arg = args.first {
            args = args.dropFirst()
            if onlyFolders || arg == "-" || !arg.hasPrefix("-") {
                folders.append(arg)
                continue
            }
            switch arg {
            case "--": onlyFolders = true
            case "--help", "-h": return .help
            case "--quiet": options.quiet = true
            case "--json": options.json = true
            case "--jobs":
                guard let v = args.first else { throw UsageError("'--jobs' needs a value") }
                args = args.dropFirst()
                guard let n = Int(v), n >= 1, n <= 1024 else { throw UsageError("'--jobs' needs a whole number from 1 to 1024 (got '\(v)')") }
                options.jobs = n
            default:
                throw UsageError("'review' takes an output folder and --jobs N, --quiet or --json (unknown option '\(arg)')")
            }
        }
        guard let folder = folders.first, !folder.isEmpty else {
            throw UsageError("'review' needs the output folder of a batch: caption-assistant review OUTPUT_DIR")
        }
        guard folders.count == 1 else { throw UsageError("'review' takes one output folder (got \(folders.count))") }
        guard folder != "-" else { throw UsageError("'review' reads an output folder, not standard input") }
        options.folder = folder
        return .review(options)
    }
}

extension CaptionAssistantCommand {
    /// `EX_DATAERR`: `report.json` is not a report this review can read.
    static let reportUnreadable: Int32 = 65

    /// Runs `review`: writes the site and says where it is.
    static func review(_ options: ReviewOptions) -> Int32 {
        let result: ReviewSite.Result
        do {
            result = try ReviewSite.build(outputFolder: options.folder,
                                          jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        } catch {
            printError("error: " + error.message)
            switch error.kind {
            case .missing: return ExitStatus.noInput
            case .unreadable: return reportUnreadable
            case .cannotWrite: return ExitStatus.cannotCreateOutput
            }
        }
        if !options.quiet {
            printError("review of \(result.files) file\(result.files == 1 ? "" : "s") written: \(result.index) (\(result.indexPages) index page\(result.indexPages == 1 ? "" : "s"), one page per file in \(options.folder)/review/files)")
        }
        if options.json {
            print(JSONValue.object([("files", .int(result.files)), ("indexPages", .int(result.indexPages)),
                                    ("index", .string(result.index))]).rendered(), terminator: "")
        }
        return ExitStatus.success
    }
}
