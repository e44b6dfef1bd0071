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
///
/// Temporary names are `.NAME.tmp-PID-RANDOM-N`, created with `O_EXCL` and
/// `O_NOFOLLOW`, so a symbolic link planted there cannot redirect the write;
/// a symbolic link at the target's own name is replaced, never followed.
/// A temporary name left by a killed process is removed by
/// `removeStaleTemporaryFiles(inFolder:)` (which `--resume` runs).
///
/// The rename path is the only one on Apple platforms; setting the
/// environment variable `CAPTION_ASSISTANT_WRITE_BY_RENAME=1` makes it the
/// only one on Linux too (for the output folder's probe and scratch file as
/// well: named files, removed at once), so that tests run it here.
package enum AtomicFileWriter {
    /// Whether every write takes the temporary-name-and-rename path
    /// (`CAPTION_ASSISTANT_WRITE_BY_RENAME=1`, read once), as on Apple platforms.
    static let writesByRename = ProcessInfo.processInfo.environment["CAPTION_ASSISTANT_WRITE_BY_RENAME"] == "1"

    /// Writes `data` to `path`, creating missing parent folders.
    package static func write<Bytes: ContiguousBytes & Collection<UInt8>>(_ data: Bytes, to path: String) throws(WriteError) {
        try inFolder(of: path) { dir throws(WriteError) in try write(data, named: PathText.lastComponent(of: path), inFolder: dir, path: path) }
    }

    /// Writes the file at `path` from `fill` (as `write(named:inFolder:path:fill:)`
    /// does), creating missing parent folders.
    static func write(to path: String, fill: (Int32) -> Bool) throws(WriteError) {
        try inFolder(of: path) { dir throws(WriteError) in try write(named: PathText.lastComponent(of: path), inFolder: dir, path: path, fill: fill) }
    }

    /// Writes the file a person named (`--report FILE`) from `fill`: as
    /// `write(to:fill:)` does when `path` is missing or a regular file; when
    /// it is a symbolic link to a regular file, that file is replaced
    /// atomically and the link stays; when it is (or links to) something else
    /// a shell could name, such as `/dev/stdout`, a pipe or a terminal, the
    /// bytes are written into it, since replacing it would put a regular
    /// file in its place (`/dev/stdout` for every process of the system).
    static func write(through path: String, fill: (Int32) -> Bool) throws(WriteError) {
        var own = stat()
        guard lstat(path, &own) == 0, (own.st_mode & S_IFMT) != S_IFREG else { return try write(to: path, fill: fill) }
        var target = stat()
        guard stat(path, &target) == 0 else {
            // A link to a file not made yet: the file it names is made.
            guard errno == ENOENT, (own.st_mode & S_IFMT) == S_IFLNK, let named = linkTarget(path) else {
                throw WriteError(path: path, reason: String(cString: strerror(errno)))
            }
            return try write(to: named, fill: fill)
        }
        switch target.st_mode & S_IFMT {
        case S_IFDIR:
            throw WriteError(path: path, reason: "it is a folder")
        case S_IFREG:
            guard let resolved = realpath(path, nil) else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
            defer { free(resolved) }
            try write(to: String(cString: resolved), fill: fill)
        default:
            let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
            defer { close(fd) }
            guard fill(fd) else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    /// The path the symbolic link `path` names (relative to the link's folder when the link is relative).
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let named = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return named.hasPrefix("/") ? named : (PathText.parent(of: path) ?? ".") + "/" + named
    }

    /// Runs `body` with the folder `path` lies in, open (created first when missing).
    private static func inFolder(of path: String, _ body: (Int32) throws(WriteError) -> Void) throws(WriteError) {
        let folder = PathText.parent(of: path) ?? "."
        if folder != "." { try makeFolder(folder, for: path) }
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(dir) }
        try body(dir)
    }

    /// Writes `data` as `name` in the open folder `dir`. `path` names the file in errors.
    /// `byRename` takes the temporary-name-and-rename path whatever the system offers (for tests).
    static func write<Bytes: ContiguousBytes & Collection<UInt8>>(_ data: Bytes, named name: String, inFolder dir: Int32, path: String,
                                                                 byRename: Bool = writesByRename) throws(WriteError) {
        try write(named: name, inFolder: dir, path: path, sameAs: data, byRename: byRename) { writeAll($0, data) }
    }

    /// Writes the file `name` in the open folder `dir` from `fill`, which
    /// writes the whole content into the descriptor it is given and returns
    /// false (with `errno` set) when it cannot. `fill` may be called a second
    /// time (on a fresh descriptor) when the first way of writing is not
    /// available, so it must write the same bytes each time.
    static func write(named name: String, inFolder dir: Int32, path: String, fill: (Int32) -> Bool) throws(WriteError) {
        try write(named: name, inFolder: dir, path: path, sameAs: nil as [UInt8]?, fill: fill)
    }

    private static func write<Bytes: Collection<UInt8>>(named name: String, inFolder dir: Int32, path: String, sameAs data: Bytes?,
                                                        byRename: Bool = writesByRename, fill: (Int32) -> Bool) throws(WriteError) {
        #if os(Linux)
        if !byRename, linkUnnamedFile(named: name, inFolder: dir, sameAs: data, fill: fill) { return }
        #endif
        if let data, holdsAlready(data, named: name, inFolder: dir) { return }
        try writeAndRename(named: name, inFolder: dir, path: path, fill: fill)
    }

    /// Creates `folder` and its parents if needed.
    static func makeFolder(_ folder: String, for path: String) throws(WriteError) {
        guard OutputFolder.makeFolders(folder) else {
            var info = stat()
            let reason = stat(folder, &info) == 0 ? "\(folder) exists and is not a folder" : String(cString: strerror(errno))
            throw WriteError(path: path, reason: reason)
        }
    }

    /// Whether `name` is already a regular file holding exactly `data`; if so
    /// its modification time is brought up to now (as a rewrite would), and
    /// nothing else is done. A run that redoes a file (`--resume` after a kill)
    /// then never needs a temporary name for it.
    private static func holdsAlready(_ data: some Collection<UInt8>, named name: String, inFolder dir: Int32) -> Bool {
        var info = stat()
        guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              Int(info.st_size) == data.count else { return false }
        let fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard holds(fd, data) else { return false }
        return futimens(fd, nil) == 0
    }

    /// Whether what is left to read from `fd` is exactly `data`: read and
    /// compared 64 KiB at a time, so a large file is never held whole beside
    /// `data` (a rerun into the same folder held a second copy of each
    /// output). Compared as memory where `data` is contiguous (whatever its
    /// type: a caller in another module calls this unspecialised, where an
    /// element-by-element walk cost 1.1 s for 17.6 MB), element by element otherwise.
    static func holds(_ fd: Int32, _ data: some Collection<UInt8>) -> Bool {
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var rest = data[...]
        while true {
            let n = block.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            if n == 0 { return rest.isEmpty }
            let head = rest.prefix(n)
            let same = block.withUnsafeBufferPointer { read in
                head.withContiguousStorageIfAvailable { want in
                    guard want.count == n, let x = want.baseAddress, let y = read.baseAddress else { return false }
                    return memcmp(x, y, n) == 0
                } ?? head.elementsEqual(read.prefix(n))
            }
            guard same else { return false }
            rest = rest.dropFirst(n)
        }
    }

    /// A fresh temporary name for `name`.
    ///
    /// It always fits `NAME_MAX` (255 bytes), whatever the length of `name`:
    /// the name's part is cut (at a character boundary) so that the suffix
    /// fits; the suffix alone identifies the file (`isStaleTemporaryName`).
    static func temporaryName(for name: String, attempt: Int) -> String {
        let suffix = ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(attempt)"
        return "." + prefix(of: name, maxBytes: Int(NAME_MAX) - 1 - suffix.utf8.count) + suffix
    }

    /// The longest start of `name` of at most `maxBytes` UTF-8 bytes that ends on a character boundary.
    static func prefix(of name: String, maxBytes: Int) -> String {
        guard name.utf8.count > maxBytes else { return name }
        var result = ""
        var used = 0
        for scalar in name.unicodeScalars {
            let size = String(scalar).utf8.count
            if used + size > maxBytes { break }
            result.unicodeScalars.append(scalar)
            used += size
        }
        return result
    }

    /// The process id in `entry` when it has the form of a temporary name
    /// this writer makes (`.NAME.tmp-PID-RANDOM-N`); nil otherwise.
    static func temporaryNamePID(_ entry: String) -> Int32? {
        guard entry.hasPrefix("."), let marker = entry.range(of: ".tmp-", options: .backwards) else { return nil }
        let parts = entry[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let pid = Int32(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// Whether `entry` is a temporary name this writer makes, left by a process
    /// that no longer runs (so it is safe to remove).
    static func isStaleTemporaryName(_ entry: String) -> Bool {
        guard let pid = temporaryNamePID(entry) else { return false }
        if pid == getpid() { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes the temporary files that killed runs left in the open folder
    /// `dir` (only names this writer makes, of processes that have ended).
    /// Returns how many were removed.
    @discardableResult
    static func removeStaleTemporaryFiles(inFolder dir: Int32) -> Int {
        removeEntries(inFolder: dir, where: isStaleTemporaryName)
    }

    /// Removes every entry of the open folder `dir` whose name `isStale`
    /// accepts, except folders (`unlinkat` without `AT_REMOVEDIR`); returns how
    /// many were removed.
    static func removeEntries(inFolder dir: Int32, where isStale: (String) -> Bool) -> Int {
        let copy = dup(dir)
        guard copy >= 0 else { return 0 }
        guard let stream = fdopendir(copy) else { close(copy); return 0 }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." && isStale(name) { names.append(name) }
        }
        closedir(stream)
        return names.filter { unlinkat(dir, $0, 0) == 0 }.count
    }

    #if os(Linux)
    /// `O_TMPFILE` is not imported into Swift; its value (`__O_TMPFILE | O_DIRECTORY`)
    /// is the same on every Linux architecture for `__O_TMPFILE`.
    static let openTemporary: Int32 = 0o20000000 | O_DIRECTORY

    /// Writes through an unnamed file and links it in. When the target
    /// exists and holds exactly `data` already, it is left as it is (see
    /// `holdsAlready`); otherwise the complete file is linked under a hidden
    /// temporary name and renamed over it, so even then no name ever shows
    /// partial content. (Linking first and looking only when the name is
    /// taken spares a fresh output folder one `stat` per file.) False when the
    /// file system cannot do it (then the caller falls back).
    private static func linkUnnamedFile<Bytes: Collection<UInt8>>(named name: String, inFolder dir: Int32, sameAs data: Bytes?,
                                                                  fill: (Int32) -> Bool) -> Bool {
        let fd = openat(dir, ".", openTemporary | O_WRONLY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard fill(fd) else { return false }
        let procPath = "/proc/self/fd/\(fd)"
        if link(fd, procPath, dir, name) { return true }
        guard errno == EEXIST else { return false }
        if let data, holdsAlready(data, named: name, inFolder: dir) { return true }
        for attempt in 0..<100 {
            let temporary = temporaryName(for: name, attempt: attempt)
            if link(fd, procPath, dir, temporary) {
                if renameat(dir, temporary, dir, name) == 0 { return true }
                unlinkat(dir, temporary, 0)
                return false
            }
            if errno != EEXIST { return false }
        }
        return false
    }

    /// Whether linking by descriptor (`AT_EMPTY_PATH`, which older kernels
    /// allow only with `CAP_DAC_READ_SEARCH`) works; cleared the first time it
    /// is refused. (A race on it only costs a refused call.)
    nonisolated(unsafe) private static var linksByDescriptor = true

    /// Gives the unnamed file `fd` the name `name` in `dir`: by descriptor
    /// where allowed (no path walk through `/proc` for every file), else
    /// through `procPath`. On failure `errno` is the last call's.
    private static func link(_ fd: Int32, _ procPath: String, _ dir: Int32, _ name: String) -> Bool {
        if linksByDescriptor {
            if linkat(fd, "", dir, name, 0x1000 /* AT_EMPTY_PATH */) == 0 { return true }
            guard errno == ENOENT || errno == EPERM || errno == EINVAL else { return false }
            // Refused, or the folder is gone: the path through /proc tells which.
            let linked = linkat(AT_FDCWD, procPath, dir, name, AT_SYMLINK_FOLLOW) == 0
            if linked { linksByDescriptor = false }
            return linked
        }
        return linkat(AT_FDCWD, procPath, dir, name, AT_SYMLINK_FOLLOW) == 0
    }
    #endif

    private static func writeAndRename(named name: String, inFolder dir: Int32, path: String, fill: (Int32) -> Bool) throws(WriteError) {
        var fd: Int32 = -1
        var temporary = ""
        for attempt in 0..<100 {
            temporary = temporaryName(for: name, attempt: attempt)
            fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let wrote = fill(fd)
        let error = errno
        close(fd)
        guard wrote else {
            unlinkat(dir, temporary, 0)
            throw WriteError(path: path, reason: String(cString: strerror(error)))
        }
        guard renameat(dir, temporary, dir, name) == 0 else {
            let error = errno
            unlinkat(dir, temporary, 0)
            throw WriteError(path: path, reason: String(cString: strerror(error)))
        }
    }

    /// Writes all of `data` to `fd`; false (with `errno` set) when it cannot.
    static func writeAll(_ fd: Int32, _ data: some ContiguousBytes) -> Bool {
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
