import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A depth-first walk of the folders below one open folder that opens each
/// folder once, relative to the folder it lies in and never through a
/// symbolic link (`O_NOFOLLOW`): the walk costs the same per folder at any
/// depth, a path longer than `PATH_MAX` included, and a folder replaced by a
/// link while the walk runs is not entered.
///
/// The descriptors of the folders on the way down are held, so the walk
/// goes back up without opening anything: at most `heldLimit` of them, plus
/// the top folder's. Deeper than that, the shallowest one held is closed
/// (after noting its device and inode); when the walk comes back up to a
/// closed folder that still has subfolders to enter, it opens it again from
/// the deepest folder still held, going up with `..` (never a link), and
/// checks it is the same folder. Every folder is so opened at most twice,
/// and the walk never holds more than `heldLimit + 3` descriptors (the top
/// folder's, the held ones, two while going up), whatever the depth; the
/// walk is done before the batch starts, so `--jobs` does not multiply it.
final class FolderWalk {
    /// The most folder descriptors held below the top folder (64: far deeper
    /// than real caption trees, a small share of the usual limit of 1,024
    /// open files).
    static let heldLimit = 64

    #if canImport(Darwin)
    /// An open folder stream (`DIR *`).
    typealias Stream = UnsafeMutablePointer<DIR>
    #else
    /// An open folder stream (`DIR *`).
    typealias Stream = OpaquePointer
    #endif

    /// One folder on the way down.
    private struct Frame {
        /// Its descriptor, or -1 while it is closed (see `heldLimit`).
        var fd: Int32
        /// The stream its entries were read from (it owns `fd`), nil once reopened.
        var stream: Stream?
        /// Its name in the folder above ([] for the top folder).
        var name: [UInt8]
        /// Its device and inode, noted when it is closed early.
        var identity: (dev: UInt64, ino: UInt64)?
        /// The subfolders still to enter, the next one last.
        var pending: [[UInt8]]
    }

    /// The folders from the top down to the one being read.
    private var stack: [Frame] = []
    /// The shallowest frame below the top whose descriptor is held; the frames from here down all are.
    private var lowestHeld = 1
    /// `relativePath()` of the folder being read, once asked for.
    private var cachedPath: String?

    /// How many folders the walk opened (reopenings included), for tests and benchmarks.
    private(set) var foldersOpened = 0
    /// The most descriptors the walk held at once, the top folder's included.
    private(set) var mostHeld = 0
    /// The folders (paths relative to the top) whose subfolders were not all
    /// walked because the folder was moved or replaced while the walk ran.
    private(set) var unfinished: [String] = []
    /// The subfolders (paths relative to the top) that could not be opened
    /// (no permission to read or search them, or replaced by something that
    /// is not a folder since they were listed), each with the system's
    /// `errno`: never entered, and never passed over in silence.
    private(set) var unopened: [(path: String, error: Int32)] = []

    /// The top folder's descriptor, which the walk owns (closed when `run` returns).
    let top: Int32

    /// A walk below the open folder `top`, which it takes over.
    init(top: Int32) { self.top = top }

    /// Walks every folder below `top`, `top` included, depth first, and
    /// closes every descriptor it opened, `top`'s included.
    /// `visit(stream, fd)` reads the folder's entries from `stream` (and may
    /// open them relative to `fd`) and returns the names of the subfolders
    /// to enter; both are valid only during the call.
    func run(_ visit: (Stream, Int32) -> [[UInt8]]) {
        guard let stream = fdopendir(top) else { close(top); return }
        stack = [Frame(fd: top, stream: stream, name: [], pending: [])]
        mostHeld = 1
        stack[0].pending = visit(stream, top).reversed()
        while !stack.isEmpty {
            let last = stack.count - 1
            if let name = stack[last].pending.popLast() {
                enter(name, visit)
                continue
            }
            // This folder is done, and so is every folder above it with nothing left to enter.
            var done: [Frame] = [stack.removeLast()]
            while let above = stack.last, above.pending.isEmpty { done.append(stack.removeLast()) }
            if let reached = stack.indices.last, stack[reached].fd < 0 { reopen(reached, from: done) }
            for frame in done { release(frame) }
            lowestHeld = min(lowestHeld, max(1, stack.count))
        }
    }

    /// Opens the subfolder `name` of the folder being read, reads it, and goes down into it when it has subfolders.
    private func enter(_ name: [UInt8], _ visit: (Stream, Int32) -> [[UInt8]]) {
        var error: Int32 = 0
        let fd = InsideFolder.cString(name) {
            let fd = openat(stack[stack.count - 1].fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            error = errno
            return fd
        }
        guard fd >= 0 else {
            // Gone since it was listed: nothing left to search. Anything else is named.
            if error != ENOENT { unopened.append((path(of: name), error)) }
            return
        }
        foldersOpened += 1
        guard let stream = fdopendir(fd) else {
            unopened.append((path(of: name), errno))
            close(fd)
            return
        }
        stack.append(Frame(fd: fd, stream: stream, name: name, pending: []))
        cachedPath = nil
        if stack.count - lowestHeld > Self.heldLimit {
            // Too deep to hold every folder: close the shallowest held one, noting what it was.
            var info = stat()
            if fstat(stack[lowestHeld].fd, &info) == 0 {
                stack[lowestHeld].identity = (UInt64(info.st_dev), UInt64(info.st_ino))
            }
            release(stack[lowestHeld])
            stack[lowestHeld].fd = -1
            stack[lowestHeld].stream = nil
            lowestHeld += 1
        }
        mostHeld = max(mostHeld, stack.count - lowestHeld + 1)
        let subfolders = visit(stream, fd)
        cachedPath = nil
        if subfolders.isEmpty {
            release(stack.removeLast())
        } else {
            stack[stack.count - 1].pending = subfolders.reversed()
        }
    }

    /// Opens the closed frame `index` again, going up with `..` from the
    /// shallowest held frame among `done` (the frames just finished below
    /// it), and checks that it is the same folder (device and inode). When
    /// it is not (a folder on the way was moved meanwhile), it is looked for
    /// once more from the top folder by its names; when that fails too (it
    /// was moved or replaced), its remaining subfolders are not walked and
    /// the folder is listed in `unfinished`.
    private func reopen(_ index: Int, from done: [Frame]) {
        var current: Int32 = -1
        if let start = done.lastIndex(where: { $0.fd >= 0 }) {
            // `done` runs from the deepest frame up, ending just below `index`: its element k is `done.count - k` below it.
            let steps = done.count - start
            current = dup(done[start].fd)
            for _ in 0..<steps where current >= 0 {
                let up = openat(current, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                close(current)
                current = up
            }
            foldersOpened += steps
        }
        if !isFrame(index, current) {
            if current >= 0 { close(current) }
            current = stack[0].fd
            for frame in stack[1...index] {
                let next = InsideFolder.cString(frame.name) { openat(current, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                if current != stack[0].fd { close(current) }
                current = next
                foldersOpened += 1
                if current < 0 { break }
            }
        }
        if isFrame(index, current) {
            stack[index].fd = current
            lowestHeld = index
            return
        }
        if current >= 0 { close(current) }
        unfinished.append(relativePath(through: index))
        stack[index].pending = []
    }

    /// Whether the open folder `fd` is the one frame `index` was (its device and inode).
    private func isFrame(_ index: Int, _ fd: Int32) -> Bool {
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0, let identity = stack[index].identity else { return false }
        return identity == (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Closes a frame's descriptor, if held.
    private func release(_ frame: Frame) {
        if let stream = frame.stream { closedir(stream) } else if frame.fd >= 0 { close(frame.fd) }
    }

    /// The names from the top folder down to the folder being read.
    func names() -> [[UInt8]] { stack.dropFirst().map(\.name) }

    /// The path of the folder being read relative to the top folder, names
    /// joined with `/` ("" for the top folder). Names that are not UTF-8 are
    /// never entered, so the text is exact.
    func relativePath() -> String {
        if let cachedPath { return cachedPath }
        let path = relativePath(through: stack.count - 1)
        cachedPath = path
        return path
    }

    /// The path relative to the top folder of the entry `name` of the folder being read.
    private func path(of name: [UInt8]) -> String {
        let folder = relativePath(through: stack.count - 1)  // not the cache: it may name a folder already left
        let entry = String(decoding: name, as: UTF8.self)
        return folder.isEmpty ? entry : folder + "/" + entry
    }

    private func relativePath(through index: Int) -> String {
        guard index >= 1 else { return "" }
        var bytes: [UInt8] = []
        for frame in stack[1...index] {
            if !bytes.isEmpty { bytes.append(0x2F) }
            bytes += frame.name
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
