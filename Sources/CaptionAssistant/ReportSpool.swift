import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The entries of `report.json`, kept on disk while the batch runs, so that
/// memory stays the same however many files a batch has.
///
/// Each file's entry is added as bytes, in whatever order the files finish,
/// to a scratch file with no name in the output folder (`OutputFolder.makeScratchFile`):
/// through a 1 MiB buffer, so this costs one write for many entries. Memory
/// per file is its entry's place in the scratch file (12 bytes). At the end
/// `write(to:in:totals:)` streams `report.json` from it in plan order.
///
/// When no scratch file can be made, or writing to it fails (a full disk),
/// the entries are kept in memory instead: the report is still complete, it
/// only costs memory.
final class ReportSpool: @unchecked Sendable {
    private let lock = NSLock()
    private var file: Int32?
    /// Cleared when writing to the file failed: what it holds can still be read.
    private var fileWritable = true
    /// Bytes not yet in the file (all of them, without a file).
    private var pending: [UInt8] = []
    /// How many bytes the file holds: an entry at `offset < flushed` is there, later ones are in `pending`.
    private var flushed = 0
    private var offsets: [Int]
    private var lengths: [UInt32]
    /// How much `pending` may hold before it goes to the file.
    private let bufferSize: Int

    /// A spool for `count` entries, in a scratch file in `folder` (in memory
    /// when `scratchFile` is false or none can be made). `bufferSize` is for tests.
    init(count: Int, folder: OutputFolder, scratchFile: Bool = true, bufferSize: Int = 1 << 20) {
        offsets = [Int](repeating: -1, count: count)
        lengths = [UInt32](repeating: 0, count: count)
        self.bufferSize = max(1, bufferSize)
        file = scratchFile ? folder.makeScratchFile() : nil
        pending.reserveCapacity(file == nil ? 0 : self.bufferSize)
    }

    /// Whether the entries go to a scratch file (false: they are kept in memory).
    var usesScratchFile: Bool { lock.withLock { file != nil && fileWritable } }

    deinit { if let file { close(file) } }

    /// Keeps `entry` as the entry of item `index` (once per index).
    func add(_ entry: [UInt8], at index: Int) {
        lock.withLock {
            guard offsets.indices.contains(index), offsets[index] < 0, let length = UInt32(exactly: entry.count) else { return }
            offsets[index] = flushed + pending.count
            lengths[index] = length
            pending += entry
            if pending.count >= bufferSize { flush() }
        }
    }

    /// Whether item `index` has an entry.
    func has(_ index: Int) -> Bool { lock.withLock { offsets.indices.contains(index) && offsets[index] >= 0 } }

    /// Moves `pending` into the file; on failure keeps it (and everything after) in memory.
    private func flush() {
        guard let file, fileWritable, !pending.isEmpty else { return }
        let ok = pending.withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let n = pwrite(file, raw.baseAddress! + done, raw.count - done, off_t(flushed + done))
                if n < 0 { if errno == EINTR { continue }; return false }
                done += n
            }
            return true
        }
        if ok {
            flushed += pending.count
            pending.removeAll(keepingCapacity: true)
        } else {
            // The entries written so far stay readable there; the rest stay here.
            fileWritable = false
        }
    }

    /// Writes `report.json` at `relative` in `folder`: the entries in index
    /// order (every index must have one) and then `totals`.
    func write(to relative: String, in folder: OutputFolder, totals: BatchReport.Totals) throws(WriteError) {
        lock.lock()
        defer { lock.unlock() }
        flush()
        var failure: Int32?
        do {
            try folder.write(to: relative) { fd in
                var out: [UInt8] = []
                out.reserveCapacity(bufferSize + 64 << 10)
                func emit(_ bytes: some Collection<UInt8>) -> Bool {
                    out += bytes
                    if out.count < bufferSize { return true }
                    defer { out.removeAll(keepingCapacity: true) }
                    return AtomicFileWriter.writeAll(fd, out)
                }
                var chunk: [UInt8] = []
                guard emit(BatchReport.opening) else { return false }
                for index in offsets.indices {
                    guard emit(BatchReport.separator(first: index == 0)), readEntry(index, into: &chunk, failure: &failure),
                          emit(chunk) else { return false }
                }
                guard emit(BatchReport.closing(totals, empty: offsets.isEmpty)) else { return false }
                return AtomicFileWriter.writeAll(fd, out)
            }
        } catch {
            guard let failure else { throw error }
            throw WriteError(path: error.path, reason: "its entries could not be read back from the scratch file: \(String(cString: strerror(failure)))")
        }
    }

    /// Reads item `index`'s entry into `chunk`; false (with `failure` and
    /// `errno` set) when the scratch file cannot be read.
    private func readEntry(_ index: Int, into chunk: inout [UInt8], failure: inout Int32?) -> Bool {
        let offset = offsets[index], length = Int(lengths[index])
        chunk.removeAll(keepingCapacity: true)
        guard offset >= 0, length > 0 else { return true }
        if offset >= flushed {
            chunk += pending[(offset - flushed)..<(offset - flushed + length)]
            return true
        }
        guard let file else { failure = EBADF; errno = EBADF; return false }
        chunk = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = 0
            while count < length {
                let n = pread(file, buffer.baseAddress! + count, length - count, off_t(offset + count))
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                if n == 0 { failure = EIO; return }
                count += n
            }
        }
        if let failure { errno = failure; return false }
        return true
    }
}
