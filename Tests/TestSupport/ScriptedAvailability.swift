import Assistant
import Foundation

/// A provider that answers a scripted sequence of states, then repeats the last one; it counts the questions.
///
/// Used to simulate a model that becomes ready after some checks, or never does.
public final class ScriptedAvailability: AvailabilityProvider, @unchecked Sendable {
    private let lock = NSLock()
    private let states: [Availability]
    private var asked = 0

    /// Creates a provider answering `states` in order; after the last it keeps answering the last (or `.available` if empty).
    public init(_ states: [Availability]) {
        self.states = states
    }

    /// Creates a provider that is `modelNotReady` for `notReadyChecks` questions, then available.
    public static func readyAfter(_ notReadyChecks: Int) -> ScriptedAvailability {
        ScriptedAvailability(Array(repeating: .unavailable(.modelNotReady), count: max(0, notReadyChecks)) + [.available])
    }

    /// How many times the availability has been asked.
    public var checks: Int {
        lock.withLock { asked }
    }

    /// The next scripted state (the last one once the script has run out).
    public func currentAvailability() async -> Availability {
        lock.withLock {
            let index = min(asked, states.count - 1)
            asked += 1
            return index >= 0 ? states[index] : .available
        }
    }
}
