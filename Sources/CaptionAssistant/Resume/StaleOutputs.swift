import Captions
import Foundation

/// Caption files an earlier run wrote into the output folder that this run
/// did not write and its report does not list: the same input written with
/// another `--to` (`ep1.srt` then `ep1.vtt`). They are never deleted (an
/// output folder is the user's); the command line says they are there.
///
/// The run's own outputs are recognised by the run's plan, never by their
/// names: a shard is given its run's whole plan, so another shard's output
/// (`ep1.srt` beside this shard's `ep1.vtt`, from inputs that share a stem)
/// is its own run's, not an earlier run's.
package enum StaleOutputs {
    /// The caption extensions an output can have: every one a file is read under.
    static let extensions = CaptionFileExtension.all.map(\.name)

    /// The outputs (relative to `folder`) beside the outputs of `run` (the
    /// run's whole plan: every shard's files, not one shard's) that have a
    /// sidecar of their own and are not outputs of `run`, in plan order.
    package static func find(_ run: InputPlan, in folder: String) -> [String] {
        let plan = run
        let current = Set(plan.items.map(\.output))
        var stale: [String] = []
        var seen: Set<String> = []
        for item in plan.items {
            guard case .file = item.location else { continue }
            let ext = InputPlan.extensionOf(item.output)
            let base = ext.isEmpty ? item.output : String(item.output.dropLast(ext.count + 1))
            for other in extensions where other != ext.lowercased() {
                let candidate = base + "." + other
                guard !current.contains(candidate), !seen.contains(candidate) else { continue }
                if FileManager.default.fileExists(atPath: folder + "/" + OwnedNames.sidecar(of: candidate)) {
                    stale.append(candidate)
                    seen.insert(candidate)
                }
            }
        }
        return stale
    }
}
