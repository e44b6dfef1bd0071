import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader (or a crash) never sees half of one.
///
/// On Linux the bytes go into an unnamed file in the target folder
/// (`O_TMPFILE`), which is given its name only once it is complete: if the
/// process is killed before that, nothing is left behind at all. (A target
/// that already exists is replaced by linking the complete file under a
/// hidden temporary name and renaming it over the target.) Where `O_TMPFILE`
/// is not available (another system, a file system without it), the bytes go
/// to a hidden temporary file in the same folder, which is then renamed over
/// the target (`rename` is atomic within one file system).
public enum AtomicFileWriter {
    /// Writes `data` to `path`, creating missing parent folders.
    public static func write(_ data: Data, to path: String) throws(WriteError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try makeFolder(folder, for: path) }
        #if os(Linux)
        if linkUnnamedFile(data, to: path, folder: folder.isEmpty ? "." : folder) { return }
        #endif
        try writeAndRename(data, to: path, folder: folder)
    }

    /// Creates `folder` and its parents if needed.
    static func makeFolder(_ folder: String, for path: String) throws(WriteError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw WriteError(path: path, reason: "\(folder) exists and is not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: path, reason: error.localizedDescription)
        }
    }

    #if os(Linux)
    /// `O_TMPFILE` is not imported into Swift; its value (`__O_TMPFILE | O_DIRECTORY`)
    /// is the same on every Linux architecture for `__O_TMPFILE`.
    private static let openTemporary: Int32 = 0o20000000 | O_DIRECTORY

    /// Writes through an unnamed file and links it in. When the target exists,
    /// the complete file is linked under a hidden temporary name and renamed
    /// over it, so even then no name ever shows partial content. False when
    /// the file system cannot do it (then the caller falls back).
    private static func linkUnnamedFile(_ data: Data, to path: String, folder: String) -> Bool {
        let fd = open(folder, openTemporary | O_WRONLY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard writeAll(fd, data) else { return false }
        let procPath = "/proc/self/fd/\(fd)"
        if linkat(AT_FDCWD, procPath, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 { return true }
        guard errno == EEXIST else { return false }
        let name = (path as NSString).lastPathComponent
        for attempt in 0..<100 {
            let temporary = folder + "/." + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(attempt)"
            if linkat(AT_FDCWD, procPath, AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 {
                if rename(temporary, path) == 0 { return true }
                unlink(temporary)
                return false
            }
            if errno != EEXIST { return false }
        }
        return false
    }
    #endif

    private static func writeAndRename(_ data: Data, to path: String, folder: String) throws(WriteError) {
        let name = (path as NSString).lastPathComponent
        let dir = folder.isEmpty ? "." : folder
        var fd: Int32 = -1
        var temporary = ""
        for attempt in 0..<100 {
            temporary = dir + "/." + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(attempt)"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let wrote = writeAll(fd, data)
        let error = errno
        close(fd)
        guard wrote else {
            unlink(temporary)
            throw WriteError(path: path, reason: String(cString: strerror(error)))
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            throw WriteError(path: path, reason: String(cString: strerror(error)))
        }
    }

    private static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard var p = raw.baseAddress else { return true }
            var left = raw.count
            while left > 0 {
                let n = Foundation.write(fd, p, left)
                if n < 0 { if errno == EINTR { continue }; return false }
                p += n
                left -= n
            }
            return true
        }
    }
}
