import Assistant
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `caption-assistant merge OUT`: writes `OUT/report.json` from the shards'
/// report parts (`ReportPart`), byte for byte what one `process` run over the
/// same inputs writes.
///
/// Every part found must be of the same plan and options and of the same
/// shard count, every shard of that count must be there and have run to the
/// end; otherwise nothing is written and the error says which shards are
/// missing (rerun them, with `--resume` for one that was stopped).
///
/// The parts are streamed: each part's header and totals are read from its
/// two ends, and its entries are copied a megabyte at a time, so memory does
/// not grow with the number of files (only, a little, with the number of shards).
package enum ReportMerge {
    /// What a merge did.
    package struct Result: Sendable, Equatable {
        /// The shards merged.
        package var shards: Int
        /// The totals of the merged report.
        package var totals: BatchReport.Totals
        /// Whether some input did not exist (as a single run, `merge` then exits 66).
        package var missingInput = false
    }

    /// Why a merge wrote nothing.
    package enum Failure: Error, LocalizedError, Sendable, Equatable {
        /// The folder does not exist or holds no part.
        case noParts(String)
        /// Some shards are missing or did not run to the end.
        case incomplete(count: Int, missing: [Int], stopped: [Int])
        /// The parts are of different plans, options or shard counts.
        case mismatch(String)
        /// A part cannot be read as one.
        case damaged(name: String, reason: String)
        /// `report.json` could not be written.
        case write(String)

        package var errorDescription: String? {
            switch self {
            case .noParts(let text): return text
            case .incomplete(let count, let missing, let stopped):
                var parts: [String] = []
                if !missing.isEmpty {
                    parts.append("\(missing.count) of \(count) shards have no report part: \(ReportMerge.list(missing)) (run them with --shard INDEX/\(count), or rerun those array tasks)")
                }
                if !stopped.isEmpty {
                    parts.append("\(stopped.count) of \(count) shards were stopped before the end: \(ReportMerge.list(stopped)) (run them again with --resume)")
                }
                return parts.joined(separator: "; ") + "; report.json was not written"
            case .mismatch(let text): return text + "; report.json was not written"
            case .damaged(let name, let reason): return "\(name) is not a complete report part (\(reason)); run that shard again; report.json was not written"
            case .write(let text): return text
            }
        }
    }

    /// A part as found: where its entries lie in its file, and its totals.
    struct Found {
        var name: String
        var part: ReportPart
        /// The bytes between `"files": [` and the closing `]` (empty for no files).
        var entries: Range<Int>
        var totals: BatchReport.Totals
    }

    /// How much of each end of a part is read to find its header and totals.
    static let endSize = 256 << 10

    /// Merges the parts in the folder `path` into `report.json`; removes the
    /// parts afterwards unless `keepParts`.
    package static func merge(folder path: String, keepParts: Bool = false) throws(Failure) -> Result {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .noParts("no such output folder: \(path)")
        }
        guard let dir = opendir(path) else { throw .noParts("\(path) cannot be read: \(String(cString: strerror(errno)))") }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if ReportPart.shard(named: name) != nil { names.append(name) }
        }
        closedir(dir)
        guard !names.isEmpty else {
            throw .noParts("\(path) holds no report part (report.shard-INDEX-of-COUNT.json); run 'process --shard' first")
        }
        var found: [Found] = []
        for name in names { found.append(try read(name, in: path)) }
        found.sort { $0.part.shard.index < $1.part.shard.index || ($0.part.shard.index == $1.part.shard.index && $0.part.shard.count < $1.part.shard.count) }

        // One plan, one set of options, one shard count.
        let reference = found[0].part
        for other in found.dropFirst() {
            let p = other.part
            if p.shard.count != reference.shard.count || p.plan != reference.plan || p.settings != reference.settings || p.planFiles != reference.planFiles {
                let why = p.shard.count != reference.shard.count ? "a different shard count"
                    : p.settings != reference.settings ? "different options" : "a different set of inputs (they changed between the shards)"
                throw .mismatch("\(other.name) and \(found[0].name) are parts of different runs (\(why)); remove the parts of the run you do not want, or run every shard again with the same inputs and options")
            }
        }
        let count = reference.shard.count
        let present = Set(found.map(\.part.shard.index))
        let missing = (0..<count).filter { !present.contains($0) }
        let stopped = found.filter { !$0.part.complete }.map(\.part.shard.index)
        guard missing.isEmpty, stopped.isEmpty else { throw .incomplete(count: count, missing: missing, stopped: stopped) }
        var next = 0
        var totals = BatchReport.Totals()
        for f in found {
            guard f.part.first == next else {
                throw .mismatch("\(f.name) starts at file \(f.part.first) of the plan, but the shards before it end at \(next)")
            }
            next += f.part.files
            totals.add(f.totals)
        }
        guard next == reference.planFiles else {
            throw .mismatch("the shards hold \(next) files, but the plan has \(reference.planFiles)")
        }

        let folder: OutputFolder
        do { folder = try OutputFolder(path: path) } catch { throw .write(error.localizedDescription) }
        var failure: String?
        do {
            try folder.write(to: "report.json") { fd in
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                guard AtomicFileWriter.writeAll(fd, BatchReport.opening) else { return false }
                var first = true
                for f in found where !f.entries.isEmpty {
                    // A part's entries are "\n    E,\n    E\n  ": all but the last newline and indent.
                    if !first { guard AtomicFileWriter.writeAll(fd, [UInt8](",".utf8)) else { return false } }
                    first = false
                    let source = open(path + "/" + f.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                    guard source >= 0 else { failure = "\(f.name) could not be opened again: \(String(cString: strerror(errno)))"; return false }
                    defer { close(source) }
                    var at = f.entries.lowerBound
                    let end = f.entries.upperBound - 3
                    while at < end {
                        let want = min(buffer.count, end - at)
                        let n = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress!, want, off_t(at)) }
                        if n < 0 && errno == EINTR { continue }
                        guard n > 0 else { failure = "\(f.name) could not be read: \(n == 0 ? "it became shorter" : String(cString: strerror(errno)))"; return false }
                        guard AtomicFileWriter.writeAll(fd, buffer[0..<n]) else { return false }
                        at += n
                    }
                }
                return AtomicFileWriter.writeAll(fd, BatchReport.closing(totals, empty: totals.files == 0))
            }
        } catch {
            throw .write(failure.map { "report.json could not be written: " + $0 } ?? error.localizedDescription)
        }
        if !keepParts { for f in found { unlink(path + "/" + f.name) } }
        return Result(shards: count, totals: totals, missingInput: found.contains { $0.part.missingInput })
    }

    /// Reads the header, totals and place of the entries of the part `name` in `folder`.
    static func read(_ name: String, in folder: String) throws(Failure) -> Found {
        // O_NONBLOCK: a FIFO planted under a part's name is refused below, never waited on.
        let fd = open(folder + "/" + name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .damaged(name: name, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw .damaged(name: name, reason: "not a regular file") }
        let size = Int(info.st_size)
        guard let head = readRange(fd, 0..<min(size, endSize)), let tail = readRange(fd, max(0, size - endSize)..<size) else {
            throw .damaged(name: name, reason: String(cString: strerror(errno)))
        }
        guard head.starts(with: ReportPart.headerStart), let filesAt = find(ReportPart.filesStart, in: head) else {
            throw .damaged(name: name, reason: "no shard header")
        }
        guard let header = JSONValue.parse(Array(head[ReportPart.headerStart.count..<filesAt])), let part = ReportPart(json: header) else {
            throw .damaged(name: name, reason: "its shard header cannot be read")
        }
        guard part.name == name else { throw .damaged(name: name, reason: "its header says it is \(part.name)") }
        let closing = Array("],\n  \"totals\": ".utf8)
        let end = Array("\n}\n".utf8)
        guard tail.count >= end.count, tail.suffix(end.count).elementsEqual(end), let closeAt = findLast(closing, in: tail),
              closeAt + closing.count <= tail.count - end.count,
              let totalsJSON = JSONValue.parse(Array(tail[(closeAt + closing.count)..<(tail.count - end.count)])),
              let totals = BatchReport.Totals(json: totalsJSON) else {
            throw .damaged(name: name, reason: "its totals cannot be read")
        }
        let entries = (filesAt + ReportPart.filesStart.count)..<(size - tail.count + closeAt)
        guard entries.lowerBound <= entries.upperBound, totals.files == part.files else {
            throw .damaged(name: name, reason: "its totals do not match its header")
        }
        let expectedEnd = BatchReport.closing(totals, empty: totals.files == 0)
        let endStart = closeAt - (totals.files == 0 ? 0 : 3)
        guard endStart >= 0, Array(tail[endStart...]) == expectedEnd else {
            throw .damaged(name: name, reason: "it does not end as a report does")
        }
        if part.files > 0 {
            guard entries.count > 8, let start = readRange(fd, entries.lowerBound..<entries.lowerBound + 5),
                  start == Array("\n    ".utf8) else {
                throw .damaged(name: name, reason: "its entries do not start as a report's do")
            }
        } else if !entries.isEmpty {
            throw .damaged(name: name, reason: "it has entries but its header says it has no files")
        }
        return Found(name: name, part: part, entries: entries, totals: totals)
    }

    /// The bytes `range` of `fd`; nil when they cannot all be read.
    static func readRange(_ fd: Int32, _ range: Range<Int>) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, range.count - done, off_t(range.lowerBound + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] && hay[i..<i + needle.count].elementsEqual(needle) { return i }
        return nil
    }

    static func findLast(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in stride(from: hay.count - needle.count, through: 0, by: -1) where hay[i] == needle[0] && hay[i..<i + needle.count].elementsEqual(needle) { return i }
        return nil
    }

    /// `0, 2, 5` (at most 20 listed, then how many more).
    static func list(_ indices: [Int]) -> String {
        let shown = indices.prefix(20).map(String.init).joined(separator: ", ")
        return indices.count > 20 ? shown + " and \(indices.count - 20) more" : shown
    }
}
