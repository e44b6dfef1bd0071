import Foundation

/// A file that could not be written.
struct WriteError: Error, LocalizedError, Sendable, Equatable {
    /// The path that could not be written.
    var path: String
    /// What the system said.
    var reason: String

    var errorDescription: String? { "could not write \(path): \(reason)" }
}
