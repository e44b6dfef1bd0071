/// Every key of the JSON this tool writes about its work: sidecars,
/// `report.json`, report parts, and the `--json` summaries of `process`,
/// `merge`, `review` and `check`.
///
/// Each key is spelled here once, as a case; the tables (`ReportObject.keys`)
/// name their keys from it, so no key can be spelled two ways and a key that
/// is not here does not compile.
package enum ReportKeyName: String, Sendable {
    // `report.json` and a shard's report part, around the entries.
    case schemaVersion, shard, files, totals

    // A file's entry (its sidecar).
    case input, output, format, convertedTo, cues, warnings, losses, transcript, model, actions, reasonRow, error, fingerprint
    // Only in `report.json`'s entries: a sidecar not written, an earlier output kept or replaced.
    case sidecarWritten, kept, replaced, because, detail
    // The `--json` summary: outputs written that kept some results of an earlier run's model.
    case keptResults
    // A reader warning.
    case line, message
    // The transcript's figures.
    case characters, sentCharacters, truncated
    // The model, and why it was unavailable.
    case backend, availability, reason, remedy, permanence, offersSettings, cost
    // What the model calls cost.
    case requests, promptTokens, completionTokens, milliseconds
    // One action.
    case id, label, state, source, keywords, occurrences, occurrencesLeft, dropped, titles, emoji, cue, repaired
    // A keyword dropped.
    case keyword
    // What the output was made from, and the options that shape it.
    case inputSHA256, outputSHA256, options, endpoint, serverKind, simulatedAvailability, maxCharacters, to, encoding, language, inputEncoding,
         emphasis, emphasisPerCue, fallback, from

    // Totals.
    case written, failed, notProcessed, modelUnavailable, applied, disabled, notRequested, keywordOccurrences, keywordOccurrencesLeft

    // A report part's `shard`.
    case index, count, plan, planFiles, first, complete, missingInput
    // A report part's digest of its entries, after `totals`.
    case entriesSHA256

    // The `--json` summaries.
    case shards, missing, stopped, unavailableReasons, modelErrors, skipped, indexPages, report, exitStatus, transcriptsCut, earlierModel,
         notApplied, notAppliedFiles, wallMilliseconds
    // `check --json`.
    case serverModels, retryPolicy, proxy, titleDictionaries
}
