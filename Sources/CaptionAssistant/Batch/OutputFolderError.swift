import Foundation

/// The output folder cannot be created or written (exit status 73).
package struct OutputFolderError: Error, LocalizedError, Sendable, Equatable {
    /// The folder.
    var path: String
    /// Why not.
    var reason: String
    /// What to do about it.
    var remedy = "choose another folder with -o, or make this one writable"
    /// Whether it is because another run is writing into the folder now
    /// (then the remedy is to wait for it, not to make the folder writable).
    var inUse = false

    package var errorDescription: String? {
        inUse ? "cannot write to the output folder \(path): \(reason); wait for that run to finish, or choose another folder with -o"
            : "cannot write to the output folder \(path): \(reason); \(remedy)"
    }
}
