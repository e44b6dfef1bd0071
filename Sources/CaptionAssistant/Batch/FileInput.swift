import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads input files whole, with error messages that name the problem
/// (and not the process's working folder, so reports stay reproducible).
enum FileInput {
    /// The largest input read (a caption file is far smaller; this keeps a
    /// mistaken multi-gigabyte input from exhausting memory).
    static let maximumSize = 1 << 30

    /// Reads the file at `path` into one buffer (which the decoder keeps as is for UTF-8).
    ///
    /// Only a regular file is read (after following links). It is opened
    /// with `O_NONBLOCK`, so a FIFO (or a link to one) is refused at once
    /// instead of waiting forever for a writer; the opened descriptor is
    /// checked, so nothing can be swapped in between a check and the open.
    static func read(_ path: String) throws(ReadError) -> [UInt8] {
        try read(bytes: Array(path.utf8))
    }

    /// Reads the file whose path is the bytes `path` (a name need not be UTF-8), as `read(_:)` does.
    static func read(bytes path: [UInt8]) throws(ReadError) -> [UInt8] {
        let fd = openLong(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try read(descriptor: fd, limit: maximumSize)
    }

    /// Reads the open regular file `fd` whole, if it is at most `limit` bytes long.
    static func read(descriptor fd: Int32, limit: Int) throws(ReadError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw ReadError(reason: notRegular(info.st_mode)) }
        let size = Int(info.st_size)
        guard size <= limit else { throw ReadError(reason: "the file is larger than \(limit >> 20) MiB") }
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            while count < size {
                let n = Foundation.read(fd, base + count, size - count)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                if n == 0 { break }
                count += n
            }
        }
        if let failure { throw ReadError(reason: String(cString: strerror(failure))) }
        return bytes
    }

    /// Why a file of mode `mode` is not read.
    static func notRegular(_ mode: mode_t) -> String {
        let kind: String
        switch mode & S_IFMT {
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFDIR: kind = "a folder"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        return kind == "not a regular file" ? kind : "not a regular file but \(kind); only regular files are read"
    }

    /// `open(path, flags)`, also for a path longer than `PATH_MAX`: then its
    /// folders are opened one at a time, each relative to the one before
    /// (`openat`), which no length limits. -1 (with `errno`) when it cannot.
    static func openLong(_ path: [UInt8], _ flags: Int32) -> Int32 {
        func c(_ bytes: some Collection<UInt8>) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }
        let fd = open(c(path), flags)
        guard fd < 0, errno == ENAMETOOLONG else { return fd }
        var parts = path.split(separator: 0x2F, omittingEmptySubsequences: true).map(c)
        guard let last = parts.popLast() else { errno = ENAMETOOLONG; return -1 }
        var current = open(path.first == 0x2F ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        for part in parts where current >= 0 {
            let next = openat(current, part, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            let error = errno
            close(current)
            current = next
            errno = error
        }
        guard current >= 0 else { return -1 }
        defer { close(current) }
        return openat(current, last, flags)
    }

    /// The status of the file at the bytes `path` (links followed, any length), or nil.
    static func status(bytes path: [UInt8]) -> stat? {
        let fd = openLong(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        return fstat(fd, &info) == 0 ? info : nil
    }

    /// Opens the folder at `path` (of any length, see `openLong`) for reading its entries; nil when it cannot.
    static func openFolder(_ path: String) -> Int32? {
        let fd = openLong(Array(path.utf8), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }

    /// An input that could not be read.
    struct ReadError: Error, LocalizedError, Sendable {
        /// What the system said.
        var reason: String
        var errorDescription: String? { "could not read the file: \(reason)" }
    }
}
