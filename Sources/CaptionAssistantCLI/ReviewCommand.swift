import Assistant
import CaptionAssistant
import Foundation

/// Everything `caption-assistant review` was asked to do.
struct ReviewOptions: Sendable, Equatable {
    /// The output folder of a batch (the one given to `process -o`).
    var folder: String = ""
    /// `--quiet`: no summary line.
    var quiet = false
    /// `--json`: a machine-readable summary on standard output.
    var json = false
    /// `--jobs N`: pages made at once; nil: the number of processor cores.
    var jobs: Int?
}

extension CaptionAssistantCommand {
    /// `EX_DATAERR`: `report.json` is not a report this review can read.
    static let reportUnreadable: Int32 = 65

    /// Runs `review`: writes the site and says where it is.
    static func review(_ options: ReviewOptions) -> Int32 {
        let result: ReviewSite.Result
        do {
            result = try ReviewSite.build(outputFolder: options.folder,
                                          jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                          names: CommandOption.settingNames)
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
            print(RunSummary(reviewed: result.files, indexPages: result.indexPages, index: result.index).json.rendered(), terminator: "")
        }
        return ExitStatus.success
    }
}
