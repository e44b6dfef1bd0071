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
public enum FileInput {
    /// The largest input read (a caption file is far smaller; this keeps a
    /// mistaken multi-gigabyte input from exhausting memory).
    public static let maximumSize = 1 << 30

    /// Reads the file at `path` into one buffer (which the decoder keeps as is for UTF-8).
    public static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try read(descriptor: fd, limit: maximumSize)
    }

    /// Reads the open regular file `fd` whole, if it is at most `limit` bytes long.
    static func read(descriptor fd: Int32, limit: Int) throws(ReadError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw ReadError(reason: "not a regular file") }
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

    /// An input that could not be read.
    public struct ReadError: Error, LocalizedError, Sendable {
        /// What the system said.
        public var reason: String
        public var errorDescription: String? { "could not read the file: \(reason)" }
    }
}
