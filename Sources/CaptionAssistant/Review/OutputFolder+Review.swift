import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `review` needs from the output folder besides writing: opening a file
/// to stream it, and tidying pages an earlier review left. Like every other
/// access through `OutputFolder`, these never follow a symbolic link.
extension OutputFolder {
    /// An open descriptor for the regular file at `relative` (the caller closes
    /// it), or nil when it is missing, not a regular file, or reached through a link.
    func openRegularFile(_ relative: String) -> Int32? {
        guard let parts = Self.safeParts(relative), let dir = try? openFolder(parts.dropLast(), create: false, for: relative) else {
            return nil
        }
        defer { close(dir) }
        let fd = openat(dir, parts[parts.count - 1], O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { close(fd); return nil }
        return fd
    }

    /// Removes, from the folder `relative` (never reached through a link), every
    /// entry whose name `isStale` accepts and that is not a folder. Returns how
    /// many were removed; a folder that is not there removes nothing.
    @discardableResult
    func removeEntries(in relative: String, where isStale: (String) -> Bool) -> Int {
        guard let parts = Self.safeParts(relative), let dir = try? openFolder(parts[...], create: false, for: relative) else { return 0 }
        defer { close(dir) }
        return AtomicFileWriter.removeEntries(inFolder: dir, where: isStale)
    }
}
