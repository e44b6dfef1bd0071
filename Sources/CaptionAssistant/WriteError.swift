import Foundation

/// A file that could not be written.
public struct WriteError: Error, LocalizedError, Sendable, Equatable {
    /// The path that could not be written.
    public var path: String
    /// What the system said.
    public var reason: String

    public var errorDescription: String? { "could not write \(path): \(reason)" }
}
