import Assistant
import Foundation
import JSON
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
/// Every part is read through the report's one definition: its header as a
/// `ReportPart`, each entry strictly as a `FileReport`, its totals as
/// `BatchReport.Totals`, which must be those its entries add up to (checked
/// arithmetic), and its entries must have the SHA-256 the part states
/// (`entriesSHA256`: a part damaged inside a string still reads as JSON). A
/// part that is not exactly that is damaged: `report.json` is not written
/// (or replaced), nothing is removed, and the error names the part and the
/// value. The parts are removed only once `report.json` is written and read
/// back whole, strictly, with the same entries and totals. The parts are
/// streamed, one entry at a time, so memory does not grow with the number of
/// files. The output folder is locked (as a run locks it) from before the
/// parts are listed until they are removed.
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
        case noParts(Advice)
        /// Some shards are missing or did not run to the end.
        case incomplete(count: Int, missing: [Int], stopped: [Int])
        /// The parts are of different plans, options or shard counts.
        case mismatch(String)
        /// A part cannot be read as one.
        case damaged(name: String, reason: String)
        /// `report.json` could not be written.
        case write(Advice)

        package var errorDescription: String? { message(.plain) }

        /// What went wrong and what to do, the settings named spelled by `names`.
        package func message(_ names: SettingNames) -> String {
            switch self {
            case .noParts(let advice): return advice.rendered(names)
            case .incomplete(let count, let missing, let stopped):
                var parts: [Advice] = []
                if !missing.isEmpty {
                    parts.append("\(missing.count) of \(count) shards have no report part: \(ReportMerge.list(missing)) (run them with \(.shard, .literal("INDEX/\(count)")), or rerun those array tasks)")
                }
                if !stopped.isEmpty {
                    parts.append("\(stopped.count) of \(count) shards were stopped before the end: \(ReportMerge.list(stopped)) (run them again with \(.resume))")
                }
                return parts.map { $0.rendered(names) }.joined(separator: "; ") + "; report.json was not written"
            case .mismatch(let text): return text + "; report.json was not written"
            case .damaged(let name, let reason): return "\(name) is not a complete report part (\(reason)); run that shard again; report.json was not written"
            case .write(let advice): return advice.rendered(names)
            }
        }
    }

    /// A part as found: its file name and its header.
    struct Found {
        var name: String
        var part: ReportPart
    }

    /// Merges the parts in the folder `path` into `report.json`; removes the
    /// parts afterwards unless `keepParts`.
    package static func merge(folder path: String, keepParts: Bool = false) throws(Failure) -> Result {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .noParts("no such output folder: \(path)")
        }
        // Locked first: no shard writes a part while the parts are read, and none is removed under a run.
        let folder: OutputFolder
        do throws(OutputFolderError) { folder = try OutputFolder(path: path) } catch { throw .write(error.advice) }
        guard let dir = opendir(path) else { throw .noParts("\(path) cannot be read: \(String(cString: strerror(errno)))") }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if ReportPart.shard(named: name) != nil { names.append(name) }
        }
        closedir(dir)
        guard !names.isEmpty else {
            throw .noParts("\(path) holds no report part (report.shard-INDEX-of-COUNT.json); run the batch with \(.shard) first")
        }
        var found: [Found] = []
        for name in names { found.append(try header(name, in: path)) }
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
        // Each part's files lie within the plan (`ReportPart.validated`), so these sums cannot overflow.
        var next = 0
        for f in found {
            guard f.part.first == next else {
                throw .mismatch("\(f.name) starts at file \(f.part.first) of the plan, but the shards before it end at \(next)")
            }
            next += f.part.files
        }
        guard next == reference.planFiles else {
            throw .mismatch("the shards hold \(next) files, but the plan has \(reference.planFiles)")
        }

        var failure: Failure?
        var totals = BatchReport.Totals()
        var digest = ""
        do {
            try folder.write(to: OwnedNames.batchReport) { fd in
                // The writer may call this again on a fresh descriptor: a part found damaged stays so,
                // and the totals start again from nothing.
                if failure != nil { return false }
                totals = BatchReport.Totals()
                var hash = SHA256()
                guard AtomicFileWriter.writeAll(fd, ReportEnvelope().opening()) else { return false }
                var written = 0
                for f in found {
                    do {
                        try copyEntries(of: f, in: path, into: fd, written: &written, totals: &totals, digest: &hash)
                    } catch let error as Failure {
                        failure = error
                        return false
                    } catch {
                        return false
                    }
                }
                digest = hash.finalizeHex()
                return AtomicFileWriter.writeAll(fd, ReportEnvelope(totals: totals).closing(empty: written == 0))
            }
        } catch {
            if let failure { throw failure }
            throw .write("\(error.localizedDescription)")
        }
        // The parts may be the only good copy: they go only once report.json reads back as what was merged.
        try readBack(in: folder, totals: totals, entriesSHA256: digest)
        if !keepParts {
            for f in found where !folder.removeFile(f.name) {
                throw .write("report.json was written, but the part \(f.name) could not be removed (\(String(cString: strerror(errno)))); remove the parts by hand")
            }
        }
        return Result(shards: count, totals: totals, missingInput: found.contains { $0.part.missingInput })
    }

    /// Reads `report.json` back whole, as every reader reads it (each entry
    /// strictly, the totals counted again), and checks that it is what was
    /// merged: the same totals and the same entries (their SHA-256).
    static func readBack(in folder: OutputFolder, totals: BatchReport.Totals, entriesSHA256: String) throws(Failure) {
        let name = OwnedNames.batchReport
        func unlike(_ why: String) -> Failure {
            .write("\(name) was written, but it does not read back as the merged report (\(why)); the parts are kept: run merge again")
        }
        guard let fd = folder.openRegularFile(name) else { throw unlike("it cannot be opened again") }
        defer { close(fd) }
        var counted = BatchReport.Totals()
        var hash = SHA256()
        var index = 0
        let envelope: ReportEnvelope
        do {
            envelope = try ReportEnvelope.read(fd, name: name, header: { header in
                guard header.shard == nil else { throw ReportError("is there, but only a report part has one").under(.shard) }
            }, entry: { json in
                do throws(ReportError) { try counted.add(try FileReport(reportJSON: json)) } catch { throw error.at(index).under(.files) }
                hash.update(JSONStreamWriter.element(json))
                index += 1
            })
        } catch {
            throw unlike(error.localizedDescription)
        }
        guard envelope.totals == counted, counted == totals else { throw unlike("its totals are not those of the parts") }
        guard hash.finalizeHex() == entriesSHA256 else { throw unlike("its entries are not those of the parts") }
    }

    /// Opens the part `name` in `folder` (never through a link, never waiting on a FIFO).
    static func openPart(_ name: String, in folder: String) throws(Failure) -> Int32 {
        let fd = open(folder + "/" + name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .damaged(name: name, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .damaged(name: name, reason: "not a regular file")
        }
        return fd
    }

    /// Stops a stream once the header is read.
    private struct HeaderRead: Error {}

    /// Reads the header of the part `name` in `folder`: its envelope's keys before `files`.
    static func header(_ name: String, in folder: String) throws(Failure) -> Found {
        let fd = try openPart(name, in: folder)
        defer { close(fd) }
        var part: ReportPart?
        do {
            _ = try ReportEnvelope.read(fd, name: name, header: { header in
                part = header.shard
                throw HeaderRead()
            }, entry: { _ in })
        } catch is HeaderRead {
        } catch {
            throw .damaged(name: name, reason: error.localizedDescription)
        }
        guard let part else { throw .damaged(name: name, reason: "it has no shard header") }
        guard part.name == name else { throw .damaged(name: name, reason: "its header says it is \(part.name)") }
        return Found(name: name, part: part)
    }

    /// Stops reading a part when `report.json` cannot be written.
    private struct WriteStopped: Error {}

    /// Reads the part `f` again, whole, and writes its entries to `fd`:
    /// each entry read strictly, its totals what its entries add up to, and
    /// as many entries as its header says. Adds them to `totals` and `written`.
    static func copyEntries(of f: Found, in folder: String, into out: Int32, written: inout Int,
                            totals: inout BatchReport.Totals, digest: inout SHA256) throws {
        let fd = try openPart(f.name, in: folder)
        defer { close(fd) }
        var own = BatchReport.Totals()
        var merged = totals
        var ownHash = SHA256(), mergedHash = digest
        var index = 0
        var count = written
        // The entries go out in writes of about 64 KiB, not one system call each.
        var pending: [UInt8] = []
        pending.reserveCapacity(1 << 17)
        let envelope: ReportEnvelope
        do {
            envelope = try ReportEnvelope.read(fd, name: f.name, header: { header in
                guard header.shard == f.part else { throw ReportError("changed while the parts were merged").under(.shard) }
            }, entry: { json in
                do throws(ReportError) {
                    let report = try FileReport(reportJSON: json)
                    try own.add(report)
                    try merged.add(report)
                } catch { throw error.at(index).under(.files) }
                index += 1
                pending += JSONStreamWriter.separator(first: count == 0)
                let start = pending.count
                JSONStreamWriter.append(element: json, to: &pending)
                ownHash.update(pending[start...])
                mergedHash.update(pending[start...])
                if pending.count >= 1 << 16 {
                    guard AtomicFileWriter.writeAll(out, pending) else { throw WriteStopped() }
                    pending.removeAll(keepingCapacity: true)
                }
                count += 1
            })
            guard pending.isEmpty || AtomicFileWriter.writeAll(out, pending) else { throw WriteStopped() }
        } catch let error as ReportError {
            throw Failure.damaged(name: f.name, reason: error.localizedDescription)
        } catch let error as JSONStream.Failure {
            throw Failure.damaged(name: f.name, reason: error.message)
        }
        guard index == f.part.files else {
            throw Failure.damaged(name: f.name, reason: "it has \(index) entries, but its header says \(f.part.files)")
        }
        guard envelope.totals == own else {
            throw Failure.damaged(name: f.name, reason: "its totals are not what its entries add up to")
        }
        guard envelope.entriesSHA256 == ownHash.finalizeHex() else {
            throw Failure.damaged(name: f.name, reason: "its entries are not those it was written with: their SHA-256 is not its entriesSHA256, so some bytes in it were changed")
        }
        totals = merged
        written = count
        digest = mergedHash
    }

    /// `0, 2, 5` (at most 20 listed, then how many more).
    static func list(_ indices: [Int]) -> String {
        let shown = indices.prefix(20).map(String.init).joined(separator: ", ")
        return indices.count > 20 ? shown + " and \(indices.count - 20) more" : shown
    }
}
