import JSON

/// One shard's part of `report.json`, written by `process --shard` into the
/// output folder as `report.shard-INDEX-of-COUNT.json`, and read back by `merge`.
///
/// A part is `report.json` for the shard's own files with a `shard` object
/// before `files`: which shard it is, the plan it was cut from (a fingerprint
/// of every input and the options), where its files start in the plan and how
/// many it has, and whether it ran to the end. Its entries are the very bytes
/// a single run's `report.json` holds for the same files, so merging them is
/// copying them in plan order.
///
/// Each shard writes only its own part: two shards never write one file, so
/// shards running at once share the output folder safely (every other file
/// is written by exactly one shard).
package struct ReportPart: Sendable, Equatable {
    /// Which shard.
    package var shard: Shard
    /// The fingerprint of the whole plan and the options (`Shard.planFingerprint`).
    package var plan: String
    /// Files in the whole plan.
    package var planFiles: Int
    /// The plan index of this shard's first file.
    package var first: Int
    /// This shard's files.
    package var files: Int
    /// The options that shape the outputs.
    package var settings: OutputSettings
    /// Whether the shard ran to the end (false: it was stopped, and some files are listed as not processed).
    package var complete = true
    /// Whether one of the shard's inputs does not exist (a single run exits 66 then, and so does `merge`).
    package var missingInput = false

    /// Creates a part's description.
    package init(shard: Shard, plan: String, planFiles: Int, first: Int, files: Int, settings: OutputSettings, complete: Bool = true,
                missingInput: Bool = false) {
        self.shard = shard; self.plan = plan; self.planFiles = planFiles; self.first = first; self.files = files
        self.settings = settings; self.complete = complete; self.missingInput = missingInput
    }

    /// The run this shard belongs to: its plan (inputs and options) and its
    /// shard count. Shards of one run share the output folder's lock; shards
    /// of another run are refused it (`FolderLock.shard`).
    package var run: String { plan + "/" + String(shard.count) }

    /// The part's file name in the output folder.
    package var name: String { Self.name(for: shard) }

    /// `report.shard-INDEX-of-COUNT.json`.
    package static func name(for shard: Shard) -> String { "report.shard-\(shard.index)-of-\(shard.count).json" }

    /// The shard a part's file name names, or nil when `name` is not a part's.
    static func shard(named name: String) -> Shard? {
        guard name.hasPrefix("report.shard-"), name.hasSuffix(".json") else { return nil }
        let middle = name.dropFirst("report.shard-".count).dropLast(".json".count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "of", parts[0].allSatisfy(\.isASCII), parts[2].allSatisfy(\.isASCII),
              let index = Int(parts[0]), let count = Int(parts[2]), count >= 1, index >= 0, index < count,
              String(index) == parts[0], String(count) == parts[2] else { return nil }
        return Shard(index: index, count: count)
    }
}

extension ReportPart: ReportObject {
    package static let blank = ReportPart(shard: Shard(index: 0, count: 1), plan: "", planFiles: 0, first: 0, files: 0,
                                          settings: .blank)

    /// A part's `shard` object: the one table of its keys.
    package static let keys: [ReportKey<ReportPart>] = [
        .value(.index, \.shard.index), .value(.count, \.shard.count), .value(.plan, \.plan), .value(.planFiles, \.planFiles),
        .value(.first, \.first), .value(.files, \.files), .value(.complete, \.complete), .value(.missingInput, \.missingInput),
        .value(.options, \.settings),
    ]

    /// A shard of a count from 1, whose files lie within the plan (checked without overflow).
    package func validated() throws(ReportError) {
        guard shard.count >= 1 else { throw ReportError("is not a shard count (it is less than 1)").under(.count) }
        guard shard.index < shard.count else { throw ReportError("is not below the shard count \(shard.count)").under(.index) }
        let (end, overflow) = first.addingReportingOverflow(files)
        guard !overflow, end <= planFiles else {
            throw ReportError("and first (\(first)) reach past the plan's \(planFiles) files").under(.files)
        }
    }
}

/// The summary's figures of a shard's run.
extension RunSummary.ShardFigures {
    /// The figures of `part`.
    package init(_ part: ReportPart) {
        self.init()
        index = part.shard.index; count = part.shard.count; files = part.files; first = part.first; planFiles = part.planFiles
    }
}
