import Assistant

/// Why a run kept the output an earlier run made with the model rather than
/// replace it with one made without (the model unavailable, turned off, or
/// failed): `kept` in that file's entry in `report.json`.
///
/// The entry is the earlier sidecar's (what the output folder holds), and
/// this record says what this run's model did: its availability (with the
/// reason, remedy and permanence), its reason row and its error. `options`
/// (this run's) is there when this run asked for other options than the
/// kept output was made with besides the model (another `--encoding`,
/// `--language` or `--max-characters`): the kept file does not follow them.
public struct KeptOutput: Sendable, Equatable {
    /// This run's model: which backend, and whether it was available (why not).
    public var model: FileReport.Model
    /// This run's reason row (why the model gave nothing).
    public var reasonRow: String?
    /// This run's model error, when the model failed.
    public var error: String?
    /// This run's options, when they differ from those the kept output was made with.
    public var options: OutputSettings?

    /// Creates the record.
    public init(model: FileReport.Model, reasonRow: String?, error: String?, options: OutputSettings? = nil) {
        self.model = model; self.reasonRow = reasonRow; self.error = error; self.options = options
    }

    /// The reason the model was unavailable (`serverUnreachable`, …), or
    /// nil when it was available and failed.
    public var unavailableReason: String? {
        if case .unavailable(let u)? = model.availability { return u.reason }
        return nil
    }

    /// What this run's model did, as a name (`--json`'s `because`): the
    /// reason it was unavailable (`serverUnreachable`, …), `modelFailed`,
    /// `fakeModel` (the fake answered, but its results, a test double's, are
    /// never stored over a real model's: it did not fail), or `nothingUsable`
    /// (a real model answered with nothing usable for any action).
    public var cause: String {
        if let reason = unavailableReason { return reason }
        if error != nil { return Self.modelFailed }
        if model.backend == BackendSelection.Kind.fake.rawValue { return Self.fakeModel }
        return Self.nothingUsable
    }

    /// `cause` of a model that was available but failed.
    public static let modelFailed = "modelFailed"
    /// `cause` of the fake model, which answered.
    public static let fakeModel = "fakeModel"
    /// `cause` of a real model that answered with nothing usable.
    public static let nothingUsable = "nothingUsable"

    /// `cause` in words, for the summary and the review.
    public var why: String {
        switch cause {
        case Self.modelFailed: return "model failed"
        case Self.fakeModel: return "the fake model answered, but a test double's results are not stored over a real model's"
        case Self.nothingUsable: return "the model's answer had nothing usable"
        default: return "model unavailable: " + cause
        }
    }
}

extension KeptOutput: ReportObject {
    package static let blank = KeptOutput(model: .blank, reasonRow: nil, error: nil)

    /// `kept`: the one table of its keys.
    package static let keys: [ReportKey<KeptOutput>] = [
        .value(.model, \.model), .value(.reasonRow, \.reasonRow), .value(.error, \.error), .ifPresent(.options, \.options),
    ]
}

/// Why a run replaced an output an earlier run made with the model by one
/// made without it: `replaced` in that file's entry in `report.json`.
public struct ReplacedOutput: Sendable, Equatable {
    /// Why the earlier output was not kept.
    public enum Reason: String, Sendable, CaseIterable, ReportName {
        /// The input is not the one the earlier output was made from (its SHA-256 differs): nothing of it applies.
        case inputChanged
        /// The earlier sidecar cannot be read, or the caption there is not the one it describes: it is not trusted.
        case notTrusted
        /// The run was asked to replace such outputs.
        case replaceRequested
    }

    /// Why.
    public var because: Reason
    /// What was wrong, for `notTrusted` (the sidecar's error, or that the caption differs).
    public var detail: String?

    /// Creates the record.
    public init(because: Reason, detail: String? = nil) { self.because = because; self.detail = detail }
}

extension ReplacedOutput: ReportObject {
    package static let blank = ReplacedOutput(because: .inputChanged)

    /// `replaced`: the one table of its keys.
    package static let keys: [ReportKey<ReplacedOutput>] = [.value(.because, \.because), .ifPresent(.detail, \.detail)]
}
