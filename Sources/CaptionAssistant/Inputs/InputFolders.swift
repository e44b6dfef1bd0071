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
/// Safe to share between the batch's workers; the folders are closed with it.
package final class InputFolders: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: [[UInt8]: Int32] = [:]

    /// An empty set: nothing opened yet.
    package init() {}

    deinit { for fd in opened.values { close(fd) } }

    /// The folder at `path`, opened for `openat` (`O_DIRECTORY`, see
    /// `FileInput.openLong`), once; -1 with `errno` set when it cannot be
    /// (a folder that cannot be opened is not kept: it is tried again).
    /// The descriptor stays this object's.
    func descriptor(_ path: [UInt8]) -> Int32 {
        lock.withLock {
            if let fd = opened[path] { return fd }
            let fd = FileInput.openLong(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 { opened[path] = fd }
            return fd
        }
    }
}
