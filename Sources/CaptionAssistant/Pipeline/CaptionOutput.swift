import Captions
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The caption file a processed input gives, to be written: its bytes, or
/// a document and the edits to splice into it, written as they are made so
/// that a large file's output is never held whole (see
/// `CaptionDocument.write(edits:options:into:)`).
package enum CaptionOutput: Sendable {
    /// The whole file.
    case bytes([UInt8])
    /// The document written with `edits` (a write that cannot fail: `CaptionDocument.writesAsMade`).
    case spliced(CaptionDocument, edits: [Int: CueEdit], options: WriteOptions)

    /// The whole file's bytes (made now for a spliced one).
    var bytes: [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .spliced(let document, let edits, let options):
            // Cannot throw (`writesAsMade`); an empty file if it ever did.
            return (try? document.writeBytes(edits: edits, options: options)) ?? []
        }
    }

    /// Writes the file into `fd` as it is made: the SHA-256 (hex) of what
    /// was written, or nil (with `errno` set) when a write failed.
    func write(to fd: Int32) -> String? {
        var hash = SHA256()
        let wrote: Bool
        switch self {
        case .bytes(let bytes):
            wrote = AtomicFileWriter.writeAll(fd, bytes)
            hash.update(bytes)
        case .spliced(let document, let edits, let options):
            wrote = (try? document.write(edits: edits, options: options) { piece in
                hash.update(piece)
                return AtomicFileWriter.writeAll(fd, UnsafeRawBufferPointer(piece))
            }) ?? false
        }
        return wrote ? hash.finalizeHex() : nil
    }
}
