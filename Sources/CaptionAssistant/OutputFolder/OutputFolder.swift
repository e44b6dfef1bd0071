import Assistant
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The output folder, opened once; every file the batch writes goes through
/// it and cannot land outside it.
///
/// The folder named with `-o` is created if needed and may itself be (or lie
/// under) a symbolic link: the user chose it. Below it, paths are checked
/// (no absolute paths, no `..`, `.` or empty parts) and walked one folder at a
/// time with `O_NOFOLLOW`, so a symbolic link inside the output folder (left
/// there by anyone) is never followed: writing through it fails with an
/// error in that file's report instead. A link at a file's own name is
/// replaced, not followed (see `AtomicFileWriter`).
package final class OutputFolder: @unchecked Sendable {
    /// The folder as the user named it (used in messages).
    let path: String
    private let descriptor: Int32
    /// The folder's device and inode, as recorded in `heldHere` while this object lives.
    private let heldIdentity: FolderIdentity?
    /// Whether the folder held no entry when it was opened and locked (a
    /// folder this run made, or an empty one): no earlier run left an output
    /// in it, so `EarlierOutput` need not look for one, file by file.
    let startedEmpty: Bool

    /// Creates the folder (and its parents) if needed, opens it and checks
    /// that files can be created in it, by creating one that is removed at once
    /// (`access` alone is not enough: it ignores read-only file systems' and
    /// root's rules differ). Throws `OutputFolderError` when it cannot.
    ///
    /// The folder is locked for this object's life (`lock`): exclusively, or
    /// shared by the shards of one sharded run (`process --shard`), which
    /// write disjoint files and each its own report part into one folder at
    /// once. Shards exclude a plain run and `merge`, and the other way round,
    /// and shards of another run (other inputs, options or shard count).
    init(path: String, lock: FolderLock = .exclusive) throws(OutputFolderError) {
        self.path = path
        switch Self.kind(path) {
        case .folder: break
        case .other: throw OutputFolderError(path: path, reason: "it is an existing file, not a folder",
                                             remedy: "choose a folder with \(.outputFolder) (a new or existing folder, not a file)")
        case .missing:
            if !Self.makeFolders(path) { throw OutputFolderError(path: path, reason: Self.creationFailure(path)) }
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFolderError(path: path, reason: String(cString: strerror(errno))) }
        if let problem = Self.probe(fd) {
            close(fd)
            throw OutputFolderError(path: path, reason: problem)
        }
        // One run at a time per output folder: two runs writing the same names
        // would leave captions paired with the other run's sidecars. The lock
        // (on the folder itself, so no lock file is left behind even after a
        // SIGKILL) is held as long as this object lives.
        // A file system that cannot lock at all (some FUSE ones) is used unlocked, as before.
        if let refusal = Self.takeLock(fd, lock) {
            let error = refusal.error(path: path, holder: Self.lockHolder(fd))
            close(fd)
            throw error
        }
        let identity = FolderIdentity(fd)
        identity.map(Self.heldHere.add)
        startedEmpty = Self.holdsNoEntry(fd)
        // Set last: an initializer that throws after this would run `deinit`, which closes it.
        (descriptor, heldIdentity) = (fd, identity)
    }

    deinit {
        heldIdentity.map(Self.heldHere.remove)
        close(descriptor)
    }

    /// Checks, without creating anything, that the folder `path` could be
    /// created and written: the folder itself when it exists, else the nearest
    /// folder above it that exists (a file on the way is an error). Throws
    /// `OutputFolderError` when it could not.
    package static func checkWritable(_ path: String) throws(OutputFolderError) {
        var existing = path
        var found = kind(existing)
        while found == .missing, let parent = PathText.parent(of: existing) {
            existing = parent
            found = kind(existing)
        }
        guard found == .folder else {
            // Making it writable would not help: a file is in the way.
            throw OutputFolderError(path: path, reason: existing == path ? "it is an existing file, not a folder"
                                    : found == .missing ? "no folder on the way to it exists" : "\(existing) is a file, not a folder",
                                    remedy: "choose a folder with \(.outputFolder) (a new or existing folder, not a file)")
        }
        let fd = open(existing, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFolderError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        if let problem = probe(fd) {
            if existing == path { throw OutputFolderError(path: path, reason: problem) }
            // A parent that exists but where nothing can be made (/proc, a read-only mount): say that, not only errno's words.
            throw OutputFolderError(path: path, reason: "it does not exist, and \(existing) does not let a folder be made in it (\(problem))",
                                    remedy: "choose another folder with \(.outputFolder)")
        }
    }

    /// What is at `path` (links followed).
    private enum Kind { case missing, folder, other }

    private static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .other
    }

    /// Creates `path` and the folders above it that are missing (`mkdir -p`),
    /// by plain path arithmetic (see `PathText`). False when it could not.
    static func makeFolders(_ path: String) -> Bool {
        var missing: [String] = []
        var next: String? = path
        while let current = next, kind(current) == .missing {
            missing.append(current)
            next = PathText.parent(of: current)
        }
        for folder in missing.reversed() where mkdir(folder, 0o755) != 0 {
            guard errno == EEXIST, kind(folder) == .folder else { return false }
        }
        return kind(path) == .folder
    }

    /// Why `path` could not be created: the first part of it that exists and is not a folder, or the system's reason.
    private static func creationFailure(_ path: String) -> String {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in PathText.parts(path) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            switch kind(prefix) {
            case .other: return "\(prefix) is a file, not a folder"
            case .folder: continue
            case .missing: break
            }
            break
        }
        if let parent = PathText.parent(of: path), access(parent, W_OK | X_OK) != 0 { return String(cString: strerror(errno)) }
        return "the folder could not be created"
    }

    /// Why the folder `path` cannot be used by this run now, if another run
    /// holds its lock (see `init`); nil when it is free or does not exist.
    /// A check before any work: the lock itself is taken by `init`.
    /// `lock` asks as `init` would take it.
    package static func inUse(_ path: String, lock: FolderLock = .exclusive) -> OutputFolderError? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        // Closing it lets go of every lock taken on it.
        defer { close(fd) }
        return takeLock(fd, lock)?.error(path: path, holder: lockHolder(fd))
    }

    /// The process that holds a `flock` on the open folder `fd`, from
    /// `/proc/locks` (Linux); nil when it cannot be told.
    static func lockHolder(_ fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let device = UInt(info.st_dev)
        // glibc's major/minor encoding of a dev_t.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt(0xff))
        let wanted = String(format: "%02lx:%02lx:%lu", major, minor, UInt(info.st_ino))
        for line in table.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 12345 fe:00:1234567 0 EOF" ("->" marks a waiter)
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", !fields.contains("->") else { continue }
            if fields[5] == wanted, let pid = Int32(fields[4]), pid != getpid() { return pid }
        }
        return nil
    }

    /// Whether the open folder `fd` has no entry but `.` and `..` (false when it cannot be read).
    private static func holdsNoEntry(_ fd: Int32) -> Bool {
        let copy = dup(fd)
        guard copy >= 0 else { return false }
        guard let stream = fdopendir(copy) else { close(copy); return false }
        // The copy shares the folder's read position: put it back at the start for the next reader of the folder.
        defer { rewinddir(stream); closedir(stream) }
        while let entry = readdir(stream) {
            let isDots = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name[0] == 0x2E && (name[1] == 0 || name[1] == 0x2E && name[2] == 0)
            }
            if !isDots { return false }
        }
        return true
    }

    /// nil when a file can be created in the open folder `fd`; otherwise why not.
    private static func probe(_ fd: Int32) -> String? {
        // A full disk still lets an empty file be created: ask for room, and write a block.
        var space = statvfs()
        if fstatvfs(fd, &space) == 0, space.f_bavail == 0 { return String(cString: strerror(ENOSPC)) }
        #if os(Linux)
        // (Forced off with the other unnamed files by `AtomicFileWriter.writesByRename`, so tests run the named way.)
        let unnamed = AtomicFileWriter.writesByRename ? -1 : openat(fd, ".", AtomicFileWriter.openTemporary | O_WRONLY | O_CLOEXEC, 0o600)
        if unnamed >= 0 {
            defer { close(unnamed) }
            return writesABlock(unnamed)
        }
        if !AtomicFileWriter.writesByRename, errno == EACCES || errno == EROFS || errno == EPERM || errno == ENOSPC || errno == EDQUOT {
            return String(cString: strerror(errno))
        }
        #endif
        let name = ".caption-assistant-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let named = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard named >= 0 else { return String(cString: strerror(errno)) }
        let problem = writesABlock(named)
        close(named)
        unlinkat(fd, name, 0)
        return problem
    }

    /// nil when a block of bytes can be written to the new file `fd`; otherwise why not (a full disk, a quota).
    private static func writesABlock(_ fd: Int32) -> String? {
        let block = [UInt8](repeating: 0, count: 4096)
        return AtomicFileWriter.writeAll(fd, block) ? nil : String(cString: strerror(errno))
    }

    /// The parts of a relative output path, or nil when it could point
    /// outside the folder (absolute, `..`, `.`, empty parts, NUL).
    ///
    /// Cut at every `/` byte, as the system reads the path: a `/` followed
    /// by a combining mark is one `Character` to Swift (`"/\u{301}"`), and a
    /// part cut by characters would hold a `/`, which `openat` would follow
    /// through a folder (or a link) never checked.
    static func safeParts(_ relative: String) -> [String]? {
        let bytes = relative.utf8
        guard !bytes.isEmpty, bytes.first != 0x2F, !bytes.contains(0) else { return nil }
        // Most outputs are one name (a file at the top): no cutting.
        guard bytes.contains(0x2F) else { return isSafePart(bytes[...]) ? [relative] : nil }
        let parts = bytes.split(separator: 0x2F, omittingEmptySubsequences: false)
        guard parts.allSatisfy(isSafePart) else { return nil }
        return parts.map { String(Substring($0)) }
    }

    /// Whether one part of a path is a name: not empty, `.` or `..` (compared as bytes).
    private static func isSafePart(_ part: Substring.UTF8View) -> Bool {
        !part.isEmpty && !part.elementsEqual(".".utf8) && !part.elementsEqual("..".utf8)
    }

    /// Opens the folder `parts` below this one, creating missing folders when
    /// `create` is set, never following a symbolic link. The caller closes it.
    func openFolder(_ parts: ArraySlice<String>, create: Bool, for relative: String) throws(WriteError) -> Int32 {
        var current = dup(descriptor)
        guard current >= 0 else { throw WriteError(path: path + "/" + relative, reason: String(cString: strerror(errno))) }
        var walked = path
        for part in parts {
            walked += "/" + part
            var next = openat(current, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && create {
                if mkdirat(current, part, 0o755) != 0 && errno != EEXIST {
                    let reason = String(cString: strerror(errno))
                    close(current)
                    throw WriteError(path: path + "/" + relative, reason: reason)
                }
                next = openat(current, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let error = errno
                var info = stat()
                let isLink = fstatat(current, part, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
                close(current)
                let reason = isLink || error == ELOOP
                    ? "\(walked) is a symbolic link; files are never written through links inside the output folder"
                    : error == ENOTDIR ? "\(walked) exists and is not a folder" : String(cString: strerror(error))
                throw WriteError(path: path + "/" + relative, reason: reason)
            }
            close(current)
            current = next
        }
        return current
    }

    /// Writes `data` atomically at `relative` (for example `s1/ep1.srt`)
    /// inside the folder, creating the folders on the way.
    func write<Bytes: ContiguousBytes & Collection<UInt8>>(_ data: Bytes, to relative: String) throws(WriteError) {
        try inFolder(of: relative) { (dir, name) throws(WriteError) in
            try AtomicFileWriter.write(data, named: name, inFolder: dir, path: path + "/" + relative)
        }
    }

    /// Writes the file at `relative` atomically from `fill`, which writes the
    /// whole content into the descriptor it is given (see
    /// `AtomicFileWriter.write(named:inFolder:path:fill:)`).
    func write(to relative: String, fill: (Int32) -> Bool) throws(WriteError) {
        try inFolder(of: relative) { (dir, name) throws(WriteError) in
            try AtomicFileWriter.write(named: name, inFolder: dir, path: path + "/" + relative, fill: fill)
        }
    }

    /// Runs `body` with the open folder that holds `relative` (created when
    /// missing) and the file's own name. A file at the top uses the folder's
    /// own descriptor: no copy to make and close for each of them.
    private func inFolder(of relative: String, _ body: (Int32, String) throws(WriteError) -> Void) throws(WriteError) {
        guard let parts = Self.safeParts(relative) else {
            throw WriteError(path: relative, reason: "the path would lead outside the output folder \(path)")
        }
        if parts.count == 1 { return try body(descriptor, parts[0]) }
        let dir = try openFolder(parts.dropLast(), create: true, for: relative)
        defer { close(dir) }
        try body(dir, parts[parts.count - 1])
    }

    /// A new file with no name in the output folder, open for reading and
    /// writing, that disappears when closed (the caller closes it): scratch
    /// space on the output's own disk. nil when none can be made.
    func makeScratchFile() -> Int32? {
        #if os(Linux)
        let unnamed = AtomicFileWriter.writesByRename ? -1 : openat(descriptor, ".", AtomicFileWriter.openTemporary | O_RDWR | O_CLOEXEC, 0o600)
        if unnamed >= 0 { return unnamed }
        #endif
        for attempt in 0..<100 {
            let name = AtomicFileWriter.temporaryName(for: "report.json", attempt: attempt)
            let fd = openat(descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 {
                unlinkat(descriptor, name, 0)
                return fd
            }
            if errno != EEXIST { return nil }
        }
        return nil
    }

    /// Information about the regular file at `relative`, or nil when there is
    /// none (missing, a link, a folder, or a folder on the way is a link).
    func regularFileStatus(_ relative: String) -> stat? {
        guard let parts = Self.safeParts(relative) else { return nil }
        var info = stat()
        // A file at the top is looked up in the folder's own descriptor: no copy to make and close (a run
        // with no model asks this of every output, whose sidecar is usually not there yet).
        if parts.count == 1 {
            guard fstatat(descriptor, parts[0], &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return info
        }
        guard let dir = try? openFolder(parts.dropLast(), create: false, for: relative) else { return nil }
        defer { close(dir) }
        guard fstatat(dir, parts[parts.count - 1], &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return nil
        }
        return info
    }

    /// The bytes of the regular file at `relative` (never through a link), if
    /// it is there and at most `limit` bytes long.
    /// A FIFO at that name is never waited on (see `openRegularFile`).
    func read(_ relative: String, limit: Int) -> [UInt8]? {
        guard let fd = openRegularFile(relative) else { return nil }
        defer { close(fd) }
        return try? FileInput.read(descriptor: fd, limit: limit)
    }

    /// Removes the file `name` at the top of the folder (never a folder, and
    /// a link is removed, not followed). False, with `errno` set, when it cannot.
    func removeFile(_ name: String) -> Bool {
        guard let parts = Self.safeParts(name), parts.count == 1 else { errno = EINVAL; return false }
        return unlinkat(descriptor, name, 0) == 0
    }

    /// Removes temporary files that killed runs left in the folders that hold
    /// `relatives` (see `AtomicFileWriter.removeStaleTemporaryFiles`).
    @discardableResult
    func removeStaleTemporaryFiles(besides relatives: [String]) -> Int {
        var folders = Set<[String]>()
        for relative in relatives {
            if let parts = Self.safeParts(relative) { folders.insert(Array(parts.dropLast())) }
        }
        var removed = 0
        for folder in folders {
            guard let dir = try? openFolder(folder[...], create: false, for: folder.joined(separator: "/")) else { continue }
            removed += AtomicFileWriter.removeStaleTemporaryFiles(inFolder: dir)
            close(dir)
        }
        return removed
    }
}
