import Assistant
import CaptionAssistant
import Captions
import Foundation

/// Everything `caption-assistant process` was asked to do.
struct ProcessOptions: Sendable, Equatable {
    /// The inputs as typed: files, folders, or `-` for standard input.
    var inputs: [String] = []
    /// The output folder, or `-` for standard output.
    var output: String = ""
    /// The model options.
    var model = ModelOptions()
    /// `--max-characters N`: the transcript cap.
    var maxCharacters = PromptBuilder.defaultMaxCharacters
    /// `--jobs N`: files in flight at once.
    var jobs: Int
    /// `--to FORMAT`: convert while writing.
    var convertTo: CaptionFormat?
    /// `--encoding keep|utf-8` and `--language TAG`: how outputs are written besides their edits.
    var writeOptions = WriteOptions()
    /// `--input-encoding NAME`: the encoding every input is read in, declared rather than detected.
    var inputEncoding: TextEncoding?
    /// `--actions LIST`: the actions asked for, in answer order.
    var actions = AssistantAction.allCases
    /// `--emphasis` and `--emphasis-per-cue`: which keyword occurrences are made bold.
    var emphasis = EmphasisDensity.all
    /// `--fallback local`: content from the transcript when no model answers.
    var fallback: FallbackKind?
    /// `--from FORMAT`: read every input as this format, whatever its extension or content.
    var readAs: CaptionFormat?
    /// `--quiet`: no progress line and no summary.
    var quiet = false
    /// `-v`: each file's titles and emoji as it finishes.
    var verbose = false
    /// `--json`: a machine-readable summary on standard output.
    var json = false
    /// `--report FILE`: the batch report also written there (the only one with `-o -`).
    var reportFile: String?
    /// `--resume`: skip files an earlier run already wrote completely with the same input and options.
    var resume = false
    /// `--allow-empty`: finding no caption file is not an error (it still says so).
    var allowEmpty = false
    /// `--replace-model-results`: an output an earlier run made with the model may be replaced by one made without.
    var replaceModelResults = false
    /// `--shard INDEX/COUNT` or `--shard auto`: process only this shard's part of the plan.
    var shard: ShardRequest?
    /// `--shard-count N`: the shard count for `--shard auto` where the engine gives only the index.
    var shardCount: Int?
    /// `-test-announce-stop`: say on standard error when the first signal is taken.
    var announceStop = false

    /// Creates the defaults; `jobs` defaults to the number of active processor cores.
    init(jobs: Int) { self.jobs = jobs }
}

/// Everything `caption-assistant check` was asked to do.
struct CheckOptions: Sendable, Equatable {
    /// The model options.
    var model = ModelOptions()
    /// `--json`: print the diagnostics as JSON.
    var json = false

    /// Creates the defaults.
    init() {}
}

/// What the command line asked for.
enum Command: Sendable, Equatable {
    /// Process caption files.
    case process(ProcessOptions)
    /// Show the model's availability.
    case check(CheckOptions)
    /// Merge the shards' report parts into `report.json`.
    case merge(MergeOptions)
    /// Write the HTML review of a batch's output folder.
    case review(ReviewOptions)
    /// Print the help text.
    case help
    /// Print the version.
    case version
}

/// A command line that cannot be run; exits 64 with this message.
struct UsageError: Error, LocalizedError, Sendable, Equatable {
    /// What was wrong, in a sentence.
    var message: String

    /// Creates an error.
    init(_ message: String) { self.message = message }

    /// The same message, for settings the library refused (an exit 64 like any other bad usage).
    init(_ refused: SettingsError) { self.message = refused.message }

    var errorDescription: String? { message }
}
