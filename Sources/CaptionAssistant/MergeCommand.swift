import Assistant
import Foundation

/// Everything `caption-assistant merge` was asked to do.
public struct MergeOptions: Sendable, Equatable {
    /// The output folder the shards wrote into.
    public var output: String = ""
    /// `--keep-parts`: leave the shards' report parts in place after merging.
    public var keepParts = false
    /// `--quiet`: no summary.
    public var quiet = false
    /// `--json`: a machine-readable summary on standard output.
    public var json = false

    /// Creates the defaults.
    public init() {}
}

extension CaptionAssistantCommand.ExitStatus {
    /// `merge`: the parts disagree (different inputs, options or shard counts) or one is damaged (`EX_DATAERR`).
    public static let partsDisagree: Int32 = 65
    /// `merge`: some shards have no report part yet, or were stopped before the end (`EX_TEMPFAIL`: run them, then merge again).
    public static let shardsMissing: Int32 = 75
}

extension CommandLineParser {
    /// Parses `merge`'s arguments (after the word `merge`).
    static func parseMerge(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
        var options = MergeOptions()
        var folders: [String] = []
        var onlyFolders = false
        for arg in arguments {
            if onlyFolders || arg == "-" || !arg.hasPrefix("-") { folders.append(arg); continue }
            switch arg {
            case "--": onlyFolders = true
            case "--help", "-h": return .help
            case "--keep-parts": options.keepParts = true
            case "--quiet": options.quiet = true
            case "--json": options.json = true
            default: throw UsageError("unknown option '\(arg)' for 'merge' (it takes OUTPUT_DIR, --keep-parts, --quiet and --json)")
            }
        }
        guard folders.count == 1, let folder = folders.first, folder != "-", !folder.isEmpty else {
            throw UsageError("'merge' takes exactly one output folder, the one the shards wrote into (got \(folders.count))")
        }
        options.output = folder
        return .merge(options)
    }

    /// The checks `--shard` and `--shard-count` need once the rest is parsed.
    static func checkShardOptions(_ process: ProcessOptions, inputs: [String], output: String) throws(UsageError) {
        if process.shardCount != nil && process.shard == nil {
            throw UsageError("'--shard-count' goes with '--shard auto'; add --shard auto (or give --shard INDEX/COUNT)")
        }
        guard process.shard != nil else { return }
        if output == "-" { throw UsageError("'--shard' writes a report part into an output folder, so it cannot be used with '-o -'") }
        if inputs.contains("-") { throw UsageError("'--shard' cuts a plan of files that every shard can read, so standard input ('-') cannot be one of them") }
    }
}

extension CaptionAssistantCommand {
    /// The plan this process handles: all of `plan`, or with `--shard` its
    /// shard's run of items, with the report part that describes it.
    static func shardPlan(_ plan: InputPlan, options: ProcessOptions, settings: OutputSettings,
                          environment: [String: String]) throws(UsageError) -> (InputPlan, ReportPart?) {
        guard let request = options.shard else { return (plan, nil) }
        let shard = try request.resolve(shardCount: options.shardCount, environment: environment)
        let weights = plan.items.map(Shard.weight(of:))
        let range = Shard.ranges(weights: weights, count: shard.count)[shard.index]
        let part = ReportPart(shard: shard, plan: Shard.planFingerprint(plan, weights: weights, settings: settings),
                              planFiles: plan.items.count, first: range.lowerBound, files: range.count, settings: settings)
        // The shard keeps what the whole plan found (empty folders are said by every shard alike).
        var slice = plan
        slice.items = Array(plan.items[range])
        return (slice, part)
    }

    /// `caption-assistant merge OUT`.
    static func merge(_ options: MergeOptions) -> Int32 {
        let result: ReportMerge.Result
        do {
            result = try ReportMerge.merge(folder: options.output, keepParts: options.keepParts)
        } catch {
            printError("error: " + (error.errorDescription ?? "the merge failed"))
            let status: Int32
            switch error {
            case .noParts: status = ExitStatus.noInput
            case .incomplete: status = ExitStatus.shardsMissing
            case .mismatch, .damaged: status = ExitStatus.partsDisagree
            case .write: status = ExitStatus.cannotCreateOutput
            }
            if options.json {
                var pairs: [(String, JSONValue)] = [("report", .null), ("exitStatus", .int(Int(status)))]
                if case .incomplete(let count, let missing, let stopped) = error {
                    pairs = [("shards", .int(count)), ("missing", .array(missing.map { .int($0) })),
                             ("stopped", .array(stopped.map { .int($0) }))] + pairs
                }
                print(JSONValue.object(pairs).rendered(), terminator: "")
            }
            return status
        }
        let t = result.totals
        let status = result.missingInput ? ExitStatus.noInput : t.failed > 0 ? ExitStatus.someFileFailed : ExitStatus.success
        if !options.quiet {
            printError("merged \(result.shards) shard\(result.shards == 1 ? "" : "s"): \(t.files) file\(t.files == 1 ? "" : "s"): \(t.written) written, \(t.failed) failed; actions: \(t.applied) applied, \(t.actionsFailed) failed, \(t.disabled) disabled; report in \(options.output)/report.json")
        }
        if options.json {
            print(JSONValue.object([
                ("shards", .int(result.shards)), ("files", .int(t.files)), ("written", .int(t.written)), ("failed", .int(t.failed)),
                ("modelUnavailable", .int(t.unavailable)),
                ("actions", .object([("applied", .int(t.applied)), ("failed", .int(t.actionsFailed)), ("disabled", .int(t.disabled))])),
                ("report", .string(options.output + "/report.json")), ("exitStatus", .int(Int(status))),
            ]).rendered(), terminator: "")
        }
        return status
    }
}

extension CaptionAssistantCommand {
    /// `shard 1/4 (1250 of 5000 files, from file 1250): `.
    static func shardPrefix(_ part: ReportPart) -> String {
        "shard \(part.shard.index)/\(part.shard.count) (\(part.files) of \(part.planFiles) files, from file \(part.first)): "
    }

    /// The `--json` summary's `shard`: `{"index", "count", "files", "first", "planFiles"}`.
    static func shardJSON(_ part: ReportPart) -> JSONValue {
        .object([("index", .int(part.shard.index)), ("count", .int(part.shard.count)), ("files", .int(part.files)),
                 ("first", .int(part.first)), ("planFiles", .int(part.planFiles))])
    }
}
