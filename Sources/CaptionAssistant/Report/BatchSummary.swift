/// What the command line says about a batch once it has run: the totals,
/// the distinct reasons a model was unavailable, and the files that failed.
///
/// It is built one file report at a time (`add`) and keeps no report, so it
/// stays the same size however many files the batch has (the failures list
/// grows only with files that failed).
public struct BatchSummary: Sendable, Equatable {
    /// The figures of `report.json`'s `totals`.
    public var totals = BatchReport.Totals()
    /// `name: reason row` for each distinct reason the model was unavailable.
    public var unavailableRows: Set<String> = []
    /// Each input that was not written, or was written with an error (its
    /// sidecar could not be written), with its error, in the order they were
    /// added (files the batch did not get to, because it was stopped, are left out).
    public var failures: [Failure] = []
    /// Each distinct reason the model was unavailable: its name and reason row.
    public var unavailableReasons: [String: String] = [:]
    /// Each distinct error text of a file that was written but whose model
    /// failed (HTTP 500, a timeout, an undecodable answer), with how many files
    /// had it; at most `maxModelErrors` distinct texts are kept.
    public var modelErrors: [String: Int] = [:]
    /// Files whose model error was not kept because `modelErrors` was full.
    public var otherModelErrors = 0
    /// Files where the model was available and gave a usable answer (no model error).
    public var answered = 0
    /// The most distinct model error texts kept.
    static let maxModelErrors = 16

    /// A file that was not written.
    public struct Failure: Sendable, Equatable {
        /// The input as the user named it.
        public var input: String
        /// Why it was not written.
        public var error: String
    }

    /// An empty summary.
    public init() {}

    /// The summary of `files`.
    public init(_ files: [FileReport]) throws(ReportError) {
        for file in files { try add(file) }
    }

    /// Counts `file` in (the totals through `BatchReport.Totals.add`, whose
    /// error it throws, with nothing counted).
    public mutating func add(_ file: FileReport) throws(ReportError) {
        try totals.add(file)
        if case .unavailable(let info)? = file.model.availability {
            let row = file.reasonRow ?? ""
            unavailableRows.insert(info.reason + ": " + row)
            unavailableReasons[info.reason] = row
        }
        if case .available? = file.model.availability, file.error == nil, file.written { answered += 1 }
        // A model error leaves actions failed, or taken from the fallback instead.
        if let error = file.error, file.written, file.actions.contains(where: { $0.state == .failed || $0.source == .fallback }) {
            if modelErrors[error] != nil || modelErrors.count < Self.maxModelErrors {
                modelErrors[error, default: 0] += 1
            } else {
                otherModelErrors += 1
            }
        }
        // A file written whose sidecar was not (its `error` says so) is a failure too: every failure sets the
        // exit status. (A model that failed is not: the captions are written, and the report says why.)
        if let error = file.error, error != FileReport.notProcessedError,
           !file.written || error.contains(FileReport.sidecarFailure) {
            failures.append(Failure(input: file.input, error: error))
        }
    }
}
