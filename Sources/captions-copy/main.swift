// captions-copy: an app that embeds the Captions library and nothing else of
// this package, for measuring what the library costs such an app (peak
// memory above all: `/usr/bin/time -f %M`). It links Captions alone (so not
// the pipeline's Foundation, libcrypto or libcurl), as a user's program would:
//
//   captions-copy IN OUT          the file read into an array of bytes
//                                 (`SourceText.decode(bytes:)` keeps it: no
//                                 copy), the document read, and written back
//                                 unchanged (`writeBytes()`: the same buffer)
//   captions-copy --data IN OUT   the same through `Data`, as the DocC article
//                                 "Reading and writing a caption file" shows:
//                                 `Data(contentsOf:)`, `read(_:hint:)`,
//                                 `write()`, `Data.write(to:)`
//
// Build it in release: `swift build -c release --product captions-copy`.
// caption-bench's `copy` is the product's own read and atomic write (it links
// the whole pipeline); this is the library alone.
import Captions
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What went wrong with one of the files, and which.
struct CopyError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "captions-copy: \(path): \(reason)" }
    /// The error of the last system call on `path`.
    static func system(_ path: String) -> CopyError { CopyError(path: path, reason: String(cString: strerror(errno))) }
}

/// The whole file at `path`, read into one array (its size from `fstat`).
func readBytes(_ path: String) throws(CopyError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .system(path) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .system(path) }
    let size = Int(info.st_size)
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        count = 0
        while count < size, let base = buffer.baseAddress {
            let n = read(fd, base + count, size - count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { failed = n < 0; return }
            count += n
        }
    }
    if failed { throw .system(path) }
    return bytes
}

/// Writes `bytes` to `path` (created or truncated).
func writeBytes(_ bytes: [UInt8], to path: String) throws(CopyError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .system(path) }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { raw in raw.baseAddress.map { write(fd, $0 + done, raw.count - done) } ?? 0 }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { throw .system(path) }
        done += n
    }
}

/// The format hint of `path`: its extension's format, if it names one.
func hint(_ path: String) -> CaptionFormat? {
    let name = path.split(separator: "/").last ?? ""
    guard let dot = name.lastIndex(of: ".") else { return nil }
    return CaptionFormat(fileExtension: String(name[name.index(after: dot)...]))
}

let args = Array(CommandLine.arguments.dropFirst())
do {
    switch args.count {
    case 2:
        let document = try CaptionDocument.read(SourceText.decode(bytes: readBytes(args[0])), hint: hint(args[0]))
        try writeBytes(document.writeBytes(), to: args[1])
    case 3 where args[0] == "--data":
        let input = try Data(contentsOf: URL(fileURLWithPath: args[1]))
        let document = try CaptionDocument.read(input, hint: hint(args[1]))
        try document.write().write(to: URL(fileURLWithPath: args[2]))
    default:
        print("usage: captions-copy [--data] IN OUT")
        exit(64)
    }
} catch {
    let message = Array("\(error)\n".utf8)
    _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}
