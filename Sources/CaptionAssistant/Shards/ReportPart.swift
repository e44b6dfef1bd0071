import Assistant
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

    /// The `shard` object.
    package var json: JSONValue {
        .object([
            ("index", .int(shard.index)), ("count", .int(shard.count)), ("plan", .string(plan)), ("planFiles", .int(planFiles)),
            ("first", .int(first)), ("files", .int(files)), ("complete", .bool(complete)), ("missingInput", .bool(missingInput)),
            ("options", settings.json),
        ])
    }

    /// Reads the `shard` object back; nil when it is not what `json` writes.
    init?(json: JSONValue) {
        guard case .int(let index)? = json["index"], case .int(let count)? = json["count"], case .string(let plan)? = json["plan"],
              case .int(let planFiles)? = json["planFiles"], case .int(let first)? = json["first"],
              case .int(let files)? = json["files"], case .bool(let complete)? = json["complete"],
              case .bool(let missingInput)? = json["missingInput"],
              let options = json["options"], let settings = OutputSettings(json: options),
              count >= 1, index >= 0, index < count, first >= 0, files >= 0, planFiles >= 0 else { return nil }
        self.init(shard: Shard(index: index, count: count), plan: plan, planFiles: planFiles, first: first, files: files,
                  settings: settings, complete: complete, missingInput: missingInput)
    }

    /// What comes before `files` in the part: `report.json`'s opening with the `shard` object.
    static let headerStart = Array("{\n  \"schemaVersion\": 1,\n  \"shard\": ".utf8)
    /// What ends the header and opens the entries.
    static let filesStart = Array(",\n  \"files\": [".utf8)

    /// The part's opening, up to and including `"files": [`.
    func opening() -> [UInt8] {
        var out = Self.headerStart
        json.write(to: &out, indent: 2)
        out += Self.filesStart
        return out
    }
}

extension BatchReport.Totals {
    /// Adds another batch's totals to these.
    mutating func add(_ other: BatchReport.Totals) {
        files += other.files; written += other.written; failed += other.failed; notProcessed += other.notProcessed
        unavailable += other.unavailable
        applied += other.applied; actionsFailed += other.actionsFailed; disabled += other.disabled
        cues += other.cues; keywordOccurrences += other.keywordOccurrences; warnings += other.warnings
    }

    /// Reads `totals` back from a report; nil when it is not what `json` writes.
    init?(json: JSONValue) {
        guard case .int(let files)? = json["files"], case .int(let written)? = json["written"], case .int(let failed)? = json["failed"],
              case .int(let notProcessed)? = json["notProcessed"],
              case .int(let unavailable)? = json["modelUnavailable"], let actions = json["actions"],
              case .int(let applied)? = actions["applied"], case .int(let actionsFailed)? = actions["failed"],
              case .int(let disabled)? = actions["disabled"], case .int(let cues)? = json["cues"],
              case .int(let occurrences)? = json["keywordOccurrences"], case .int(let warnings)? = json["warnings"] else { return nil }
        self.init()
        self.files = files; self.written = written; self.failed = failed; self.notProcessed = notProcessed
        self.unavailable = unavailable
        self.applied = applied; self.actionsFailed = actionsFailed; self.disabled = disabled
        self.cues = cues; self.keywordOccurrences = occurrences; self.warnings = warnings
        guard self.json == json else { return nil }
    }
}
