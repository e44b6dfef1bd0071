import Foundation

/// A file that could not be written.
package struct WriteError: Error, LocalizedError, Sendable, Equatable {
    /// The path that could not be written.
    var path: String
    /// What the system said.
    var reason: String

    package var errorDescription: String? { "could not write \(path): \(reason)" }
}
