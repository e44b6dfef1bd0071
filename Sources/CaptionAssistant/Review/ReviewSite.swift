import Assistant
import Captions
import Foundation
import JSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `caption-assistant review OUT`: a static site under `OUT/review/` that
/// shows a batch the way a person checks it, made from `OUT/report.json`, the
/// sidecars and the written captions.
///
/// `report.json` is streamed one entry at a time; each file's page is written
/// as soon as its entry is read (its captions read through `Captions`), and
/// only a small row per file is kept for the index, which is split into pages
/// of `pageSize` rows (all files, and the failed, disabled and with-warnings
/// ones), and for `titles.csv` (`TitlesCSV`). Every page is written
/// atomically through `OutputFolder`, so nothing is written outside
/// `OUT/review/` and no symbolic link in the output folder is followed, for
/// reading or writing. Pages an earlier review left beyond the ones written
/// now are removed.
public enum ReviewSite {
    /// What a review made.
    public struct Result: Sendable, Equatable {
        /// Files in the report (one page each).
        public var files: Int
        /// Index pages written, over all filters.
        public var indexPages: Int
        /// Where the index is, as `OUT/review/index.html`.
        public var index: String
    }

    /// A review that could not be made.
    public struct Failure: Error, LocalizedError, Sendable {
        /// What kind of problem, for the exit status.
        public enum Kind: Sendable {
            /// The folder or its `report.json` is not there.
            case missing
            /// `report.json` cannot be read as a report.
            case unreadable
            /// A page cannot be written.
            case cannotWrite
        }

        /// What kind of problem.
        public var kind: Kind
        /// What was wrong, in a sentence.
        public var message: String

        public var errorDescription: String? { message }
    }

    /// The most cues a file's page lists (the rest are in the file, linked from the page).
    public static let defaultCueLimit = 2000

    /// Index rows per page: pages stay near 200 KB however many files the batch has.
    public static let defaultPageSize = 250

    /// Makes the site for the output folder `path`. `pageSize` and `cueLimit` are for tests;
    /// `jobs` pages are made at once (default: the number of processor cores);
    /// `names` spells the settings that messages name.
    @discardableResult
    public static func build(outputFolder path: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                             pageSize: Int = defaultPageSize, cueLimit: Int = defaultCueLimit,
                             names: SettingNames = .plain) throws(Failure) -> Result {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let advice: Advice = "\(path) does not exist (name the folder a batch wrote with \(.outputFolder))"
            throw Failure(kind: .missing, message: advice.rendered(names))
        }
        guard isDirectory.boolValue else { throw Failure(kind: .missing, message: "\(path) is not a folder") }
        let folder: OutputFolder
        do throws(OutputFolderError) {
            folder = try OutputFolder(path: path)
        } catch {
            throw Failure(kind: .cannotWrite, message: error.message(names))
        }
        guard let report = folder.openRegularFile(OwnedNames.batchReport) else {
            throw Failure(kind: .missing, message: "\(path)/report.json is not there (or is not a regular file; links are not followed): run the batch first")
        }
        defer { close(report) }

        var builder = Builder(folder: folder, pageSize: max(1, pageSize), cueLimit: max(1, cueLimit), jobs: max(1, jobs))
        // Read leniently, as the pages are: only a schema version of another kind stops the review.
        var stream = JSONStream(descriptor: report, name: OwnedNames.batchReport)
        do {
            _ = try stream.read(list: ReportKeyName.files.rawValue, header: { keys in
                if let version = keys.first(where: { $0.0 == ReportKeyName.schemaVersion.rawValue })?.1, version != .int(ReportEnvelope.schemaVersion) {
                    throw JSONStream.Failure(message: "report.json has schemaVersion \(version.oneLine(spaced: true)); this review reads version \(ReportEnvelope.schemaVersion)")
                }
            }, element: { json in try builder.add(json) })
            try builder.finish()
        } catch let error as JSONStream.Failure {
            throw Failure(kind: .unreadable, message: error.message)
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(kind: .cannotWrite, message: error.localizedDescription)
        }
        let pages = try builder.writeIndex(totals: builder.totals, folderName: (path as NSString).lastPathComponent)
        try builder.writeTitles()
        builder.removeStalePages()
        return Result(files: builder.count, indexPages: pages, index: path + "/review/index.html")
    }

    /// An open folder, closed when the last reference goes.
    private final class PagesFolder: Sendable {
        let descriptor: Int32
        init(descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }
    }

    /// The first failure of a group of pages written at once (by plan order).
    private final class FirstFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var failure: (index: Int, error: Failure)?

        var isSet: Bool { lock.withLock { failure != nil } }
        var first: Failure? { lock.withLock { failure?.error } }

        func set(_ error: Failure, at index: Int) {
            lock.withLock {
                if failure == nil || index < failure!.index { failure = (index, error) }
            }
        }
    }

    /// One file of the report as the review shows it: its entry read
    /// leniently through the report's one definition (`FileReport.lenient`),
    /// so a value that cannot be read is left out and named, and the rest is
    /// shown. Every string in it is untrusted and is escaped wherever it is shown.
    struct Entry: Sendable {
        /// The plan position, from 0.
        var index: Int
        /// What could be read of the entry.
        var report: FileReport
        /// The values that could not be read (`files[i].cues is not …`).
        var unread: [ReportError]
        /// The entry as it was read, to compare with the sidecar.
        var json: JSONValue

        /// Reads the entry at plan position `index`.
        init(_ json: JSONValue, index: Int) {
            self.index = index
            self.json = json
            var problems: [ReportError] = []
            report = FileReport.lenient(json, problems: &problems) ?? .blank
            unread = problems.map { $0.at(index).under(.files) }
        }

        /// The input as named in the report (or a note that it names none).
        var input: String { report.input.isEmpty ? "(no input named)" : report.input }
        /// Whether the file was not written, or an action failed.
        var hasFailure: Bool { report.output == nil || report.error != nil || report.actions.contains { $0.state == .failed } }
        /// Whether an action was disabled (the model was unavailable).
        var hasDisabled: Bool { report.actions.contains { $0.state == .disabled } }
        /// Whether the reader left warnings.
        var hasWarnings: Bool { !report.warnings.isEmpty }
        /// Why the model was unavailable, when it was.
        var unavailability: ModelUnavailability? {
            if case .unavailable(let u)? = report.model.availability { return u }
            return nil
        }
    }

    /// Builds the pages as the entries come.
    private struct Builder {
        let folder: OutputFolder
        let pageSize: Int
        let cueLimit: Int
        /// Index rows, and which lists each is in.
        var rows: [[UInt8]] = []
        /// `titles.csv`, row by row.
        var titles = TitlesCSV.header
        var failed: [Int] = [], disabled: [Int] = [], warned: [Int] = []
        var reasons: [ReviewPages.Reason] = []
        /// The models that made the outputs shown.
        var models = ReviewPages.Provenance.Tally()
        /// Totals counted from the entries (`BatchReport.Totals.add`, as every total is).
        var totals = BatchReport.Totals()
        /// Entries whose pages are not written yet: they are written a group at
        /// a time, `jobs` at once, and the last one read waits until it is
        /// known whether another follows it.
        var pending: [Entry] = []
        let jobs: Int
        var count = 0
        /// Index pages written, by name.
        var written: Set<String> = []

        init(folder: OutputFolder, pageSize: Int, cueLimit: Int, jobs: Int) {
            self.folder = folder; self.pageSize = pageSize; self.cueLimit = cueLimit; self.jobs = jobs
        }

        /// `review/files`, opened once (never through a link) for all the file pages.
        var pagesFolderOpened: PagesFolder?

        mutating func pagesFolder() throws(Failure) -> PagesFolder {
            if let pagesFolderOpened { return pagesFolderOpened }
            do {
                let opened = PagesFolder(descriptor: try folder.openFolder(["review", "files"], create: true, for: "review/files"))
                pagesFolderOpened = opened
                return opened
            } catch {
                throw Failure(kind: .cannotWrite, message: "the review folder \(error.path) cannot be written: \(error.reason)")
            }
        }

        /// Entries per group of pages written together.
        static let groupSize = 64

        mutating func add(_ json: JSONValue) throws(Failure) {
            let entry = Entry(json, index: count)
            count += 1
            pending.append(entry)
            if pending.count > Self.groupSize {
                let last = pending.removeLast()
                try writePages(pending, lastHasNext: true)
                pending = [last]
            }
            rows.append(ReviewPages.indexRow(entry))
            titles += TitlesCSV.row(entry.report, input: entry.input)
            if entry.hasFailure { failed.append(entry.index) }
            if entry.hasDisabled { disabled.append(entry.index) }
            if entry.hasWarnings { warned.append(entry.index) }
            try tally(entry)
        }

        mutating func finish() throws(Failure) {
            try writePages(pending, lastHasNext: false)
            pending = []
        }

        private mutating func tally(_ e: Entry) throws(Failure) {
            models.add(ReviewPages.Provenance(e.report))
            do { try totals.add(e.report) } catch {
                throw Failure(kind: .unreadable, message: error.at(e.index).under(.files).inFile("report.json").localizedDescription)
            }
            if let u = e.unavailability {
                let name = u.reason.isEmpty ? "unknown" : u.reason
                let row = e.report.reasonRow.flatMap { $0.isEmpty ? nil : $0 } ?? "The model was unavailable (the report gives no reason)"
                if let i = reasons.firstIndex(where: { $0.name == name && $0.reasonRow == row && $0.remedy == u.remedy }) {
                    reasons[i].count += 1
                } else {
                    reasons.append(ReviewPages.Reason(name: name, reasonRow: row, remedy: u.remedy, permanence: u.permanence.rawValue,
                                                      offersSettings: u.offersSettings, count: 1))
                }
            }
        }

        /// Writes the pages of `entries` (consecutive in the plan), `jobs` at once.
        private mutating func writePages(_ entries: [Entry], lastHasNext: Bool) throws(Failure) {
            guard !entries.isEmpty else { return }
            let failures = FirstFailure()
            let workers = min(jobs, entries.count)
            let folder = folder, pageSize = pageSize, cueLimit = cueLimit, pages = try pagesFolder()
            let run: @Sendable (Int) -> Void = { worker in
                for i in stride(from: worker, to: entries.count, by: workers) where !failures.isSet {
                    do throws(Failure) {
                        try Self.writePage(entries[i], hasNext: i < entries.count - 1 || lastHasNext,
                                           folder: folder, pages: pages, pageSize: pageSize, cueLimit: cueLimit)
                    } catch {
                        failures.set(error, at: i)
                    }
                }
            }
            if workers == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: run) }
            if let failure = failures.first { throw failure }
        }

        private static func writePage(_ e: Entry, hasNext: Bool, folder: OutputFolder, pages: PagesFolder, pageSize: Int,
                                      cueLimit: Int) throws(Failure) {
            var captions = ReviewPages.Captions.none
            var sidecar = ReviewPages.SidecarCheck.notApplicable
            if let output = e.report.output {
                if let bytes = folder.read(output, limit: FileInput.maximumSize) {
                    do {
                        let source = try SourceText.decode(bytes: bytes)
                        // A file read with --from is written in that format whatever its name says (converted: in the format converted to).
                        if let written = e.report.convertedTo ?? e.report.fingerprint.settings.readAs {
                            captions = .read(try CaptionDocument.read(source, as: written))
                        } else {
                            let hint = CaptionFormat(fileExtension: (output as NSString).pathExtension)
                            captions = .read(try CaptionDocument.read(source, hint: hint))
                        }
                    } catch {
                        captions = .unreadable(error.localizedDescription)
                    }
                } else {
                    captions = .unreadable("it is missing, not a regular file, too large, or reached through a symbolic link")
                }
                if let bytes = folder.read(OwnedNames.sidecar(of: output), limit: JSONStream.maximumValueSize) {
                    // A sidecar as the batch writes it is the entry rendered (without the keys only report.json has):
                    // comparing bytes spares parsing it.
                    let entry = FileReport.sidecarJSON(e.json)
                    if bytes == entry.renderedBytes() { sidecar = .matches }
                    else if let json = JSONValue.parse(bytes) { sidecar = json == entry ? .matches : .differs }
                    else { sidecar = .unreadable }
                } else {
                    sidecar = .missing
                }
            }
            let listedOn = ReviewPages.Filter.all.pageName(e.index / pageSize + 1)
            let page = ReviewPages.filePage(e, captions: captions, sidecar: sidecar, indexPage: listedOn, hasNext: hasNext,
                                            cueLimit: cueLimit)
            let name = ReviewPages.pageName(e.index)
            do {
                try AtomicFileWriter.write(page, named: name, inFolder: pages.descriptor, path: folder.path + "/review/files/" + name)
            } catch {
                throw Failure(kind: .cannotWrite, message: "the review page \(error.path) cannot be written: \(error.reason)")
            }
        }

        private func write(_ bytes: [UInt8], to relative: String) throws(Failure) {
            try Self.write(bytes, to: relative, in: folder)
        }

        private static func write(_ bytes: [UInt8], to relative: String, in folder: OutputFolder) throws(Failure) {
            do {
                try folder.write(bytes, to: relative)
            } catch {
                throw Failure(kind: .cannotWrite, message: "the review page \(error.path) cannot be written: \(error.reason)")
            }
        }

        /// Writes every index page; returns how many.
        mutating func writeIndex(totals: BatchReport.Totals, folderName: String) throws(Failure) -> Int {
            let counts: [ReviewPages.Filter: Int] = [.all: rows.count, .failed: failed.count, .disabled: disabled.count,
                                                    .warnings: warned.count]
            var pages = 0
            for filter in ReviewPages.Filter.allCases {
                let members: [Int]
                switch filter {
                case .all: members = Array(rows.indices)
                case .failed: members = failed
                case .disabled: members = disabled
                case .warnings: members = warned
                }
                let pageCount = max(1, (members.count + pageSize - 1) / pageSize)
                for page in 1...pageCount {
                    let slice = members.dropFirst((page - 1) * pageSize).prefix(pageSize).map { rows[$0] }
                    let bytes = ReviewPages.indexPage(filter: filter, page: page, pages: pageCount, rows: slice[...], counts: counts,
                                                      totals: totals, reasons: reasons, models: models, folderName: folderName)
                    let name = filter.pageName(page)
                    try write(bytes, to: "review/" + name)
                    written.insert(name)
                    pages += 1
                }
            }
            return pages
        }

        /// Writes `review/titles.csv`.
        func writeTitles() throws(Failure) {
            try write(titles, to: "review/" + TitlesCSV.name)
        }

        /// Removes pages an earlier review wrote that this one did not
        /// (a smaller batch, fewer failures): only names these pages have.
        func removeStalePages() {
            folder.removeEntries(in: "review/files") { name in
                guard name.hasSuffix(".html"), let n = Int(name.dropLast(5)), name.dropLast(5).allSatisfy(\.isASCII) else { return false }
                return n > count || n < 1
            }
            folder.removeEntries(in: OwnedNames.reviewFolder) { name in
                !written.contains(name) && ReviewPages.Filter.isIndexPage(name)
            }
        }
    }
}
