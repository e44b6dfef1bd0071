import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant
import JSON

/// The report is one typed format: every reader (strict: `--resume` and
/// `merge`; lenient: `review`) gives back every field the writer wrote, and
/// numbers read from a report are checked, never trapped on.
@Suite struct ReportFormatTests {
    /// A report with every field there is set: converted, with losses and
    /// warnings (with and without a line), a transcript, an unavailable model
    /// with its cost, and each action with every field an action has.
    static let full: FileReport = {
        let unavailable = ModelUnavailability(reason: "modelMissing", remedy: "Load it.", permanence: .userFixable, offersSettings: true)
        var cost = ReportCost()
        cost.requests = 3; cost.promptTokens = 1200; cost.completionTokens = 90; cost.milliseconds = 1500
        var actions = AssistantAction.allCases.map { ActionReport(id: $0, state: .applied, reason: "why \($0.reportName)") }
        for i in actions.indices {
            actions[i].keywords = ["rocket", "é\"q\""]
            actions[i].occurrences = 7
            actions[i].dropped = [DroppedKeyword(keyword: "moon", reason: "not in the transcript")]
            actions[i].titles = ["One", "Two", "Three"]
            actions[i].emoji = "🚀"
            actions[i].cue = 4
            actions[i].repaired = true
            actions[i].source = .fallback
            actions[i].occurrencesLeft = 5
        }
        actions[1].state = .failed
        actions[2].state = .notRequested
        return FileReport(
            input: "in/s1/ep\u{2028}1.srt", output: "s1/ep1.vtt", format: .srt, convertedTo: .vtt, cues: 12,
            warnings: [CaptionWarning(line: 3, message: "missing cue number"), CaptionWarning(line: nil, message: "model said\tso")],
            losses: ["the {\\an8} position"], transcript: TranscriptStats(characters: 5120, sentCharacters: 3000, truncated: true),
            model: FileReport.Model(backend: "http", availability: .unavailable(unavailable), cost: cost),
            actions: actions, reasonRow: "The server does not offer the requested model", error: "HTTP 404",
            fingerprint: OutputFingerprint(inputSHA256: String(repeating: "a", count: 64), outputSHA256: String(repeating: "0", count: 64),
                                           settings: OutputSettings(backend: "http", model: "smollm2", endpoint: "http://127.0.0.1:8080",
                                                                    serverKind: "llama-cpp", simulatedAvailability: "modelMissing",
                                                                    maxCharacters: 200, convertTo: .vtt,
                                                                    writeOptions: WriteOptions(encoding: .utf8, language: "en-GB"),
                                                                    actions: [.keywords, .emoji], emphasis: EmphasisDensity(mode: .firstInCue, perCue: 2),
                                                                    fallback: .local, inputEncoding: "Shift_JIS", readAs: .srt)),
            sidecarWritten: false,
            kept: KeptOutput(model: FileReport.Model(backend: "none", availability: .unavailable(unavailable)), reasonRow: "No model",
                             error: "HTTP 500", options: OutputSettings(backend: "none", maxCharacters: 10)),
            replaced: ReplacedOutput(because: .notTrusted, detail: "x.assistant.json: the value is not JSON"))
    }()

    /// The keys of `T`'s table that `json` (an object of `T`) lacks.
    static func missingKeys<T: ReportObject>(_ type: T.Type, in json: JSONValue?) -> [String] {
        T.keys.map(\.name.rawValue).filter { json?[$0] == nil }
    }

    /// `full` really is full: every key of every table of a file's entry is in its JSON, so a
    /// field added to a table (and to `full`) is one each reader below must give back.
    @Test func theFullReportHasEveryKeyOfEveryTable() throws {
        let json = Self.full.json
        let actions = try #require({ if case .array(let a)? = json["actions"] { return a }; return nil }())
        var missing = Self.missingKeys(FileReport.self, in: json)
            + Self.missingKeys(FileReport.Model.self, in: json["model"])
            + Self.missingKeys(ReportCost.self, in: json["model"]?["cost"])
            + Self.missingKeys(TranscriptStats.self, in: json["transcript"])
            + Self.missingKeys(OutputFingerprint.self, in: json["fingerprint"])
            + Self.missingKeys(OutputSettings.self, in: json["fingerprint"]?["options"])
        if case .array(let warnings)? = json["warnings"] { missing += Self.missingKeys(CaptionWarning.self, in: warnings.first) }
        missing += actions.flatMap { Self.missingKeys(ActionReport.self, in: $0) }
        if case .array(let dropped)? = actions.first?["dropped"] { missing += Self.missingKeys(DroppedKeyword.self, in: dropped.first) }
        #expect(missing.isEmpty, "keys the full report lacks: \(missing)")
        var kept = Self.full
        kept.sidecarWritten = true  // a kept output, which `totals.kept` counts
        let totals = try BatchReport.Totals([Self.full, kept])
        #expect(Self.missingKeys(BatchReport.Totals.self, in: totals.reportJSON).isEmpty)
        #expect(Self.missingKeys(KeptOutput.self, in: json["kept"]).isEmpty)
        #expect(Self.missingKeys(ReplacedOutput.self, in: json["replaced"]).isEmpty)
        #expect(Self.missingKeys(BatchReport.ActionCounts.self, in: totals.reportJSON["actions"]).isEmpty)
    }

    /// The strict reader (`--resume`, `merge`) gives back the report the writer wrote, field for field.
    @Test func theStrictReaderGivesBackEveryField() throws {
        let back = try FileReport(reportJSON: Self.full.json)
        #expect(back == Self.full)
        #expect(back.json.renderedBytes() == Self.full.json.renderedBytes())
        // Through the bytes of a sidecar too.
        let parsed = try #require(JSONValue.parse(Self.full.json.renderedBytes()))
        #expect(try FileReport(reportJSON: parsed) == Self.full)
        let totals = try BatchReport.Totals([Self.full, Self.full])
        #expect(try BatchReport.Totals(reportJSON: totals.reportJSON) == totals)
    }

    /// The lenient reader (`review`) gives back every field as well, with no problem.
    @Test func theLenientReaderGivesBackEveryField() {
        var problems: [ReportError] = []
        #expect(FileReport.lenient(Self.full.json, problems: &problems) == Self.full)
        #expect(problems.isEmpty, "\(problems)")
        let entry = ReviewSite.Entry(Self.full.json, index: 0)
        #expect(entry.report == Self.full && entry.unread.isEmpty)
    }

    /// `merge` reads every entry of every part and writes them back: `report.json` holds the full
    /// report, every field of it, and totals counted from the entries.
    @Test func mergeGivesBackEveryField() throws {
        let dir = try TemporaryFolder()
        var other = Self.full
        other.input = "in/b.srt"
        other.model.availability = .available
        let files = [Self.full, other, Self.full]
        try Self.writeParts([[Self.full], [other, Self.full]], in: dir.path)
        let result = try ReportMerge.merge(folder: dir.path)
        #expect(result.shards == 2)
        #expect(result.totals == (try BatchReport.Totals(files)))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/report.json"))
        #expect(try Array(bytes) == WholeReport(files: files).renderedBytes())
        let fd = open(dir.path + "/report.json", O_RDONLY)
        defer { close(fd) }
        var read: [FileReport] = []
        let envelope = try ReportEnvelope.read(fd, name: "report.json", entry: { read.append(try FileReport(reportJSON: $0)) })
        #expect(read == files)
        #expect(envelope == ReportEnvelope(totals: try BatchReport.Totals(files)))
    }

    /// The summaries come from the same definition and read back as well.
    @Test func theSummariesReadBack() throws {
        var summary = BatchSummary()
        try summary.add(Self.full)
        var part = ReportPart(shard: Shard(index: 1, count: 4), plan: "p", planFiles: 9, first: 3, files: 2,
                              settings: Self.full.fingerprint.settings)
        part.complete = false
        let run = RunSummary(process: summary, counts: RunSummary.FileCounts(summary.totals, skipped: 0, notProcessed: 1), showsSkipped: true,
                             stopped: true, shard: RunSummary.ShardFigures(part), report: nil, exitStatus: 130)
        #expect(try RunSummary(reportJSON: run.json) == run)
        #expect(try ReportPart(reportJSON: part.reportJSON) == part)
        // A part's files lie within its plan, checked without overflow.
        for (first, files) in [(8, 2), (Int.max, 1)] {
            var beyond = part
            beyond.first = first
            beyond.files = files
            #expect(throws: ReportError.self) { try ReportPart(reportJSON: beyond.reportJSON) }
        }
        var check = CheckSummary()
        check.backend = "http"; check.endpoint = .some(nil); check.model = "m"; check.serverModels = ["m"]; check.retryPolicy = "3 tries"
        check.availability = Self.full.model.availability; check.reasonRow = "row"
        #expect(try CheckSummary(reportJSON: check.json) == check)
        #expect(check.json.rendered().contains("\"endpoint\": null"))
    }

    /// Parts written as `process --shard` writes them: each with its header, entries and totals.
    static func writeParts(_ shards: [[FileReport]], in folder: String, edit: (Int, inout String) -> Void = { _, _ in }) throws {
        let planFiles = shards.map(\.count).reduce(0, +)
        var first = 0
        for (index, files) in shards.enumerated() {
            let part = ReportPart(shard: Shard(index: index, count: shards.count), plan: "plan", planFiles: planFiles, first: first,
                                  files: files.count, settings: OutputSettings(backend: "fake"))
            first += files.count
            var envelope = ReportEnvelope(shard: part, totals: try BatchReport.Totals(files))
            var bytes = envelope.opening()
            var hash = SHA256()
            for (i, file) in files.enumerated() {
                bytes += JSONStreamWriter.separator(first: i == 0) + JSONStreamWriter.element(file.json)
                hash.update(JSONStreamWriter.element(file.json))
            }
            envelope.entriesSHA256 = hash.finalizeHex()
            bytes += envelope.closing(empty: files.isEmpty)
            var text = String(decoding: bytes, as: UTF8.self)
            edit(index, &text)
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + part.name))
        }
    }

    // MARK: Untrusted numbers

    static func withCues(_ cues: Int, input: String = "a.srt") -> FileReport {
        var report = FileReport(input: input, output: input, format: .srt, cues: cues, warnings: [], transcript: nil,
                                model: .init(backend: "none", availability: nil),
                                actions: AssistantAction.allCases.map(ActionReport.disabled), reasonRow: nil, error: nil)
        report.fingerprint.settings = OutputSettings(backend: "fake")
        return report
    }

    /// A count of `Int.max` reads; two of them cannot be added: a typed error
    /// naming the entry and the field, never an arithmetic trap.
    @Test func aCountTooLargeToAddIsAnErrorNamingTheField() throws {
        let huge = Self.withCues(Int.max)
        #expect(try FileReport(reportJSON: huge.json) == huge)
        #expect(throws: ReportError.self) { try BatchReport.Totals([huge, Self.withCues(1)]) }
        let error = #expect(throws: ReportError.self) { try BatchReport.Totals([Self.withCues(1), huge]) }
        #expect(error?.field == "files[1].cues")
        // One past Int.max is not a count at all.
        var text = String(decoding: huge.json.renderedBytes(), as: UTF8.self)
        text = text.replacingOccurrences(of: "9223372036854775807", with: "9223372036854775808")
        let json = try #require(JSONValue.parse(Array(text.utf8)))
        #expect(throws: ReportError(problem: "is not a whole number that fits a count", field: "cues")) { try FileReport(reportJSON: json) }
    }

    /// `merge` of parts whose entries, or whose totals, hold `9223372036854775807`: refused, naming the part and the field.
    @Test func mergeOfHugeCountsIsRefusedNamingThePartAndTheField() throws {
        let dir = try TemporaryFolder()
        try Self.writeParts([[Self.withCues(Int.max)], [Self.withCues(Int.max, input: "b.srt")]], in: dir.path)
        let error = #expect(throws: ReportMerge.Failure.self) { try ReportMerge.merge(folder: dir.path) }
        guard case .damaged(let name, let reason)? = error else { Issue.record("not refused as damaged: \(String(describing: error))"); return }
        #expect(name == "report.shard-1-of-2.json")
        #expect(reason.hasPrefix("files[0].cues is too large to add"), "\(reason)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/report.json"))

        let totals = try TemporaryFolder()
        try Self.writeParts([[Self.withCues(1)], [Self.withCues(2, input: "b.srt")]], in: totals.path) { index, text in
            if index == 1 { text = text.replacingOccurrences(of: "\n    \"cues\": 2,", with: "\n    \"cues\": 9223372036854775807,") }
        }
        #expect(throws: ReportMerge.Failure.damaged(name: "report.shard-1-of-2.json", reason: "its totals are not what its entries add up to")) {
            try ReportMerge.merge(folder: totals.path)
        }
    }

    /// A damaged value in a part's entry is named (the part and the field) and nothing is written or removed.
    @Test func mergeReadsEveryEntryOfEveryPart() throws {
        let dir = try TemporaryFolder()
        try Self.writeParts([[Self.withCues(1)], [Self.withCues(2, input: "b.srt"), Self.withCues(3, input: "c.srt")]], in: dir.path) { index, text in
            if index == 1 { text = text.replacingOccurrences(of: "\"cues\": 3,", with: "\"cues\": \"3\",") }
        }
        #expect(throws: ReportMerge.Failure.damaged(name: "report.shard-1-of-2.json", reason: "files[1].cues is not a whole number from 0 up")) {
            try ReportMerge.merge(folder: dir.path)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/report.json"))
        #expect(FileManager.default.fileExists(atPath: dir.path + "/report.shard-1-of-2.json"))
    }

    /// 20 bytes overwritten anywhere in a part (inside a title, where it still reads as JSON,
    /// included): merge names the part, writes no report.json and removes no part.
    @Test func aPartWithAnyTwentyBytesOverwrittenIsRefusedAndNothingIsWrittenOrRemoved() throws {
        let dir = try TemporaryFolder()
        var titled = Self.full
        titled.sidecarWritten = true
        try Self.writeParts([[titled, Self.withCues(1)], [Self.withCues(2, input: "b.srt")]], in: dir.path)
        let name = "report.shard-0-of-2.json"
        let url = URL(fileURLWithPath: dir.path + "/" + name)
        let whole = try Data(contentsOf: url)
        let overwrite = Data("ABCDEFGHIJKLMNOPQRST".utf8)
        var refused = 0
        for offset in stride(from: 0, to: whole.count - overwrite.count, by: 23) {
            var damaged = whole
            damaged.replaceSubrange(offset..<offset + overwrite.count, with: overwrite)
            try damaged.write(to: url)
            do {
                _ = try ReportMerge.merge(folder: dir.path)
                Issue.record("merged a part with bytes \(offset)..<\(offset + 20) overwritten")
            } catch {
                switch error {
                case .damaged(let part, _): #expect(part == name); refused += 1
                case .mismatch(let text): #expect(text.contains(name), "\(text)"); refused += 1  // the header's plan or count changed
                default: Issue.record("bytes \(offset)..<\(offset + 20): \(error)")
                }
            }
            #expect(!FileManager.default.fileExists(atPath: dir.path + "/report.json"))
            #expect(FileManager.default.fileExists(atPath: dir.path + "/report.shard-1-of-2.json"))
        }
        #expect(refused > 40)
        // Inside a title, the part still reads as JSON: its entries' SHA-256 tells.
        let text = String(decoding: whole, as: UTF8.self).replacingOccurrences(of: "\"One\"", with: "\"Owe\"")
        try Data(text.utf8).write(to: url)
        let error = #expect(throws: ReportMerge.Failure.self) { try ReportMerge.merge(folder: dir.path) }
        guard case .damaged(name, let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.contains("entriesSHA256"), "\(reason)")
        try whole.write(to: url)
        #expect(try ReportMerge.merge(folder: dir.path).shards == 2)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/" + name))
    }

    /// The parts go only once report.json reads back as what was merged: one that does not is refused.
    @Test func reportJSONIsReadBackBeforeThePartsAreRemoved() throws {
        let dir = try TemporaryFolder()
        let files = [Self.withCues(1), Self.withCues(2, input: "b.srt")]
        try Data(try WholeReport(files: files).renderedBytes()).write(to: URL(fileURLWithPath: dir.path + "/report.json"))
        let folder = try OutputFolder(path: dir.path)
        var hash = SHA256()
        for file in files { hash.update(JSONStreamWriter.element(file.json)) }
        let totals = try BatchReport.Totals(files)
        try ReportMerge.readBack(in: folder, totals: totals, entriesSHA256: hash.finalizeHex())
        #expect(throws: ReportMerge.Failure.self) { try ReportMerge.readBack(in: folder, totals: BatchReport.Totals(), entriesSHA256: hash.finalizeHex()) }
        #expect(throws: ReportMerge.Failure.self) { try ReportMerge.readBack(in: folder, totals: totals, entriesSHA256: SHA256.hex([UInt8]())) }
        let text = try String(contentsOfFile: dir.path + "/report.json", encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"b.srt\"", with: "\"c.srt\"").utf8).write(to: URL(fileURLWithPath: dir.path + "/report.json"))
        #expect(throws: ReportMerge.Failure.self) { try ReportMerge.readBack(in: folder, totals: totals, entriesSHA256: hash.finalizeHex()) }
    }

    /// `review` of a `report.json` whose counts cannot be added: refused (65), naming the file and the field.
    @Test func reviewOfHugeCountsIsRefusedNamingTheField() throws {
        let dir = try TemporaryFolder()
        let files = [Self.withCues(Int.max), Self.withCues(Int.max, input: "b.srt")]
        var bytes = ReportEnvelope().opening()
        for (i, file) in files.enumerated() { bytes += JSONStreamWriter.separator(first: i == 0) + JSONStreamWriter.element(file.json) }
        bytes += ReportEnvelope().closing(empty: false)
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path + "/report.json"))
        let failure = #expect(throws: ReviewSite.Failure.self) { try ReviewSite.build(outputFolder: dir.path) }
        #expect(failure?.kind == .unreadable)
        #expect(failure?.message.hasPrefix("report.json: files[1].cues is too large to add") == true, "\(failure?.message ?? "")")
    }

    /// What review cannot read of an entry it names on the file's page, and shows the rest.
    @Test func reviewNamesWhatItCannotRead() {
        guard case .object(var pairs) = Self.withCues(4).json else { Issue.record("not an object"); return }
        for i in pairs.indices where pairs[i].0 == "cues" { pairs[i].1 = .string("four") }
        pairs.removeAll { $0.0 == "fingerprint" }
        let entry = ReviewSite.Entry(.object(pairs), index: 2)
        #expect(entry.report.input == "a.srt" && entry.report.cues == nil)
        #expect(entry.unread.map(\.field) == ["files[2].cues", "files[2].fingerprint"])
        #expect(entry.unread.map(\.problem) == ["is not a whole number from 0 up", "is missing"])
    }
}

extension ReportError {
    /// An error with its field, for comparing.
    init(problem: String, field: String) {
        self.init(problem)
        self.field = field
    }
}
