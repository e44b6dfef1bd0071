import Assistant
import CaptionAssistant
import Foundation

/// Everything `caption-assistant merge` was asked to do.
struct MergeOptions: Sendable, Equatable {
    /// The output folder the shards wrote into.
    var output: String = ""
    /// `--keep-parts`: leave the shards' report parts in place after merging.
    var keepParts = false
    /// `--quiet`: no summary.
    var quiet = false
    /// `--json`: a machine-readable summary on standard output.
    var json = false
}

extension CaptionAssistantCommand.ExitStatus {
    /// `merge`: the parts disagree (different inputs, options or shard counts) or one is damaged (`EX_DATAERR`).
    static let partsDisagree: Int32 = 65
    /// `merge`: some shards have no report part yet, or were stopped before the end (`EX_TEMPFAIL`: run them, then merge again).
    static let shardsMissing: Int32 = 75
}

extension CaptionAssistantCommand {
    /// `caption-assistant merge OUT`.
    static func merge(_ options: MergeOptions) -> Int32 {
        let result: ReportMerge.Result
        do {
            result = try ReportMerge.merge(folder: options.output, keepParts: options.keepParts)
        } catch {
            printError("error: " + error.message(CommandOption.settingNames))
            let status: Int32
            switch error {
            case .noParts: status = ExitStatus.noInput
            case .incomplete: status = ExitStatus.shardsMissing
            case .mismatch, .damaged: status = ExitStatus.partsDisagree
            case .write: status = ExitStatus.cannotCreateOutput
            }
            if options.json {
                var summary = RunSummary(notMerged: Int(status))
                if case .incomplete(let count, let missing, let stopped) = error {
                    summary = RunSummary(notMerged: Int(status), shards: count, missing: missing, stopped: stopped)
                }
                print(summary.json.rendered(), terminator: "")
            }
            return status
        }
        let t = result.totals
        let status = result.missingInput ? ExitStatus.noInput : t.failed > 0 ? ExitStatus.someFileFailed : ExitStatus.success
        // The folder's review is made again from the merged report (see ReviewSite.refresh).
        let review = ReviewSite.refresh(outputFolder: options.output, jobs: ProcessInfo.processInfo.activeProcessorCount)
        if let warning = reviewWarning(review, folder: options.output) { printError(warning) }
        if !options.quiet {
            printError("merged \(result.shards) shard\(result.shards == 1 ? "" : "s"): \(t.files) file\(t.files == 1 ? "" : "s"): \(t.written) written, \(t.failed) failed; actions: \(t.actions.summary); report in \(options.output)/report.json" + reviewNote(review))
        }
        if options.json {
            var json = RunSummary(merged: result.shards, totals: t, report: options.output + "/report.json", exitStatus: Int(status))
            if case .rebuilt(let made) = review { json.index = made.index }
            print(json.json.rendered(), terminator: "")
        }
        return status
    }
}

extension CaptionAssistantCommand {
    /// `shard 1/4 (1250 of 5000 files, from file 1250): `.
    static func shardPrefix(_ part: ReportPart) -> String {
        "shard \(part.shard.index)/\(part.shard.count) (\(part.files) of \(part.planFiles) files, from file \(part.first)): "
    }
}
