import Assistant
import Foundation
import JSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether `--resume` may skip a file because an earlier run already
/// wrote it completely, with the same input and options.
///
/// A file is skipped when it is complete for the options given: `rule` says
/// so in words (`--help` shows it), `isComplete` decides it from the sidecar,
/// and `check` adds what only the output folder can tell:
/// - its caption and its sidecar are regular files in the output folder
///   (not links), both modified no earlier than the input;
/// - the sidecar is complete: it reads back as a report and prints back to
///   exactly its own bytes;
/// - `isComplete`: the sidecar is for this input and output, records no
///   error and either the run's own options or an output this run keeps
///   whole (`isKeptWhole`: a real model's output that a run with no real
///   model, such as `--model none` or the fake, kept as it was), and
///   otherwise the same options (`OutputSettings`) and a model that answered
///   or that cannot answer under these options (`--model none`, a forced
///   availability, or a permanent reason such as no on-device model on this
///   system), whatever the fallback gave: a re-run with the same options
///   would do the same. A file whose model failed, or was unavailable for a
///   reason that may pass (a server down, a model still downloading), is
///   processed again: the model may answer now;
/// - the SHA-256 of the input and of the caption in the output folder are
///   those the sidecar records. The times alone never decide: a copy or a
///   checkout changes them, and a coarse clock can miss an edit.
package enum ResumeCheck {
    /// The rule, in the words the front end's help gives for resuming, its settings spelled by `names`.
    package static func rule(_ names: SettingNames) -> String {
        let advice: Advice = "A file is complete when its caption and sidecar are there as that run wrote them (the SHA-256 of the input and of the caption match the sidecar), with the same options and no error, and its model answered or cannot answer with these options (\(.backend, .literal("none")), \(.simulatedAvailability), or a permanent reason such as no on-device model on this system), fallback runs included; an output a real model made that this run keeps whole (it has no real model and nothing to store over those results) is complete too; a file whose model failed, or was unreachable or not ready, is redone, since it may answer now."
        return advice.rendered(names)
    }

    /// Whether `report`, a sidecar read strictly, records the output of
    /// `input` at `output` complete for the options `settings` (see `rule`;
    /// `check` compares the hashes).
    static func isComplete(_ report: FileReport, input: String, output: String, settings: OutputSettings) -> Bool {
        guard report.input.utf8.elementsEqual(input.utf8), report.output?.utf8.elementsEqual(output.utf8) == true,
              report.error == nil, report.fingerprint.inputSHA256 != nil, report.fingerprint.outputSHA256 != nil else { return false }
        guard report.fingerprint.settings == settings else { return isKeptWhole(report, settings: settings) }
        switch report.model.availability {
        case .available?: return true
        case .unavailable(let unavailable)?:
            // Nothing a re-run with these options could change: no model asked, an availability forced, or one that will not change.
            return settings.backend == BackendSelection.Kind.none.rawValue || settings.simulatedAvailability != nil
                || unavailable.permanence == .permanent
        case nil: return false
        }
    }

    /// Whether a run with `settings` keeps whole the output `report` (its
    /// sidecar) describes, as it did when it last ran (`EarlierOutput`): the
    /// output holds a real model's results, the run can give no real model's
    /// result (`--model none`, the fake, or an availability forced to
    /// anything but `available`), and every action it asks for has a real
    /// model's result there, or gets nothing from this run (no fallback, not
    /// the fake) and is not applied there.
    static func isKeptWhole(_ report: FileReport, settings: OutputSettings) -> Bool {
        let results = report.modelResults
        guard !results.isEmpty else { return false }
        let fake = settings.backend == BackendSelection.Kind.fake.rawValue
        let forcedUnavailable = settings.simulatedAvailability.flatMap(Availability.init(name:)).map { !$0.isAvailable } ?? false
        guard settings.backend == BackendSelection.Kind.none.rawValue || fake || forcedUnavailable else { return false }
        let givesContent = settings.fallback != nil || (fake && !forcedUnavailable)
        return settings.actions.allSatisfy { action in
            results[action] != nil || (!givesContent && report.actions.first { $0.id == action }?.state != .applied)
        }
    }

    /// What the check found: the report to reuse and its sidecar's bytes
    /// (when the file can be skipped), and the input's bytes when it had to
    /// read them (so they are not read twice).
    struct Finding {
        var report: FileReport?
        var input: [UInt8]?
        var json: JSONValue?
    }

    static func check(_ item: InputPlan.Item, folder: OutputFolder, settings: OutputSettings, inputFolders: InputFolders? = nil) -> Finding {
        // Opened once, as every input is (`FileInput.openInput`), for its time and, when needed, its bytes.
        guard let input = try? FileInput.openInput(item, folders: inputFolders) else { return Finding(report: nil, input: nil) }
        defer { close(input) }
        var inputInfo = stat()
        guard fstat(input, &inputInfo) == 0,
              let captionInfo = folder.regularFileStatus(item.output),
              let sidecarInfo = folder.regularFileStatus(OwnedNames.sidecar(of: item.output)),
              !isEarlier(captionInfo, than: inputInfo), !isEarlier(sidecarInfo, than: inputInfo),
              case .read(let report, let json) = folder.readSidecar(of: item.output),
              isComplete(report, input: item.input, output: item.output, settings: settings),
              let inputHash = report.fingerprint.inputSHA256, let outputHash = report.fingerprint.outputSHA256
        else { return Finding(report: nil, input: nil) }
        guard let input = try? FileInput.read(descriptor: input, limit: FileInput.maximumSize) else { return Finding(report: nil, input: nil) }
        guard SHA256.hex(input) == inputHash,
              let caption = folder.read(item.output, limit: FileInput.maximumSize), SHA256.hex(caption) == outputHash
        else { return Finding(report: nil, input: input) }
        return Finding(report: report, input: input, json: json)
    }

    /// Whether `a` was last modified before `b`.
    private static func isEarlier(_ a: stat, than b: stat) -> Bool {
        #if canImport(Darwin)
        let (x, y) = (a.st_mtimespec, b.st_mtimespec)
        #else
        let (x, y) = (a.st_mtim, b.st_mtim)
        #endif
        return (x.tv_sec, x.tv_nsec) < (y.tv_sec, y.tv_nsec)
    }
}
