import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files into byte arrays with one allocation and no `Data` copy.
public enum FileBytes {
    /// The largest file read (2 GiB): a caption file beyond that is refused, not read.
    public static let limit = 1 << 31

    /// Reads the file at `path`.
    public static func load(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CocoaError.error(fromErrno: errno, path: path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw CocoaError.error(fromErrno: errno, path: path) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw CaptionError(.unreadableFile, message: "\(path) is a folder, not a file") }
        let size = Int(st.st_size)
        guard size <= limit else {
            throw CaptionError(.tooLarge, message: "the file is \(size) bytes; files over \(limit) bytes are not read")
        }
        var out = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, count in
            var got = 0
            while got < size {
                let n = read(fd, buffer.baseAddress! + got, size - got)
                if n <= 0 { break }
                got += n
            }
            count = got
        }
        // Files that grow while read, or report no size (pipes, /proc): read on.
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 65536) }
            if n < 0 { throw CocoaError.error(fromErrno: errno, path: path) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            guard out.count <= limit else { throw CaptionError(.tooLarge, message: "the file is over \(limit) bytes; not read") }
        }
        return out
    }
}

extension FileBytes {
    /// Creates (or truncates) the file at `path` and writes `bytes` to it.
    ///
    /// No `fsync`: callers get atomicity from writing a temporary file and
    /// renaming it (a killed process never leaves a partial file under the
    /// final name); syncing every file would cost a batch of thousands of
    /// small files most of its speed and guard only against power loss.
    public static func store(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError.error(fromErrno: errno, path: path, verb: "write") }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                done += n
            }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw CocoaError.error(fromErrno: failure, path: path, verb: "write") }
    }
}

private extension CocoaError {
    static func error(fromErrno code: Int32, path: String, verb: String = "read") -> Error {
        CaptionError(.unreadableFile, message: "cannot \(verb) \(path): \(String(cString: strerror(code)))")
    }
}
