import Foundation
import Testing
@testable import CaptionAssistant

/// `--shard`: how the plan is cut, and where `--shard auto` finds its shard.
@Suite struct ShardTests {
    @Test func rangesCoverThePlanInOrderWithoutOverlap() {
        for count in 1...9 {
            let weights = (0..<23).map { 4096 + ($0 * 7919) % 50_000 }
            let ranges = Shard.ranges(weights: weights, count: count)
            #expect(ranges.count == count)
            #expect(ranges.first?.lowerBound == 0)
            #expect(ranges.last?.upperBound == weights.count)
            for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        }
    }

    @Test func rangesAreBalancedByWeightNotByCount() {
        // One large file and many small: the large one is a shard of its own.
        let weights = [1000] + [Int](repeating: 10, count: 100)
        let ranges = Shard.ranges(weights: weights, count: 2)
        #expect(ranges == [0..<1, 1..<101])
        // Equal weights: equal counts.
        #expect(Shard.ranges(weights: [Int](repeating: 5, count: 12), count: 4) == [0..<3, 3..<6, 6..<9, 9..<12])
        // Each shard's weight is within one file of its share.
        let mixed = (0..<1000).map { 4096 + ($0 * 104_729) % 200_000 }
        let total = mixed.reduce(0, +), largest = mixed.max() ?? 0
        for range in Shard.ranges(weights: mixed, count: 7) {
            let weight = mixed[range].reduce(0, +)
            #expect(abs(weight - total / 7) <= largest, "\(range): \(weight) against a share of \(total / 7)")
        }
    }

    @Test func moreShardsThanFilesLeavesSomeEmpty() {
        let ranges = Shard.ranges(weights: [1, 1], count: 5)
        #expect(ranges.map(\.count).reduce(0, +) == 2)
        #expect(ranges.filter { !$0.isEmpty }.count == 2)
        #expect(Shard.ranges(weights: [], count: 3) == [0..<0, 0..<0, 0..<0])
    }

    @Test func fixedShardsParseAndAreChecked() throws {
        #expect(try ShardRequest.parse("0/4") == .fixed(Shard(index: 0, count: 4)))
        #expect(try ShardRequest.parse("3/4") == .fixed(Shard(index: 3, count: 4)))
        #expect(try ShardRequest.parse("auto") == .auto)
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/4/2", "", "1/200000"] {
            #expect(throws: SettingsError.self, "\(bad)") { try ShardRequest.parse(bad) }
        }
    }

    /// Numbers past any array job (Int.max, past Int, negative, not decimal) in
    /// every variable `--shard auto` reads are refused by name; Int.max in
    /// SLURM_ARRAY_TASK_MAX used to trap on `high - low + 1` (exit 132).
    @Test(arguments: ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT",
                      "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", ShardRequest.countVariable])
    func everyArrayVariableOutOfRangeIsRefusedByName(_ variable: String) {
        let slurm = ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"]
        let base = variable.hasPrefix("SLURM") ? slurm
            : variable == ShardRequest.countVariable ? ["JOB_COMPLETION_INDEX": "1"] : [:]
        for value in ["9223372036854775807", "-9223372036854775808", "99999999999999999999", "-1", "2147483648", "1e3", "0x10", "\u{663}", ""] {
            var env = base
            env[variable] = value
            let error = #expect(throws: SettingsError.self, "\(variable)=\(value)") {
                try ShardRequest.auto.resolve(shardCount: nil, environment: env)
            }
            #expect(error?.message.contains("\(variable) ") == true, "\(variable)=\(value): \(error?.message ?? "")")
        }
    }

    /// `--shard INDEX/COUNT` with numbers past Int or past the count: refused, saying which.
    @Test func fixedShardNumbersPastIntAreRefusedByName() {
        for (text, says) in [("99999999999999999999/2", "INDEX (counted from 0) is too big: at most 1"),
                             ("9223372036854775807/9223372036854775807", "COUNT is too big: at most 100000"),
                             ("0/-9223372036854775808", "COUNT needs a whole number of at least 1"),
                             ("5/3", "INDEX (counted from 0) is too big: at most 2")] {
            let error = #expect(throws: SettingsError.self, "\(text)") { try ShardRequest.parse(text) }
            #expect(error?.message.contains(says) == true, "\(text): \(error?.message ?? "")")
        }
    }

    /// A sparse file that says it holds terabytes weighs what the largest
    /// file read does, so the plan's sums stay far from overflowing.
    @Test func aSparseFileOfTerabytesWeighsAtMostTheLargestRead() throws {
        let dir = try TemporaryFolder()
        let path = dir.path + "/huge.srt"
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        #expect(fd >= 0)
        let sized = ftruncate(fd, 1 << 42) == 0
        close(fd)
        try #require(sized, "the file system cannot hold a sparse file of 4 TiB")
        let item = InputPlan.Item(input: path, location: .file(path), output: "huge.srt", hint: .srt)
        #expect(Shard.weight(of: item) == FileInput.maximumSize + Shard.perFileWeight)
        let weights = [Int](repeating: Shard.weight(of: item), count: 1000)
        #expect(Shard.ranges(weights: weights, count: 7).map(\.count).reduce(0, +) == 1000)
    }

    /// With a real model a file costs one model call whatever its size (the
    /// transcript is capped), so 15 small files and one of 1 MB are cut by
    /// count; without one (`--model none`) they are cut by bytes, as before.
    @Test func aModelRunIsCutByFilesAndARunWithoutOneByBytes() throws {
        let dir = try TemporaryFolder()
        let cue = "1\n00:00:01,000 --> 00:00:02,000\nA short line of captions.\n\n"
        try dir.write("in/a-large.srt", String(repeating: cue, count: 1_000_000 / cue.utf8.count))
        for i in 1...15 { try dir.write("in/small\(String(format: "%02d", i)).srt", cue) }
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        try #require(plan.items.count == 16)
        func counts(byModelCalls: Bool) throws -> [Int] {
            try (0..<3).map { index in
                try plan.shard(.fixed(Shard(index: index, count: 3)), shardCount: nil, settings: .blank,
                               byModelCalls: byModelCalls, environment: [:]).0.items.count
            }
        }
        #expect(try counts(byModelCalls: true) == [5, 6, 5])
        #expect(try counts(byModelCalls: false) == [0, 1, 15])
    }

    @Test func autoReadsASlurmArrayTask() throws {
        let env = ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_COUNT": "4"]
        #expect(try ShardRequest.auto.resolve(shardCount: nil, environment: env) == Shard(index: 2, count: 4))
        var stepped = env
        stepped["SLURM_ARRAY_TASK_MAX"] = "11"  // --array=5-11:2
        #expect(throws: SettingsError.self) { try ShardRequest.auto.resolve(shardCount: nil, environment: stepped) }
        #expect(throws: SettingsError.self) { try ShardRequest.auto.resolve(shardCount: 3, environment: env) }
        #expect(throws: SettingsError.self) { try ShardRequest.auto.resolve(shardCount: nil, environment: ["SLURM_ARRAY_TASK_ID": "1"]) }
    }

    @Test func autoReadsAKubernetesIndexWithACount() throws {
        let env = ["JOB_COMPLETION_INDEX": "3"]
        #expect(try ShardRequest.auto.resolve(shardCount: 4, environment: env) == Shard(index: 3, count: 4))
        #expect(try ShardRequest.auto.resolve(shardCount: nil, environment: env.merging([ShardRequest.countVariable: "5"]) { a, _ in a })
                == Shard(index: 3, count: 5))
        let error = #expect(throws: SettingsError.self) { try ShardRequest.auto.resolve(shardCount: nil, environment: env) }
        #expect(error?.message.contains("`shardCount`") == true)
        #expect(throws: SettingsError.self) { try ShardRequest.auto.resolve(shardCount: 3, environment: env) }  // index 3 of 3
    }

    @Test func autoReadsAnAWSBatchArrayIndex() throws {
        #expect(try ShardRequest.auto.resolve(shardCount: 2, environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "1"]) == Shard(index: 1, count: 2))
    }

    @Test func autoWithoutAnArrayJobSaysSo() {
        let error = #expect(throws: SettingsError.self) { try ShardRequest.auto.resolve(shardCount: 4, environment: ["HOME": "/root"]) }
        #expect(error?.message.contains("found no array job") == true)
    }

    @Test func partNamesReadBack() {
        let shard = Shard(index: 12, count: 40)
        #expect(ReportPart.name(for: shard) == "report.shard-12-of-40.json")
        #expect(ReportPart.shard(named: "report.shard-12-of-40.json") == shard)
        for other in ["report.json", "report.shard-4-of-4.json", "report.shard-01-of-4.json", "report.shard-1-of-4.json.tmp", "x.srt"] {
            #expect(ReportPart.shard(named: other) == nil, "\(other)")
        }
    }

    @Test func totalsReadBackFromTheirJSON() throws {
        var totals = BatchReport.Totals()
        totals.files = 5; totals.written = 4; totals.failed = 1; totals.modelUnavailable = 2; totals.actions.applied = 9
        totals.actions.failed = 3; totals.actions.disabled = 6; totals.cues = 77; totals.keywordOccurrences = 12; totals.warnings = 2
        #expect(try BatchReport.Totals(reportJSON: totals.reportJSON) == totals)
        var cost = totals
        cost.cost = ReportCost()
        cost.cost?.requests = 3
        cost.cost?.milliseconds = 1500
        #expect(try BatchReport.Totals(reportJSON: cost.reportJSON) == cost)
    }
}
