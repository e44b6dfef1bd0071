import Captions
import Foundation

/// Which model backend the user asked for with `--model`.
public enum BackendChoice: String, Sendable, CaseIterable {
    /// Foundation Models where present, else HTTP if an endpoint is set, else none.
    case auto
    /// Apple's on-device model (unsupported on Linux).
    case foundation
    /// An OpenAI-compatible HTTP server.
    case http
    /// No model: every action disabled.
    case none
}

/// The options shared by `process` and `check`: which model, and how to reach it.
public struct ModelOptions: Sendable, Equatable {
    /// `-test-fake-assistant`: use the deterministic fake model.
    public var fake = false
    /// `-test-fake-assistant-fails` or `-test-fake-assistant-error MESSAGE` (hidden): a test model that always throws.
    public var failingFake = false
    /// The message `-test-fake-assistant-error` gives the failing test model.
    public var fakeError: String?
    /// `-test-fake-assistant-delay MS` (hidden): the fake waits this long before each answer, like a slow model.
    public var fakeDelayMilliseconds = 0
    /// `--model`.
    public var backend: BackendChoice = .auto
    /// `--endpoint URL`.
    public var endpoint: String?
    /// `--model-name NAME`.
    public var modelName: String?
    /// `--server-kind KIND`.
    public var serverKind: String?
    /// `--request-timeout SECONDS`.
    public var requestTimeout: Double?
    /// `--model-time-limit SECONDS`: the most model time per file, retries, pauses and repair included.
    public var modelTimeLimit: Double?
    /// `--simulate-availability REASON`, as typed (checked when the backend is built).
    public var simulatedAvailability: String?
    /// `--wait-for-model SECONDS`.
    public var waitForModel: Double?
    /// `--require-model`.
    public var requireModel = false

    /// Creates the defaults.
    public init() {}
}

/// Everything `caption-assistant process` was asked to do.
public struct ProcessOptions: Sendable, Equatable {
    /// The inputs as typed: files, folders, or `-` for standard input.
    public var inputs: [String] = []
    /// The output folder, or `-` for standard output.
    public var output: String = ""
    /// The model options.
    public var model = ModelOptions()
    /// `--max-characters N`: the transcript cap.
    public var maxCharacters = 3000
    /// `--jobs N`: files in flight at once.
    public var jobs: Int
    /// `--to FORMAT`: convert while writing.
    public var convertTo: CaptionFormat?
    /// `--quiet`: no progress line and no summary.
    public var quiet = false
    /// `--json`: a machine-readable summary on standard output.
    public var json = false
    /// `--resume`: skip files an earlier run already wrote completely with the same input and options.
    public var resume = false
    /// `--allow-empty`: finding no caption file is not an error (it still says so).
    public var allowEmpty = false
    /// `--shard INDEX/COUNT` or `--shard auto`: process only this shard's part of the plan.
    public var shard: ShardRequest?
    /// `--shard-count N`: the shard count for `--shard auto` where the engine gives only the index.
    public var shardCount: Int?

    /// Creates the defaults; `jobs` defaults to the number of active processor cores.
    public init(jobs: Int) { self.jobs = jobs }
}

/// Everything `caption-assistant check` was asked to do.
public struct CheckOptions: Sendable, Equatable {
    /// The model options.
    public var model = ModelOptions()
    /// `--json`: print the diagnostics as JSON.
    public var json = false

    /// Creates the defaults.
    public init() {}
}

/// What the command line asked for.
public enum Command: Sendable, Equatable {
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
public struct UsageError: Error, LocalizedError, Sendable, Equatable {
    /// What was wrong, in a sentence.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var errorDescription: String? { message }
}
