import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Path arithmetic on the bytes of a path, done here instead of with
/// `NSString`'s or `URL`'s path methods.
///
/// Foundation on Linux traps (SIGILL) inside `NSString.deletingLastPathComponent`
/// for some short relative paths (`o`, `x/out`, `a/bc`), which killed a whole
/// batch before it started. Everything here splits on `/` (byte 0x2F, which
/// never occurs inside a UTF-8 sequence) and nothing else: no tilde
/// expansion, no Unicode normalisation, no trap on any input.
enum PathText {
    /// The parts of `path` between its `/` bytes (empty ones kept when
    /// `omittingEmpty` is false). Cut by bytes, never by `Character`s: a part
    /// that starts with a combining mark makes one `Character` of the `/`
    /// before it, and a split by `Character`s would not cut there.
    static func parts(_ path: String, omittingEmpty: Bool = true) -> [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: omittingEmpty).map { Substring($0) }
    }

    /// `path` without the slashes at its end (`/` stays `/`).
    static func trimmingTrailingSlashes(_ path: String) -> String {
        var utf8 = Substring(path).utf8
        while utf8.count > 1, utf8.last == 0x2F { utf8 = utf8.dropLast() }
        return String(Substring(utf8))
    }

    /// The folder that holds `path`: `.` for a name alone, `/` for `/name`;
    /// nil for `/`, `.` and the empty path (nothing above them to walk to).
    static func parent(of path: String) -> String? {
        let trimmed = trimmingTrailingSlashes(path)
        guard !trimmed.isEmpty, trimmed != "/", trimmed != "." else { return nil }
        let utf8 = trimmed.utf8
        guard var slash = utf8.lastIndex(of: 0x2F) else { return "." }
        // Several slashes before the last part count as one.
        while slash > utf8.startIndex, utf8[utf8.index(before: slash)] == 0x2F { slash = utf8.index(before: slash) }
        if slash == utf8.startIndex { return "/" }
        return String(Substring(utf8[..<slash]))
    }

    /// The last part of `path` (after its last `/`, trailing slashes ignored).
    static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        let utf8 = trimmed.utf8
        guard let slash = utf8.lastIndex(of: 0x2F) else { return trimmed }
        return String(Substring(utf8[utf8.index(after: slash)...]))
    }

    /// `path` with the extension of its last part (see `InputPlan.extensionOf`)
    /// replaced by `newExtension` (added when it has none).
    static func replacingExtension(of path: String, with newExtension: String) -> String {
        let old = InputPlan.extensionOf(path)
        guard !old.isEmpty else { return path + "." + newExtension }
        return String(Substring(path.utf8.dropLast(old.utf8.count + 1))) + "." + newExtension
    }

    /// The absolute form of `path` with `.` and `..` parts and repeated
    /// slashes taken out, as written (links are not looked at).
    static func absolute(_ path: String) -> String {
        var start = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&buffer, buffer.count) != nil
                ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "."
            start = cwd + "/" + path
        }
        var parts: [Substring] = []
        for part in Self.parts(start) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The absolute path with symbolic links resolved (`realpath`) for the
    /// longest part of it that exists, the rest appended as written; no
    /// trailing slash. An output folder may not exist yet.
    static func canonical(_ path: String) -> String {
        var head = absolute(path)
        var rest: [String] = []
        while true {
            if let resolved = realpath(head, nil) {
                defer { free(resolved) }
                var result = String(cString: resolved)
                for part in rest { result += (result.hasSuffix("/") ? "" : "/") + part }
                return result
            }
            guard let parent = parent(of: head) else { break }
            rest.insert(lastComponent(of: head), at: 0)
            head = parent
        }
        return absolute(path)
    }
}
