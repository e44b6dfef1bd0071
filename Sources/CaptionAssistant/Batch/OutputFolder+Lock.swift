import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension OutputFolder {
    /// Takes the folder's lock on `fd` (shared or exclusive) without waiting
    /// for another run; false when another run holds it. A file system that
    /// cannot lock at all counts as taken (the folder is used unlocked).
    ///
    /// A `flock` belongs to the open folder, and a child process that this
    /// process is starting holds a copy of every descriptor, the folder's
    /// included, from `fork` until `exec` closes it (`O_CLOEXEC`). So a folder
    /// that this process let go of a moment ago can still look locked, and a
    /// second batch into the same folder was refused as "in use" whenever any
    /// thread of the process was starting a program just then (a third of the
    /// opens while two threads started `/bin/true` in a loop). The lock is therefore
    /// tried again, for about a second, unless it is known to be held: by an
    /// `OutputFolder` alive in this process, or by another process that
    /// `/proc/locks` names. A real run holds its lock for as long as it
    /// writes, so the retries only delay the refusal when neither can be told.
    static func takeLock(_ fd: Int32, shared: Bool) -> Bool {
        var pause: useconds_t = 1_000
        while true {
            if flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK else { return true }
            let heldByThisProcess = FolderIdentity(fd).map(heldHere.contains) ?? false
            if heldByThisProcess || lockHolder(fd) != nil || pause > 512_000 { return false }
            usleep(pause)
            pause *= 2
        }
    }

    /// The output folders open in this process (as `OutputFolder`s), by identity.
    static let heldHere = HeldFolders()

    /// A count of live `OutputFolder`s per folder, shared by the whole process.
    final class HeldFolders: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [FolderIdentity: Int] = [:]

        func add(_ folder: FolderIdentity) { lock.withLock { counts[folder, default: 0] += 1 } }

        func remove(_ folder: FolderIdentity) {
            lock.withLock {
                let left = (counts[folder] ?? 1) - 1
                counts[folder] = left > 0 ? left : nil
            }
        }

        func contains(_ folder: FolderIdentity) -> Bool { lock.withLock { counts[folder] != nil } }
    }
}

/// A folder's device and inode number: the same folder whatever path names it.
struct FolderIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the open folder `fd`; nil when `fstat` fails.
    init?(_ fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}
