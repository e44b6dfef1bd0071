import Foundation
import JSON
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
/// `write(to:in:envelope:)` streams `report.json` from it in plan order.
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
    /// when there is no folder, `scratchFile` is false or none can be made). `bufferSize` is for tests.
    init(count: Int, folder: OutputFolder?, scratchFile: Bool = true, bufferSize: Int = 1 << 20) {
        offsets = [Int](repeating: -1, count: count)
        lengths = [UInt32](repeating: 0, count: count)
        self.bufferSize = max(1, bufferSize)
        file = scratchFile ? folder?.makeScratchFile() : nil
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

    /// Writes `report.json` (or a part) at `relative` in `folder`: the
    /// entries in index order (every index must have one) inside `envelope`.
    ///
    /// The entries are taken a group at a time (as many as fit in the buffer
    /// size), and each group's bytes are read from the scratch file in offset
    /// order, one read for each stretch that lies back to back there. Entries
    /// finish almost in plan order, so a group is mostly one stretch: a few
    /// reads for the whole report instead of one per file, and never more
    /// memory than one group.
    /// `digest` states the SHA-256 of the entries in the envelope (a part's `entriesSHA256`).
    func write(to relative: String, in folder: OutputFolder, envelope: ReportEnvelope, digest: Bool = false) throws(WriteError) {
        try write(envelope: envelope, digest: digest) { fill throws(WriteError) in try folder.write(to: relative, fill: fill) }
    }

    /// Writes `report.json`'s content (as `write(to:in:envelope:)` does) to
    /// `path`, anywhere (`--report FILE`): atomically, or into it when it is
    /// not a regular file (`AtomicFileWriter.write(through:fill:)`).
    func write(toFile path: String, envelope: ReportEnvelope) throws(WriteError) {
        try write(envelope: envelope, digest: false) { fill throws(WriteError) in
            guard path == BatchRunner.reportToStandardOutput else { return try AtomicFileWriter.write(through: path, fill: fill) }
            guard fill(STDOUT_FILENO) else { throw WriteError(path: "standard output", reason: String(cString: strerror(errno))) }
        }
    }

    /// The report, streamed into the descriptor `writer` hands its fill function.
    private func write(envelope: ReportEnvelope, digest: Bool,
                       with writer: (_ fill: (Int32) -> Bool) throws(WriteError) -> Void) throws(WriteError) {
        lock.lock()
        defer { lock.unlock() }
        flush()
        var failure: Int32?
        do {
            try writer { fd in
                var out: [UInt8] = []
                out.reserveCapacity(bufferSize + 64 << 10)
                func emit(_ bytes: some Collection<UInt8>) -> Bool {
                    out += bytes
                    if out.count < bufferSize { return true }
                    defer { out.removeAll(keepingCapacity: true) }
                    return AtomicFileWriter.writeAll(fd, out)
                }
                let firstSeparator = JSONStreamWriter.separator(first: true), separator = JSONStreamWriter.separator(first: false)
                var hash = SHA256()
                guard emit(envelope.opening()) else { return false }
                var staging: [UInt8] = [], stretch: [UInt8] = [], place: [Int] = [], byOffset: [Int] = []
                var groupStart = 0
                while groupStart < offsets.count {
                    var groupEnd = groupStart, total = 0
                    place.removeAll(keepingCapacity: true)
                    while groupEnd < offsets.count && (groupEnd == groupStart || total + Int(lengths[groupEnd]) <= bufferSize) {
                        place.append(total)
                        total += offsets[groupEnd] < 0 ? 0 : Int(lengths[groupEnd])
                        groupEnd += 1
                    }
                    staging.removeAll(keepingCapacity: true)
                    staging.append(contentsOf: repeatElement(0, count: total))
                    byOffset.removeAll(keepingCapacity: true)
                    byOffset.append(contentsOf: (groupStart..<groupEnd).filter { offsets[$0] >= 0 && lengths[$0] > 0 })
                    byOffset.sort { offsets[$0] < offsets[$1] }
                    var k = 0
                    while k < byOffset.count {
                        let first = byOffset[k], from = offsets[first]
                        var to = from + Int(lengths[first]), next = k + 1
                        if from >= flushed {
                            // Still in memory.
                            staging.replaceSubrange(place[first - groupStart]..<place[first - groupStart] + Int(lengths[first]),
                                                    with: pending[(from - flushed)..<(to - flushed)])
                            k = next
                            continue
                        }
                        while next < byOffset.count, offsets[byOffset[next]] == to, to + Int(lengths[byOffset[next]]) <= flushed {
                            to += Int(lengths[byOffset[next]])
                            next += 1
                        }
                        guard readStretch(from..<to, into: &stretch, failure: &failure) else { return false }
                        for entry in byOffset[k..<next] {
                            let at = place[entry - groupStart], length = Int(lengths[entry]), inStretch = offsets[entry] - from
                            staging.replaceSubrange(at..<at + length, with: stretch[inStretch..<inStretch + length])
                        }
                        k = next
                    }
                    for entry in groupStart..<groupEnd {
                        let at = place[entry - groupStart], length = offsets[entry] < 0 ? 0 : Int(lengths[entry])
                        if digest { hash.update(staging[at..<at + length]) }
                        guard emit(entry == 0 ? firstSeparator : separator), emit(staging[at..<at + length]) else { return false }
                    }
                    groupStart = groupEnd
                }
                var closing = envelope
                if digest { closing.entriesSHA256 = hash.finalizeHex() }
                guard emit(closing.closing(empty: offsets.isEmpty)) else { return false }
                return AtomicFileWriter.writeAll(fd, out)
            }
        } catch {
            guard let failure else { throw error }
            throw WriteError(path: error.path, reason: "its entries could not be read back from the scratch file: \(String(cString: strerror(failure)))")
        }
    }

    /// Reads the bytes `range` of the scratch file into `stretch`; false (with
    /// `failure` and `errno` set) when it cannot.
    private func readStretch(_ range: Range<Int>, into stretch: inout [UInt8], failure: inout Int32?) -> Bool {
        guard let file else { failure = EBADF; errno = EBADF; return false }
        let length = range.count
        stretch.removeAll(keepingCapacity: true)
        stretch.reserveCapacity(length)
        var problem: Int32?
        stretch.append(contentsOf: repeatElement(0, count: length))
        stretch.withUnsafeMutableBytes { raw in
            var done = 0
            while done < length {
                let n = pread(file, raw.baseAddress! + done, length - done, off_t(range.lowerBound + done))
                if n < 0 { if errno == EINTR { continue }; problem = errno; return }
                if n == 0 { problem = EIO; return }
                done += n
            }
        }
        if let problem { failure = problem; errno = problem; return false }
        return true
    }
}
