import Assistant
import Foundation

/// The output folder cannot be created or written (exit status 73).
package struct OutputFolderError: Error, LocalizedError, Sendable, Equatable {
    /// The folder.
    var path: String
    /// Why not.
    var reason: String
    /// What to do about it.
    var remedy: Advice = "choose another folder with \(.outputFolder), or make this one writable"
    /// Whether it is because another run is writing into the folder now
    /// (then the remedy is to wait for it, not to make the folder writable).
    var inUse = false

    /// What is wrong and what to do, in the library's words.
    package var advice: Advice {
        inUse ? "cannot write to the output folder \(path): \(reason); wait for that run to finish, or choose another folder with \(.outputFolder)"
            : "cannot write to the output folder \(path): \(reason); \(remedy)"
    }

    /// What is wrong and what to do, the settings named spelled by `names`.
    package func message(_ names: SettingNames) -> String { advice.rendered(names) }

    package var errorDescription: String? { message(.plain) }
}
