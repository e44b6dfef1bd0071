import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reaching an entry inside a folder the user named, from that folder's own
/// open descriptor, one name at a time, without ever leaving it.
///
/// Every name is opened relative to the folder before it with `O_NOFOLLOW`,
/// so what is reached is decided by the descriptors held, not by a path
/// looked up again later: a file replaced by a symbolic link after the folder
/// was searched, or a folder on the way replaced by one, cannot lead the
/// open elsewhere. A symbolic link met on the way is followed only while it
/// stays inside the folder: its target is read (`readlinkat`) and walked the
/// same way from where the link lies (from the folder itself for an absolute
/// target that names a place inside it); a `..` above the folder, or an
/// absolute target elsewhere, refuses the entry. This is what the kernel's
/// `RESOLVE_BENEATH` does, done here so it also works where `openat2` is missing.
enum InsideFolder {
    /// Why an entry was not reached.
    enum Failure: Error, Equatable {
        /// A symbolic link on the way leads out of the folder: the entry's
        /// own name (`atEntry`) or a folder on its path.
        case leavesFolder(atEntry: Bool)
        /// A symbolic link whose target does not exist (`errno`).
        case missingTarget(Int32)
        /// More links than a path may have (`ELOOP`): a loop.
        case tooManyLinks
        /// The system refused (`errno`): the entry or a folder on the way is missing, not readable, not a folder.
        case system(Int32)

        /// The reason, as a sentence fragment for a report (after "not read: " or "could not read the file: ").
        var reason: String {
            switch self {
            case .leavesFolder(atEntry: true):
                return "this is a symbolic link to a file outside the input folder, which is never followed; name the file itself to process it"
            case .leavesFolder(atEntry: false):
                return "a folder on its path is a symbolic link that leads outside the input folder, which is never followed; name the file itself to process it"
            case .missingTarget(let error):
                return "this is a symbolic link whose target cannot be found (\(String(cString: strerror(error))))"
            case .tooManyLinks:
                return String(cString: strerror(ELOOP))
            case .system(let error):
                return String(cString: strerror(error))
            }
        }
    }

    /// The most links followed for one entry, as Linux allows (`MAXSYMLINKS`).
    static let maximumLinks = 40

    /// Reaches `names` (each one entry name, no `/`) below the folder
    /// `start`, whose own names from the top folder `top` are `startNames`,
    /// and tries `final` on the last one.
    ///
    /// `final(folder, name)` acts on the entry `name` of the open folder
    /// `folder` without following a link there (`openat` with `O_NOFOLLOW`,
    /// `fstatat` with `AT_SYMLINK_NOFOLLOW`) and returns a value of at least
    /// 0, or -1 with `errno` set; `ELOOP` means "this is a link" (as
    /// `O_NOFOLLOW` says), and the link is then followed when it stays inside.
    /// `topNames` gives the absolute paths that name `top` (its real path,
    /// and the absolute form of the path the user gave), for links whose
    /// target is absolute; it is asked only for those.
    ///
    /// No descriptor is left open but what `final` returns. `start` and `top`
    /// stay the caller's.
    static func reach(_ names: [[UInt8]], below start: Int32, startNames: [[UInt8]], top: Int32,
                      topNames: () -> [String], final: (Int32, UnsafePointer<CChar>) -> Int32) -> Result<Int32, Failure> {
        var current = start  // never closed when it is `start` or `top`
        var position = startNames  // `current`'s names from `top`
        var pending = Array(names.reversed())  // what is left to reach, last first
        var links = 0
        var atEntry = true  // whether every link met so far was the entry itself (for the message)
        func release() { if current != start && current != top { close(current) } }
        defer { release() }

        while let name = pending.popLast() {
            if name.isEmpty || name == [0x2E] { continue }
            if name == [0x2E, 0x2E] {
                guard !position.isEmpty else { return .failure(.leavesFolder(atEntry: atEntry)) }
                position.removeLast()
                // Back up by walking down again from the top: `..` itself is never opened.
                var again = top
                for part in position {
                    let next = cString(part) { openat(again, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                    let error = errno
                    if again != top { close(again) }
                    guard next >= 0 else { return .failure(.system(error)) }
                    again = next
                }
                release()
                current = again
                continue
            }
            let isLast = pending.isEmpty
            let result = cString(name) { isLast ? final(current, $0) : openat(current, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            let error = errno
            if result >= 0 {
                if isLast { return .success(result) }
                release()
                current = result
                position.append(name)
                continue
            }
            // A symbolic link (or, for a folder on the way, something that may be one).
            guard error == ELOOP || error == ENOTDIR || error == EMLINK else {
                return .failure(links > 0 && error == ENOENT ? .missingTarget(error) : .system(error))
            }
            guard let target = readLink(current, name) else {
                // Not a link after all: the error stands (a link replaced by a file since the open is tried once more).
                if error == ELOOP && links < maximumLinks { links += 1; pending.append(name); continue }
                return .failure(error == ELOOP ? .tooManyLinks : .system(error))
            }
            links += 1
            guard links <= maximumLinks else { return .failure(.tooManyLinks) }
            if !isLast { atEntry = false }
            var parts = target.split(separator: 0x2F, omittingEmptySubsequences: true).map(Array.init)
            if target.first == 0x2F {
                // Absolute: only a place inside the top folder, walked from the top folder's descriptor.
                guard let inside = topNames().lazy.compactMap({ beneath(target, $0) }).first else {
                    return .failure(.leavesFolder(atEntry: atEntry))
                }
                parts = inside
                release()
                current = top
                position = []
            }
            pending += parts.reversed()
        }
        // The names ended on a folder (a link to `.`, to `..`, to the top folder): not an entry to act on.
        return .failure(.system(EISDIR))
    }

    /// The names of `target` below `folder` (both absolute paths, as bytes and
    /// text), when `target` is `folder` or lies inside it; nil otherwise.
    static func beneath(_ target: [UInt8], _ folder: String) -> [[UInt8]]? {
        let prefix = Array(folder.utf8)
        guard target.starts(with: prefix) else { return nil }
        let rest = target.dropFirst(prefix.count)
        guard rest.isEmpty || rest.first == 0x2F || prefix == [0x2F] else { return nil }
        return rest.split(separator: 0x2F, omittingEmptySubsequences: true).map(Array.init)
    }

    /// The target of the symbolic link `name` in the open folder `folder`, or nil when it is not one.
    static func readLink(_ folder: Int32, _ name: [UInt8]) -> [UInt8]? {
        var size = 256
        while size <= 1 << 20 {
            var buffer = [UInt8](repeating: 0, count: size)
            let n = cString(name) { c in
                buffer.withUnsafeMutableBufferPointer { b in
                    b.withMemoryRebound(to: CChar.self) { readlinkat(folder, c, $0.baseAddress!, size) }
                }
            }
            guard n >= 0 else { return nil }
            if n < size { return Array(buffer[..<n]) }
            size *= 4
        }
        return nil
    }

    /// Calls `body` with `name` as a C string.
    static func cString<T>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (name + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}
