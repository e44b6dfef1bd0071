import Foundation

/// The output folder cannot be created or written (exit status 73).
public struct OutputFolderError: Error, LocalizedError, Sendable, Equatable {
    /// The folder.
    public var path: String
    /// Why not.
    public var reason: String
    /// What to do about it.
    public var remedy = "choose another folder with -o, or make this one writable"

    public var errorDescription: String? {
        "cannot write to the output folder \(path): \(reason); \(remedy)"
    }
}
