import Foundation

/// Settings that cannot work, alone or together (an unknown availability
/// name, an HTTP backend without an endpoint, an output folder inside an
/// input folder, a shard the environment does not describe); `message` says
/// what was wrong in a sentence the person can act on.
///
/// The command line answers it as bad usage (exit 64) with the same message.
public struct SettingsError: Error, LocalizedError, Sendable, Equatable {
    /// What was wrong, in a sentence.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var errorDescription: String? { message }
}
