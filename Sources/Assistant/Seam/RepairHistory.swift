import Foundation

/// How the repair requests of one run went, field by field, so that a repair
/// that does not help stops being paid for.
///
/// A repair request costs the whole prompt again. A model that cannot give a
/// field (SmolLM2-135M's titles: 1 of 17 title repairs of one measured run
/// made them usable, most repeated the refused titles) spends it on every
/// file. Once `trial` repairs of a field have been sent in the run and fewer
/// than one in `worthIt` made it usable, the field is not repaired again in
/// that run; the action's reason says so. A model that repairs a field one time
/// in four or more keeps being asked. The history is shared by every copy of
/// the `AssistantService` that made it (one per run), across files in flight
/// together; with `--jobs` above 1, which files are past the trial depends on
/// the order answers come back.
public final class RepairHistory: @unchecked Sendable {
    /// The repairs of a field sent before whether it is worth it is judged.
    public static let trial = 4
    /// A field is repaired while at least one in this many of its repairs made it usable.
    public static let worthIt = 4

    private let lock = NSLock()
    private var sent: [AssistantAction: Int] = [:]
    private var usable: [AssistantAction: Int] = [:]

    /// A history with no repair yet.
    public init() {}

    /// Whether `field` may still be repaired in this run.
    public func mayRepair(_ field: AssistantAction) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let count = sent[field, default: 0]
        return count < Self.trial || usable[field, default: 0] * Self.worthIt >= count
    }

    /// Records a repair request that asked for `field`, and whether it made the field usable.
    public func record(_ field: AssistantAction, madeUsable: Bool) {
        lock.lock()
        defer { lock.unlock() }
        sent[field, default: 0] += 1
        if madeUsable { usable[field, default: 0] += 1 }
    }

    /// Why `field` is not repaired, for the action's reason: how many of its repairs in this run made it usable.
    public func stoppedNote(_ field: AssistantAction) -> String {
        lock.lock()
        defer { lock.unlock() }
        let count = sent[field, default: 0], good = usable[field, default: 0]
        return "Not asked again: \(good) of this run's \(count) repair requests for it gave a usable answer (a field is repaired while at least 1 in \(Self.worthIt) does)."
    }
}
