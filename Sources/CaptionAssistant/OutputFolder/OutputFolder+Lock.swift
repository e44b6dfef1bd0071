import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock a run takes on its output folder.
package enum FolderLock: Sendable, Equatable {
    /// The folder to itself: a plain run, `merge`, `review`.
    case exclusive
    /// Shared with the other shards of the sharded run `run` (`ReportPart.run`:
    /// its plan, options and shard count), and with no one else.
    case shard(run: String)
}

extension OutputFolder {
    /// Why a lock was not taken.
    enum LockRefusal: Equatable {
        /// Another run holds the folder (a plain run, `merge`, `review`, or shards while this is not one).
        case held
        /// Shards of another sharded run hold it.
        case heldByAnotherShardedRun

        /// The error a refusal is, for the folder `path` (held by `holder`, when known).
        func error(path: String, holder: Int32?) -> OutputFolderError {
            let pid = holder.map { " (pid \($0))" } ?? ""
            switch self {
            case .held:
                return OutputFolderError(path: path, reason: "another caption-assistant run\(pid) is writing into it now", inUse: true)
            case .heldByAnotherShardedRun:
                return OutputFolderError(path: path, reason: "the shards of another sharded run\(pid), with other inputs, options or shard count, are writing into it now; shards share a folder only with the shards of their own run",
                                         inUse: true)
            }
        }
    }

    /// Takes the folder's lock on `fd` as `lock` asks, without waiting for
    /// another run; nil when taken, else why not. A file system that cannot
    /// lock at all counts as taken (the folder is used unlocked).
    ///
    /// A shard takes the folder's `flock` shared (which excludes every
    /// exclusive holder), and then says which run it is of: a read lock
    /// (`fcntl`, on the open folder, so it lasts as long as `flock`'s and
    /// leaves no file behind) on one byte of the folder chosen by its run
    /// (`runByte`). It then looks for a lock on any other byte: one there is
    /// a shard of another run, and the folder is refused. Each shard takes
    /// its own lock before it looks, so of two runs starting at once at
    /// least one sees the other (both may; each is then refused, as a second
    /// plain run is). The run locks are Linux's open file description locks
    /// (`F_OFD_SETLK`); elsewhere only the `flock` is taken.
    static func takeLock(_ fd: Int32, _ lock: FolderLock) -> LockRefusal? {
        switch lock {
        case .exclusive:
            return takeFlock(fd, shared: false) ? nil : .held
        case .shard(let run):
            guard takeFlock(fd, shared: true) else { return .held }
            guard takeRunLock(fd, byte: runByte(run)) else {
                flock(fd, LOCK_UN)
                return .heldByAnotherShardedRun
            }
            return nil
        }
    }

    /// The byte of the folder whose read lock says "a shard of `run` is here": from 1 to 2^40.
    static func runByte(_ run: String) -> Int64 {
        Int64(SHA256.hex(Array(run.utf8)).prefix(10).reduce(UInt64(0)) { $0 << 4 | UInt64(Int(String($1), radix: 16) ?? 0) }) + 1
    }

    /// Takes the read lock on `byte` of the open folder `fd` and checks that
    /// no other byte is locked; false when one is (after the retries
    /// `takeFlock` makes, for the same reason: a child being started holds a
    /// copy of a folder this process let go of). True where such locks are
    /// not supported.
    static func takeRunLock(_ fd: Int32, byte: Int64) -> Bool {
        #if os(Linux)
        // F_OFD_GETLK and F_OFD_SETLK (the same numbers on every Linux architecture), which Glibc's
        // Swift module leaves out (they are behind _GNU_SOURCE).
        let F_OFD_GETLK: Int32 = 36, F_OFD_SETLK: Int32 = 37
        var own = flock()
        own.l_type = Int16(F_RDLCK); own.l_whence = Int16(SEEK_SET); own.l_start = off_t(byte); own.l_len = 1
        guard fcntl(fd, F_OFD_SETLK, &own) == 0 else { return true }  // not supported here: the flock alone
        var pause: useconds_t = 1_000
        while true {
            // Anything locked below the byte, or above it (to the end).
            var below = flock(), above = flock()
            below.l_type = Int16(F_WRLCK); below.l_whence = Int16(SEEK_SET); below.l_start = 1; below.l_len = off_t(byte - 1)
            above.l_type = Int16(F_WRLCK); above.l_whence = Int16(SEEK_SET); above.l_start = off_t(byte + 1); above.l_len = 0
            let free = (byte == 1 || (fcntl(fd, F_OFD_GETLK, &below) == 0 && below.l_type == Int16(F_UNLCK)))
                && fcntl(fd, F_OFD_GETLK, &above) == 0 && above.l_type == Int16(F_UNLCK)
            if free { return true }
            if pause > 512_000 {
                own.l_type = Int16(F_UNLCK)
                _ = fcntl(fd, F_OFD_SETLK, &own)
                return false
            }
            usleep(pause)
            pause *= 2
        }
        #else
        return true
        #endif
    }

    /// Takes the folder's `flock` on `fd` (shared or exclusive) without waiting
    /// for another run; false when another run holds it.
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
    static func takeFlock(_ fd: Int32, shared: Bool) -> Bool {
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
