import Assistant
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which part of the plan one process of an array job handles (`--shard`).
///
/// A shard is `index` of `count` (0-based). The plan is cut into `count`
/// runs of consecutive items (see `ranges(of:count:)`), so every machine that
/// sees the same inputs cuts it the same way, whatever order the shards start in.
package struct Shard: Sendable, Equatable {
    /// This shard, 0-based.
    package var index: Int
    /// How many shards the plan is cut into.
    package var count: Int

    /// The most shards a plan may be cut into.
    package static let maximumCount = 100_000
    /// The largest array task number read from the environment (Slurm's own
    /// limit, `MaxArraySize`, is 4,000,001): with it, no sum or difference of
    /// two of them can overflow.
    package static let maximumTaskNumber = Int(Int32.max)

    /// Creates a shard; `index` must lie in `0..<count`.
    package init(index: Int, count: Int) { self.index = index; self.count = count }

    /// What each file weighs on top of its size when the plan is balanced:
    /// a file costs a model call and a few file operations whatever its size.
    static let perFileWeight = 4096

    /// What `item` weighs in a run that calls a real model: `perFileWeight`,
    /// whatever its size. Each file is one model call of a transcript capped
    /// at `--max-characters`: seconds of model time, against the milliseconds
    /// our side spends reading even a file of a megabyte, so a large file is
    /// no more work than a small one, and the shards get equal counts of files
    /// (by bytes, 15 small files and one of 1 MB were cut 0, 1 and 15).
    static func modelCallWeight(of item: InputPlan.Item) -> Int { perFileWeight }

    /// The plan's items cut into `count` runs of consecutive items (some may
    /// be empty), balanced by input size: item `i` goes to the shard whose
    /// share of the total weight holds the middle of its own weight (its
    /// size in bytes plus `perFileWeight`). The runs
    /// are consecutive, so a merge only concatenates the shards' report parts.
    package static func ranges(of plan: InputPlan, count: Int) -> [Range<Int>] {
        ranges(weights: plan.items.map { weight(of: $0) }, count: count)
    }

    /// `ranges(of:count:)` for given weights.
    static func ranges(weights: [Int], count: Int) -> [Range<Int>] {
        let count = max(1, count)
        let total = weights.reduce(0, +)
        var bounds = [Int](repeating: weights.count, count: count + 1)
        bounds[0] = 0
        var before = 0, shard = 0
        for (i, w) in weights.enumerated() {
            // The shard holding the middle of this item: floor((2·before + w)·count / (2·total)).
            let middle = UInt64(2 * before + w)
            let (high, low) = middle.multipliedFullWidth(by: UInt64(count))
            let owner = total == 0 ? 0 : Int(UInt64(2 * total).dividingFullWidth((high, low)).quotient)
            while shard < min(owner, count - 1) {
                shard += 1
                bounds[shard] = i
            }
            before += w
        }
        return (0..<count).map { bounds[$0]..<bounds[$0 + 1] }
    }

    /// What `item` weighs: its size when it is a file that can be read, plus `perFileWeight`.
    ///
    /// The size counts up to `FileInput.maximumSize` (a larger file is not
    /// read at all), so a sparse file that says it holds exabytes cannot
    /// overflow the sums of `ranges(weights:count:)`: with every weight at
    /// most 2^30 + 4096, the doubled total fits an `Int` for any plan of
    /// fewer than 2^31 files.
    static func weight(of item: InputPlan.Item) -> Int {
        guard case .file(let path) = item.location else { return perFileWeight }
        var info = stat()
        guard stat(path, &info) == 0 else { return perFileWeight }
        return Int(clamping: min(max(0, Int64(info.st_size)), Int64(FileInput.maximumSize))) + perFileWeight
    }

    /// A fingerprint of the whole plan as this shard saw it: every item's
    /// input, output, kind and weight, and the options that shape the outputs.
    /// Shards of one batch have the same; `merge` refuses parts whose differ
    /// (the inputs changed between the shards, or the options did).
    static func planFingerprint(_ plan: InputPlan, weights: [Int], settings: OutputSettings) -> String {
        var hash = SHA256()
        var line: [UInt8] = []
        for (item, weight) in zip(plan.items, weights) {
            line.removeAll(keepingCapacity: true)
            line += Array(item.input.utf8); line.append(0)
            line += Array(item.output.utf8); line.append(0)
            switch item.location {
            case .file: line += Array("file".utf8)
            case .standardInput: line += Array("stdin".utf8)
            case .missing: line += Array("missing".utf8)
            case .refused(let reason): line += Array(("refused " + reason).utf8)
            }
            line.append(0)
            line += Array(String(weight).utf8)
            line.append(0x0A)
            hash.update(line)
        }
        hash.update(settings.json.renderedBytes())
        return hash.finalizeHex()
    }
}

/// `--shard` as given: a fixed `INDEX/COUNT`, or `auto` (from the array job's environment).
package enum ShardRequest: Sendable, Equatable {
    /// `--shard INDEX/COUNT`.
    case fixed(Shard)
    /// `--shard auto`.
    case auto

    /// The environment variable that gives the shard count to `--shard auto`
    /// on Kubernetes and AWS Batch (which tell a task its index, not the count).
    package static let countVariable = "CAPTION_ASSISTANT_SHARD_COUNT"

    /// Parses `INDEX/COUNT` or `auto`; `names` spells the settings errors name.
    package static func parse(_ text: String, names: SettingNames = .plain) throws(SettingsError) -> ShardRequest {
        if text == "auto" { return .auto }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let given: Advice = "'\(.shard, .literal(text))'"
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            let advice: Advice = "'\(.shard)' needs INDEX/COUNT (for example 0/4; INDEX counts from 0) or auto (got '\(text)')"
            throw SettingsError(advice.rendered(names))
        }
        let count = try CheckedNumber.whole(String(parts[1]), name: (given + ": COUNT").rendered(names), in: 1...Shard.maximumCount)
        let index = try CheckedNumber.whole(String(parts[0]), name: (given + ": INDEX (counted from 0)").rendered(names), in: 0...count - 1)
        return .fixed(try checked(index: index, count: count, from: given.rendered(names)))
    }

    /// The shard this process is, from `--shard` and, for `auto`, the
    /// environment of a Slurm job array task (`SLURM_ARRAY_TASK_ID`, `_MIN`,
    /// `_COUNT`), a Kubernetes Indexed Job pod (`JOB_COMPLETION_INDEX`) or an
    /// AWS Batch array child (`AWS_BATCH_JOB_ARRAY_INDEX`). For the last two
    /// the count comes from `shardCount` (`--shard-count`) or `countVariable`;
    /// `names` spells the settings errors name.
    package func resolve(shardCount: Int?, environment: [String: String], names: SettingNames = .plain) throws(SettingsError) -> Shard {
        switch self {
        case .fixed(let shard):
            if let shardCount, shardCount != shard.count {
                let advice: Advice = "'\(.shard, .literal("\(shard.index)/\(shard.count)"))' and '\(.shardCount, .literal(String(shardCount)))' disagree; give one of them"
                throw SettingsError(advice.rendered(names))
            }
            return shard
        case .auto:
            return try Self.fromEnvironment(shardCount: shardCount, environment: environment, names: names)
        }
    }

    private static func fromEnvironment(shardCount: Int?, environment env: [String: String], names: SettingNames) throws(SettingsError) -> Shard {
        let auto: Advice = "'\(.shard, .literal("auto"))'"
        func refused(_ advice: Advice) -> SettingsError { SettingsError(advice.rendered(names)) }
        /// The variable `name` (from 0 to `Shard.maximumTaskNumber`, or a count from 1 to `Shard.maximumCount`), nil when unset.
        func number(_ name: String, isCount: Bool = false) throws(SettingsError) -> Int? {
            guard let text = env[name] else { return nil }
            return try CheckedNumber.whole(text, name: (auto + ": \(name)").rendered(names),
                                           in: isCount ? 1...Shard.maximumCount : 0...Shard.maximumTaskNumber)
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            guard let low = try number("SLURM_ARRAY_TASK_MIN"), let count = try number("SLURM_ARRAY_TASK_COUNT", isCount: true) else {
                throw refused(auto + ": SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN or SLURM_ARRAY_TASK_COUNT is not; submit with sbatch --array")
            }
            if let high = try number("SLURM_ARRAY_TASK_MAX"), high - low + 1 != count {
                throw refused(auto + ": the Slurm array \(low)-\(high) has \(count) tasks, not one for each number; submit a range without steps or gaps, such as --array=0-\(count - 1)")
            }
            if let shardCount, shardCount != count {
                throw refused(auto + ": the Slurm array has \(count) tasks but '\(.shardCount, .literal(String(shardCount)))' was given")
            }
            return try checked(index: id - low, count: count, from: "the Slurm array task \(id) (from \(low))")
        }
        for (variable, engine) in [("JOB_COMPLETION_INDEX", "Kubernetes Indexed Job"), ("AWS_BATCH_JOB_ARRAY_INDEX", "AWS Batch array job")] {
            guard let index = try number(variable) else { continue }
            var count = shardCount
            if count == nil { count = try number(countVariable, isCount: true) }
            guard let count else {
                throw refused(auto + ": this is a \(engine) (\(variable)=\(index)), which does not say how many shards there are; add \(.shardCount, .placeholder) or set \(countVariable) (the job's completions or array size)")
            }
            return try checked(index: index, count: count, from: "\(variable)=\(index)")
        }
        throw refused(auto + " found no array job in the environment (SLURM_ARRAY_TASK_ID for Slurm, JOB_COMPLETION_INDEX for Kubernetes, AWS_BATCH_JOB_ARRAY_INDEX for AWS Batch); run it as an array task, or give \(.shard, .literal("INDEX/COUNT"))")
    }

    private static func checked(index: Int, count: Int, from source: String) throws(SettingsError) -> Shard {
        guard count >= 1, count <= Shard.maximumCount else {
            throw SettingsError("\(source): the shard count must be from 1 to \(Shard.maximumCount) (got \(count))")
        }
        guard index >= 0, index < count else {
            throw SettingsError("\(source): the shard index must be from 0 to \(count - 1) (got \(index)); INDEX counts from 0")
        }
        return Shard(index: index, count: count)
    }
}

extension InputPlan {
    /// The part of this plan that `request`'s shard handles, with the report
    /// part that describes it: a run of consecutive items (see
    /// `Shard.ranges(of:count:)`), weighed by expected work: `byModelCalls`
    /// (a run with a real model), every file alike (`Shard.modelCallWeight`);
    /// otherwise by size (`Shard.weight(of:)`). The shard keeps what the whole
    /// plan found (empty folders are said by every shard alike). `names`
    /// spells the settings errors name.
    package func shard(_ request: ShardRequest, shardCount: Int?, settings: OutputSettings, byModelCalls: Bool = false,
                       environment: [String: String], names: SettingNames = .plain) throws(SettingsError) -> (InputPlan, ReportPart) {
        let shard = try request.resolve(shardCount: shardCount, environment: environment, names: names)
        let weights = items.map(byModelCalls ? Shard.modelCallWeight(of:) : Shard.weight(of:))
        let range = Shard.ranges(weights: weights, count: shard.count)[shard.index]
        let part = ReportPart(shard: shard, plan: Shard.planFingerprint(self, weights: weights, settings: settings),
                              planFiles: items.count, first: range.lowerBound, files: range.count, settings: settings)
        var slice = self
        slice.items = Array(items[range])
        return (slice, part)
    }
}
