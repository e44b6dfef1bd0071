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

private extension CocoaError {
    static func error(fromErrno code: Int32, path: String) -> Error {
        CaptionError(.unreadableFile, message: "cannot read \(path): \(String(cString: strerror(code)))")
    }
}
