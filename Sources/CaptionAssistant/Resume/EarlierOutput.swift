import Assistant

/// Whether a file's new output, made without anything from the model (it was
/// unavailable, turned off, or failed), may replace the output an earlier run
/// left at the same name: model answers cost time and money, and a re-run on
/// a day the server is down must not wipe them.
///
/// The earlier output is kept when all of these hold:
/// - its sidecar reads strictly (`OutputFolder.readSidecar`) and records an
///   applied action (`FileReport.hasModelResults`) for this output;
/// - it was made from this very input (the SHA-256 of the input is the one
///   the sidecar records; when it is not, nothing of it applies, and the
///   entry says the input changed);
/// - the caption there is the one the sidecar describes (its SHA-256);
/// - the run was not asked to replace such outputs.
///
/// A sidecar that cannot be read, or a caption that is not the one it
/// describes, is not trusted: the new output replaces it and the entry says
/// so. A kept output's caption and sidecar are left as they are; its entry in
/// `report.json` is the earlier sidecar's, with `kept` saying what this
/// run's model did (and its options, when they differ from the kept
/// output's: `--max-characters`, `--to`, `--encoding`, `--language`, `--actions`,
/// `--emphasis`). `--resume`
/// then skips it (with the same options) as it would any complete file.
enum EarlierOutput {
    /// What to do with the earlier output.
    enum Decision: Equatable {
        /// There is none with model results: write the new output.
        case none
        /// Keep it: this is the file's entry.
        case keep(FileReport)
        /// Write the new output over it; the entry records why it was not kept.
        case replace(ReplacedOutput)
    }

    /// The decision for `report`, the entry of a new output that holds
    /// nothing from the model (its caller checks that), at `output` in `folder`.
    /// `replaceRequested`: the run was asked to replace such outputs.
    static func decide(for report: FileReport, output: String, in folder: OutputFolder, replaceRequested: Bool) -> Decision {
        let earlier: FileReport
        switch folder.readSidecar(of: output) {
        case .absent: return .none
        case .damaged(let error): return .replace(ReplacedOutput(because: .notTrusted, detail: error.localizedDescription))
        case .read(let report, _): earlier = report
        }
        guard earlier.hasModelResults, earlier.output?.utf8.elementsEqual(output.utf8) == true else { return .none }
        guard let inputHash = report.fingerprint.inputSHA256, earlier.fingerprint.inputSHA256 == inputHash else {
            return .replace(ReplacedOutput(because: .inputChanged))
        }
        guard let captionHash = earlier.fingerprint.outputSHA256, let caption = folder.read(output, limit: FileInput.maximumSize),
              SHA256.hex(caption) == captionHash else {
            return .replace(ReplacedOutput(because: .notTrusted,
                                           detail: "the caption \(output) is not the one its sidecar describes (missing, changed, or not a regular file)"))
        }
        if replaceRequested { return .replace(ReplacedOutput(because: .replaceRequested)) }
        var kept = earlier
        // The options that shape the file besides the model (which differs, or the output would not be kept).
        let asked = report.fingerprint.settings, made = earlier.fingerprint.settings
        let sameOptions = asked.maxCharacters == made.maxCharacters && asked.convertTo == made.convertTo && asked.writeOptions == made.writeOptions
            && asked.actions == made.actions && asked.emphasis == made.emphasis
        kept.kept = KeptOutput(model: report.model, reasonRow: report.reasonRow, error: report.error, options: sameOptions ? nil : asked)
        return .keep(kept)
    }
}
