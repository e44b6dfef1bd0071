import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders a batch searched for its inputs, each opened once by the path
/// the user gave and kept open for the run, so that reading a file found in
/// one (`FileInput.openInput(_:folders:)`) costs no open and close of the
/// folder, and no walk of its path, per file. Every file of a run is then read
/// from the folder the path named when the run first reached it.
///
/// At most `limit` folders are kept open (a command line may name thousands,
/// and each open folder holds a descriptor for the whole run); a folder
/// beyond them is opened for each file, as before, and closed by its reader.
///
/// Safe to share between the batch's workers; the folders are closed with it.
package final class InputFolders: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: [[UInt8]: Int32] = [:]
    private let limit: Int

    /// An empty set: nothing opened yet. `limit`: how many folders are kept open at most.
    package init(limit: Int = 16) { self.limit = limit }

    deinit { for fd in opened.values { close(fd) } }

    /// The folder at `path`, opened for `openat` (`O_DIRECTORY`, see
    /// `FileInput.openLong`): -1 with `errno` set when it cannot be (a
    /// folder that cannot be opened is not kept: it is tried again). `kept`:
    /// the descriptor stays this object's; otherwise (more folders than
    /// `limit`) the caller closes it.
    func descriptor(_ path: [UInt8]) -> (fd: Int32, kept: Bool) {
        lock.withLock {
            if let fd = opened[path] { return (fd, true) }
            let fd = FileInput.openLong(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0, opened.count < limit else { return (fd, false) }
            opened[path] = fd
            return (fd, true)
        }
    }

    /// How many folders are kept open.
    var keptCount: Int { lock.withLock { opened.count } }
}
