import Assistant
import Captions
import JSON

/// The report for one input file: the sidecar `*.assistant.json`, and the
/// file's entry in `report.json`.
///
/// Its keys, their order and when each is written are the table `keys`;
/// the writer (`json`), the strict reader (`init(reportJSON:)`: `--resume`,
/// `merge`) and the lenient one (`lenient`: `review`) all come from it.
///
/// It holds no timestamps, durations or absolute paths (beyond what the user
/// typed), so the same run gives the same bytes: reports can be golden files.
public struct FileReport: Sendable, Equatable {
    /// The model part of the report.
    public struct Model: Sendable, Equatable {
        /// `fake`, `foundation`, `http` or `none`.
        public var backend: String
        /// nil when availability was not read (the file could not be read first);
        /// otherwise available, or unavailable with what the diagnostics said.
        public var availability: Availability?
        /// What the model calls cost, recorded for a real model (HTTP, Foundation
        /// Models) that was called; nil for the fake and when no call was made, so
        /// test reports stay free of timings.
        public var cost: ReportCost?

        /// Availability as the report writes it.
        public typealias Availability = ModelAvailability

        /// Creates the model part.
        public init(backend: String, availability: Availability?, cost: ReportCost? = nil) {
            self.backend = backend; self.availability = availability; self.cost = cost
        }

        /// Whether the backend is a real model (HTTP, Foundation Models),
        /// whose results a later run keeps; not the fake, a test double.
        public var isReal: Bool { Self.isReal(backend) }

        /// Whether the backend a report names `backend` is a real model.
        public static func isReal(_ backend: String) -> Bool {
            backend == BackendSelection.Kind.http.rawValue || backend == BackendSelection.Kind.foundation.rawValue
        }
    }

    /// The input as the user named it (plus the path inside a folder they named); `-` for standard input.
    public var input: String
    /// The output caption file, relative to the output folder; nil when nothing was written.
    public var output: String?
    /// The input's format, when it could be detected.
    public var format: CaptionFormat?
    /// The format written when converting (`--to`), else nil.
    public var convertedTo: CaptionFormat?
    /// The number of cues read.
    public var cues: Int?
    /// Problems the reader repaired, with line numbers.
    public var warnings: [CaptionWarning]
    /// What conversion could not carry over (when converting), or what else
    /// the output does not keep of the input (its encoding, with `--encoding utf-8`).
    public var losses: [String]
    /// How much of the transcript was sent.
    public var transcript: TranscriptStats?
    /// Which model, and whether it was available.
    public var model: Model
    /// The three actions, in order.
    public var actions: [ActionReport]
    /// Why the actions are not applied (unavailable model, failed model); nil otherwise.
    public var reasonRow: String?
    /// The real error text (unreadable file, failed model, failed write).
    public var error: String?
    /// What the output was made from (input and output hashes, options), for `--resume`.
    public var fingerprint: OutputFingerprint
    /// Whether the sidecar was written (false only in `report.json`: a file
    /// whose caption was written but whose sidecar could not be has failed).
    public var sidecarWritten = true
    /// Set when this run kept the output an earlier run made with the model
    /// instead of replacing it with one made without: this entry is then the
    /// earlier sidecar's, and `kept` says why (only in `report.json`).
    public var kept: KeptOutput?
    /// Set when this run replaced an output an earlier run made with the
    /// model by one made without, and why (only in `report.json`).
    public var replaced: ReplacedOutput?

    /// Creates a report.
    public init(input: String, output: String?, format: CaptionFormat?, convertedTo: CaptionFormat? = nil,
                cues: Int?, warnings: [CaptionWarning], losses: [String] = [], transcript: TranscriptStats?,
                model: Model, actions: [ActionReport], reasonRow: String?, error: String?,
                fingerprint: OutputFingerprint? = nil, sidecarWritten: Bool = true, kept: KeptOutput? = nil, replaced: ReplacedOutput? = nil) {
        self.input = input; self.output = output; self.format = format; self.convertedTo = convertedTo
        self.cues = cues; self.warnings = warnings; self.losses = losses; self.transcript = transcript
        self.model = model; self.actions = actions; self.reasonRow = reasonRow; self.error = error
        self.fingerprint = fingerprint ?? OutputFingerprint(inputSHA256: nil, outputSHA256: nil,
                                                            settings: OutputSettings(backend: model.backend, convertTo: convertedTo))
        self.sidecarWritten = sidecarWritten; self.kept = kept; self.replaced = replaced
    }

    /// Whether the output caption file was written.
    public var written: Bool { output != nil }

    /// What became of a file in a run: exactly one of these per file.
    public enum Outcome: Sendable, Equatable {
        /// The caption and its sidecar were written (or, under `--resume`, were already there).
        case written
        /// The output an earlier run made with the model was kept (see `kept`): its caption and sidecar are there.
        case kept
        /// The file could not be read, processed or written, or its sidecar could not be written.
        case failed
        /// The run was stopped before it started this file.
        case notProcessed
    }

    /// The file's outcome, from its entry: the one place it is derived, and
    /// every count (the totals, the summaries, the exit status) comes from it.
    public var outcome: Outcome {
        if output == nil { return Self.isNotProcessed(error) ? .notProcessed : .failed }
        if !sidecarWritten { return .failed }
        return kept == nil ? .written : .kept
    }

    /// The results a real model gave the output, by action: each action
    /// applied from the answer of a real model (`Model.isReal`), or kept from
    /// an earlier run's (`"source": "earlier"`), with its content. Content from
    /// the fallback or the fake is not among them. Only a real model's result
    /// for the same action replaces one of them (see `EarlierOutput`).
    public var modelResults: [AssistantAction: ActionReport] {
        var results: [AssistantAction: ActionReport] = [:]
        for action in actions where action.state == .applied && (action.source == .earlier || action.source == .model && model.isReal) {
            let content: Bool
            switch action.id {
            case .keywords: content = !(action.keywords ?? []).isEmpty
            case .titles: content = !(action.titles ?? []).isEmpty
            case .emoji: content = !(action.emoji ?? "").isEmpty
            }
            if content { results[action.id] = action }
        }
        return results
    }

    /// The sidecar's content, keys in the documented order.
    public var json: JSONValue { reportJSON }

    /// The keys only `report.json`'s entries have: what the run did about
    /// the sidecar and the earlier output. A sidecar is the entry without them.
    package static let reportOnlyKeys: [ReportKeyName] = [.sidecarWritten, .kept, .replaced]

    /// The entry as its sidecar holds it: without the keys only `report.json` has.
    var sidecarEntry: FileReport {
        var entry = self
        entry.sidecarWritten = true; entry.kept = nil; entry.replaced = nil
        return entry
    }

    /// Whether the entry is its own `sidecarEntry` (none of the keys only `report.json` has), asked without comparing the two.
    var isSidecarEntry: Bool { sidecarWritten && kept == nil && replaced == nil }

    /// `json`, an entry as read, without the keys only `report.json` has: what its sidecar holds.
    package static func sidecarJSON(_ json: JSONValue) -> JSONValue {
        guard case .object(let pairs) = json else { return json }
        let dropped = Set(reportOnlyKeys.map(\.rawValue))
        return .object(pairs.filter { !dropped.contains($0.0) })
    }

    /// The `error` of a file the batch did not get to because it was stopped
    /// (SIGINT, SIGTERM): `notProcessed`, then the way to finish the batch,
    /// its setting spelled by `names`.
    package static func notProcessedError(_ names: SettingNames) -> String {
        let advice: Advice = "\(notProcessed); run the same command with \(.resume) to finish the batch"
        return advice.rendered(names)
    }

    /// How the `error` of a file the batch did not get to starts, whatever the spelling of the way out.
    package static let notProcessed = "not processed: the run was interrupted before this file was finished"

    /// Whether `error` is that of a file the batch did not get to (`notProcessedError`, in any front end's spelling).
    package static func isNotProcessed(_ error: String?) -> Bool {
        error.map { $0.hasPrefix(notProcessed + "; ") } ?? false
    }

    /// How a report's `error` starts when the file's sidecar could not be written (a failure of the file).
    package static let sidecarFailure = "the sidecar report could not be written"
}

extension FileReport: ReportObject {
    package static let blank = FileReport(input: "", output: nil, format: nil, cues: nil, warnings: [], transcript: nil,
                                          model: Model(backend: "", availability: nil), actions: [], reasonRow: nil, error: nil)

    /// A file's entry: the one table of its keys.
    ///
    /// Written once a file (a sidecar each), so its keys, and those of the
    /// objects it holds, read their values with `get:` key path literals
    /// (direct reads) rather than through a key path at run time.
    package static let keys: [ReportKey<FileReport>] = [
        .derived(.schemaVersion) { _ in .int(1) },
        .value(.input, get: \.input, set: { $0.input = $1 }),
        .value(.output, get: \.output, set: { $0.output = $1 }),
        .value(.format, get: \.format, set: { $0.format = $1 }),
        .ifPresent(.convertedTo, get: \.convertedTo, set: { $0.convertedTo = $1 }),
        .value(.cues, get: \.cues, set: { $0.cues = $1 }),
        .value(.warnings, get: \.warnings, set: { $0.warnings = $1 }),
        .value(.losses, get: \.losses, set: { $0.losses = $1 }, writtenIf: { $0.convertedTo != nil || !$0.losses.isEmpty }),
        .value(.transcript, get: \.transcript, set: { $0.transcript = $1 }),
        .value(.model, get: \.model, set: { $0.model = $1 }),
        .value(.actions, get: \.actions, set: { $0.actions = $1 }),
        .value(.reasonRow, get: \.reasonRow, set: { $0.reasonRow = $1 }),
        .value(.error, get: \.error, set: { $0.error = $1 }),
        .value(.fingerprint, get: \.fingerprint, set: { $0.fingerprint = $1 }),
        // Only in `report.json`, only when so: a sidecar never has them, and entries without them are as they were.
        .value(.sidecarWritten, get: \.sidecarWritten, set: { $0.sidecarWritten = $1 }, writtenIf: { !$0.sidecarWritten }),
        .ifPresent(.kept, get: \.kept, set: { $0.kept = $1 }),
        .ifPresent(.replaced, get: \.replaced, set: { $0.replaced = $1 }),
    ]

    /// A file with no output cannot have kept one, nor a caption without its sidecar.
    package func validated() throws(ReportError) {
        if kept != nil, output == nil { throw ReportError("is there, but the entry has no output").under(.kept) }
        if !sidecarWritten, output == nil { throw ReportError("is false, but the entry has no output").under(.sidecarWritten) }
    }
}

extension FileReport.Model: ReportObject {
    package static let blank = FileReport.Model(backend: "", availability: nil)

    package static let keys: [ReportKey<FileReport.Model>] = [.value(.backend, get: \.backend, set: { $0.backend = $1 })]
        + ReportKey<FileReport.Model>.availability(get: \.availability, set: { $0.availability = $1 })
        + [.ifPresent(.cost, get: \.cost, set: { $0.cost = $1 })]
}

/// Whether the model could be called, as reports write it: `availability`
/// is `available` or `unavailable`, and for an unavailable model `reason`,
/// `remedy`, `permanence` and `offersSettings` follow it.
public enum ModelAvailability: Sendable, Equatable {
    /// The model could be called.
    case available
    /// The model could not be called; why, and what to do.
    case unavailable(ModelUnavailability)

    /// The word `availability` says.
    enum Kind: String, ReportName {
        case available, unavailable
    }
}

/// Why the model could not be called, as a report records it (from `Diagnostics`).
public struct ModelUnavailability: Sendable, Equatable {
    /// The reason's name (`modelNotReady`, …).
    public var reason: String
    /// What the person can do.
    public var remedy: String
    /// Whether it is permanent, fixable by the person, or temporary.
    public var permanence: Permanence
    /// Whether Settings can fix it.
    public var offersSettings: Bool

    /// Creates the record.
    public init(reason: String, remedy: String, permanence: Permanence, offersSettings: Bool) {
        self.reason = reason; self.remedy = remedy; self.permanence = permanence; self.offersSettings = offersSettings
    }

    /// What `diagnostics` say.
    public init(_ diagnostics: Diagnostics) {
        self.init(reason: diagnostics.name, remedy: diagnostics.remedy, permanence: diagnostics.permanence,
                  offersSettings: diagnostics.offersSettings)
    }

    static let blank = ModelUnavailability(reason: "", remedy: "", permanence: .permanent, offersSettings: false)
}

extension ReportKey {
    /// `availability` (`null`, `"available"` or `"unavailable"`) for the value
    /// `get` gives and `set` sets, then, for an unavailable model, `reason`,
    /// `reasonRow` (when `reasonRow` is given: `check` writes it there),
    /// `remedy`, `permanence` and `offersSettings`.
    static func availability(get: @escaping @Sendable (Root) -> ModelAvailability?,
                             set: @escaping @Sendable (inout Root, ModelAvailability?) -> Void,
                             reasonRow: (WritableKeyPath<Root, String?> & Sendable)? = nil) -> [ReportKey] {
        @Sendable func unavailable(_ root: Root) -> ModelUnavailability? {
            if case .unavailable(let u)? = get(root) { return u }
            return nil
        }
        let isUnavailable: @Sendable (Root) -> Bool = { unavailable($0) != nil }
        func part<V: ReportValue>(_ name: ReportKeyName, _ field: @escaping @Sendable (ModelUnavailability) -> V,
                                  _ setField: @escaping @Sendable (inout ModelUnavailability, V) -> Void) -> ReportKey {
            ReportKey(name: name, isWritten: isUnavailable, write: { unavailable($0).map(field)?.reportJSON ?? .null },
                      read: { (root: inout Root, json: JSONValue) throws(ReportError) in
                          guard var u = unavailable(root) else { throw ReportError("is there, but the model is not unavailable") }
                          setField(&u, try V(reportJSON: json))
                          set(&root, .unavailable(u))
                      },
                      readLeniently: { root, json, problems in
                          guard var u = unavailable(root), let v = V.lenient(json, problems: &problems) else { return }
                          setField(&u, v)
                          set(&root, .unavailable(u))
                      })
        }
        let state = ReportKey.value(.availability, get: { root -> ModelAvailability.Kind? in
            switch get(root) {
            case nil: return nil
            case .available?: return .available
            case .unavailable?: return .unavailable
            }
        }, set: { root, kind in
            switch kind {
            case nil: set(&root, nil)
            case .available?: set(&root, .available)
            case .unavailable?: set(&root, .unavailable(.blank))
            }
        })
        var keys = [state, part(.reason, \.reason, { $0.reason = $1 })]
        if let reasonRow {
            keys.append(.value(.reasonRow, reasonRow, writtenIf: isUnavailable))
        }
        keys += [part(.remedy, \.remedy, { $0.remedy = $1 }), part(.permanence, \.permanence, { $0.permanence = $1 }),
                 part(.offersSettings, \.offersSettings, { $0.offersSettings = $1 })]
        return keys
    }
}

/// How much of the transcript the model was sent, as the report writes it
/// (nil in the report when the model was unavailable: no transcript was made).
public struct TranscriptStats: Sendable, Equatable {
    /// The transcript's length in Swift `Character`s.
    public var characters: Int
    /// How many of them were sent, after the cap.
    public var sentCharacters: Int
    /// Whether the cap cut the transcript.
    public var truncated: Bool

    /// Creates the figures.
    public init(characters: Int, sentCharacters: Int, truncated: Bool) {
        self.characters = characters; self.sentCharacters = sentCharacters; self.truncated = truncated
    }
}

extension TranscriptStats: ReportObject {
    package static let blank = TranscriptStats(characters: 0, sentCharacters: 0, truncated: false)

    package static let keys: [ReportKey<TranscriptStats>] = [
        .value(.characters, get: \.characters, set: { $0.characters = $1 }),
        .value(.sentCharacters, get: \.sentCharacters, set: { $0.sentCharacters = $1 }),
        .value(.truncated, get: \.truncated, set: { $0.truncated = $1 }),
    ]
}

extension CaptionWarning: ReportObject {
    package static let blank = CaptionWarning(line: nil, message: "")

    package static let keys: [ReportKey<CaptionWarning>] = [
        .value(.line, get: \.line, set: { $0.line = $1 }), .value(.message, get: \.message, set: { $0.message = $1 }),
    ]
}

extension DroppedKeyword: ReportObject {
    package static let blank = DroppedKeyword(keyword: "", reason: "")

    package static let keys: [ReportKey<DroppedKeyword>] = [
        .value(.keyword, get: \.keyword, set: { $0 = DroppedKeyword(keyword: $1, reason: $0.reason) }),
        .value(.reason, get: \.reason, set: { $0 = DroppedKeyword(keyword: $0.keyword, reason: $1) }),
    ]
}

extension CaptionFormat: ReportName {}
extension Permanence: ReportName {}
