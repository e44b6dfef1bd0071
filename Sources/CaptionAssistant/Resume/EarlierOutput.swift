import Assistant

/// What an output an earlier run left at a new output's name offers this
/// run: the results a real model gave it, kept per action. Model answers cost
/// time and money, and a re-run on a day the server is down, with fewer
/// `--actions`, or whose model answers only in part, must not wipe them.
///
/// **Per action.** An action's result from a real model (HTTP, Foundation
/// Models: `FileReport.modelResults`) is replaced only by a result of a real
/// model for that action, or when the run is asked to
/// (`--replace-model-results`). The fake model is a test double: its results
/// are not kept, and do not replace a real model's. Content from the
/// fallback never replaces a model's. `SuggestionApplier` resolves each
/// action: this run's real model → the earlier result → the fake → the
/// fallback; a kept action says `"source": "earlier"`.
///
/// **The caption file** (the simplest rule that loses no byte a kept result
/// put there): it is the earlier output's bytes, untouched, when its caption
/// content does not change: each action that edits captions (emphasis, the
/// emoji) is kept from it, or is in neither, and it was written with the
/// options that shape those edits (`--to`, `--encoding`, `--language`,
/// `--emphasis`, `--input-encoding`). Otherwise it is made again from the input, with each kept
/// result applied again as this run's options say (new emphasis with the
/// earlier emoji: the input, the new keywords, the earlier emoji). When the
/// run changes nothing at all (every action kept or in neither), the output
/// is kept whole: its caption and sidecar stay as they are, and its entry in
/// `report.json` is the earlier sidecar's, with `kept` saying what this run's
/// model did (and its options, when they differ from the kept output's).
///
/// An earlier output's results are used only when all of these hold:
/// - its sidecar reads strictly (`OutputFolder.readSidecar`) and is for this output;
/// - it was made from this very input (the SHA-256 of the input is the one
///   the sidecar records; when it is not, nothing of it applies);
/// - the caption there is the one the sidecar describes (its SHA-256);
/// - the run was not asked to replace them.
/// When the earlier output has results from a real model that cannot be
/// used, and this run has no real model's result for one of those actions,
/// the entry's `replaced` says why (`inputChanged`, `notTrusted` with the
/// detail, `replaceRequested`).
enum EarlierOutput {
    /// What the earlier output offers.
    enum Finding {
        /// Nothing with results from a real model, or no earlier output: nothing to keep.
        case none
        /// Results this run may keep.
        case usable(Usable)
        /// Results that cannot be kept, why, and the actions they are for
        /// (nil when unknown: the sidecar could not be read).
        case unusable(ReplacedOutput, actions: Set<AssistantAction>?)
    }

    /// An earlier output whose results from a real model this run may keep.
    struct Usable {
        /// Its sidecar.
        var report: FileReport
        /// Its caption file's bytes.
        var caption: [UInt8]
        /// Its results from a real model, by action.
        var results: [AssistantAction: ActionReport] { report.modelResults }
    }

    /// What the output an earlier run left at `output` in `folder` offers a
    /// run on the input whose SHA-256 is `inputSHA256`. `replaceRequested`:
    /// the run was asked to replace results from a real model.
    static func find(output: String, in folder: OutputFolder, inputSHA256: String, replaceRequested: Bool) -> Finding {
        // A folder empty when this run took it holds only what this run writes, and each output once.
        if folder.startedEmpty { return .none }
        let earlier: FileReport
        switch folder.readSidecar(of: output) {
        case .absent: return .none
        case .damaged(let error): return .unusable(ReplacedOutput(because: .notTrusted, detail: error.localizedDescription), actions: nil)
        case .read(let report, _): earlier = report
        }
        let actions = Set(earlier.modelResults.keys)
        guard !actions.isEmpty, earlier.output?.utf8.elementsEqual(output.utf8) == true else { return .none }
        guard earlier.fingerprint.inputSHA256 == inputSHA256 else { return .unusable(ReplacedOutput(because: .inputChanged), actions: actions) }
        guard let captionHash = earlier.fingerprint.outputSHA256, let caption = folder.read(output, limit: FileInput.maximumSize),
              SHA256.hex(caption) == captionHash else {
            return .unusable(ReplacedOutput(because: .notTrusted,
                                            detail: "the caption \(output) is not the one its sidecar describes (missing, changed, or not a regular file)"),
                             actions: actions)
        }
        if replaceRequested { return .unusable(ReplacedOutput(because: .replaceRequested), actions: actions) }
        return .usable(Usable(report: earlier, caption: [UInt8](caption)))
    }

    /// What the new entry `report` (its actions resolved with `earlier`'s
    /// results) makes of the earlier output.
    enum Settlement {
        /// The run changes nothing: keep the output whole; this is the file's entry.
        case keepWhole(FileReport)
        /// The caption is the earlier one, untouched; this is the new entry (its caption actions the earlier's).
        case keepCaption(FileReport)
        /// The caption is made again from the input (the new entry as it is).
        case remake
    }

    /// The settlement of `report` against `earlier` (see the type's rule).
    static func settle(_ report: FileReport, with earlier: Usable) -> Settlement {
        let before = earlier.report
        func entry(_ r: FileReport, _ action: AssistantAction) -> ActionReport? { r.actions.first { $0.id == action } }
        /// Kept from the earlier output, or applied in neither.
        func unchanged(_ action: AssistantAction) -> Bool {
            let now = entry(report, action), then = entry(before, action)
            if now?.state == .applied { return now?.source == .earlier }
            return then?.state != .applied
        }
        let asked = report.fingerprint.settings, made = before.fingerprint.settings
        if AssistantAction.allCases.allSatisfy(unchanged) {
            var kept = before
            // The options that shape the file besides the model (which differs, or the output would not be kept).
            let sameOptions = asked.maxCharacters == made.maxCharacters && asked.convertTo == made.convertTo && asked.writeOptions == made.writeOptions
                && asked.actions == made.actions && asked.emphasis == made.emphasis && asked.inputEncoding == made.inputEncoding
            kept.kept = KeptOutput(model: report.model, reasonRow: report.reasonRow, error: report.error, options: sameOptions ? nil : asked)
            return .keepWhole(kept)
        }
        let sameShape = asked.convertTo == made.convertTo && asked.writeOptions == made.writeOptions && asked.emphasis == made.emphasis
            && asked.inputEncoding == made.inputEncoding
        guard sameShape, AssistantAction.allCases.filter(\.editsCaptions).allSatisfy(unchanged) else { return .remake }
        var new = report
        // The caption actions kept describe the earlier caption as its sidecar does; this run's reason stays.
        for index in new.actions.indices where new.actions[index].id.editsCaptions && new.actions[index].source == .earlier {
            guard var kept = entry(before, new.actions[index].id) else { continue }
            kept.source = .earlier
            kept.reason = new.actions[index].reason
            kept.repaired = false
            new.actions[index] = kept
        }
        new.losses = before.losses
        return .keepCaption(new)
    }

    /// Whether `report`, the new entry, loses results from a real model that
    /// an earlier output had for `actions` (nil: unknown, as for a sidecar
    /// that could not be read) and that could not be kept.
    /// (When unknown, it is said when the new entry has nothing from this run's model, the fake's included.)
    static func loses(_ report: FileReport, _ actions: Set<AssistantAction>?) -> Bool {
        guard let actions else { return !report.actions.contains { $0.state == .applied && $0.source == .model } }
        return !actions.isSubset(of: Set(report.modelResults.keys))
    }
}
