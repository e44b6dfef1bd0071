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
package enum FileInput {
    /// The largest input read (a caption file is far smaller; this keeps a
    /// mistaken multi-gigabyte input from exhausting memory).
    static let maximumSize = 1 << 30

    /// Reads the input `item` (a file of the plan) into one buffer (which the
    /// decoder keeps as is for UTF-8): opened by `openInput(_:)`, then checked by
    /// `read(descriptor:limit:)`, so only a regular file is read, and nothing
    /// can be swapped in between a check and the open.
    /// `folders`, when given, holds the searched folder open for the run.
    static func read(_ item: InputPlan.Item, folders: InputFolders? = nil) throws(ReadError) -> [UInt8] {
        let fd = try openInput(item, folders: folders)
        defer { close(fd) }
        return try read(descriptor: fd, limit: maximumSize)
    }

    /// Reads the file at `path` as a file named on its own is read (links
    /// followed: the user named it), with the same checks; caption-bench
    /// reads its inputs this way.
    package static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = try openNamed(Array(path.utf8))
        defer { close(fd) }
        return try read(descriptor: fd, limit: maximumSize)
    }

    /// Opens a file named on its own, by its path (any length), links followed.
    private static func openNamed(_ bytes: [UInt8]) throws(ReadError) -> Int32 {
        let fd = openLong(bytes, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        return fd
    }

    /// Opens the input `item` (a file of the plan) for reading, with
    /// `O_NONBLOCK`, so a FIFO (or a link to one) is refused by the reader at
    /// once instead of waiting forever for a writer. Every open of an input
    /// goes through here.
    ///
    /// A file named on its own is opened by its path, links followed: the
    /// user named it. A file found by searching a folder is opened from that
    /// folder (opened by the path the user gave), one name at a time with
    /// `O_NOFOLLOW` (see `InsideFolder`): a link met on the way, even one
    /// swapped in after the search, is followed only while it stays inside
    /// the folder, so what is opened is an entry of the folder the user
    /// named, whatever happened since the plan was made. The caller checks
    /// the descriptor's kind (`read(descriptor:limit:)` takes only a regular file).
    /// With `folders`, the searched folder is opened once for the run (`InputFolders`), not per file.
    static func openInput(_ item: InputPlan.Item, folders: InputFolders? = nil) throws(ReadError) -> Int32 {
        guard case .file(let path) = item.location else { throw ReadError(reason: "not a file of the plan") }
        let bytes = item.pathBytes ?? Array(path.utf8)
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        guard let length = item.searchedFolderLength, length < bytes.count else { return try openNamed(bytes) }
        let folder = Array(bytes[..<length])
        let names = bytes[(length + 1)...].split(separator: 0x2F, omittingEmptySubsequences: true).map(Array.init)
        let (top, kept) = folders?.descriptor(folder) ?? (openLong(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC), false)
        guard top >= 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        defer { if !kept { close(top) } }
        let text = String(decoding: folder, as: UTF8.self)
        let reached = InsideFolder.reach(names, below: top, startNames: [], top: top,
                                         topNames: { [PathText.canonical(text), PathText.absolute(text)] }) { dir, name in
            openat(dir, name, flags | O_NOFOLLOW)
        }
        switch reached {
        case .success(let fd): return fd
        case .failure(let failure): throw ReadError(reason: failure.reason)
        }
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

    /// Opens the folder at `path` (of any length, see `openLong`) for reading its entries; nil when it cannot.
    static func openFolder(_ path: String) -> Int32? {
        let fd = openLong(Array(path.utf8), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }

    /// An input that could not be read.
    package struct ReadError: Error, LocalizedError, Sendable {
        /// What the system said.
        var reason: String
        package var errorDescription: String? { "could not read the file: \(reason)" }
    }
}
