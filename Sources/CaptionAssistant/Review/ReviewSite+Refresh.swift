#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A review is never left showing an older run as the current one: a run
/// that writes `report.json` (`process`, `merge`) into a folder that has a
/// review makes it again from the new report.
///
/// Regenerating was chosen over marking the old site with the run it shows:
/// a mark is read only by someone who compares it with the report, while a
/// person who opens `review/index.html` takes what it shows as the folder's
/// state; and a review costs about what the batch itself costs (on the
/// 5,000-file batch, a little under it), only where one was asked for. When
/// it cannot be made again (a page cannot be written), the old one's files
/// that present the run as a whole (`showsTheRun`: the index pages and
/// `titles.csv`) are removed, so that none is opened as current, and the
/// caller says so.
extension ReviewSite {
    /// What `refresh` did.
    public enum Refresh: Sendable, Equatable {
        /// The folder has no review: nothing to do.
        case none
        /// The review was made again from the new report.
        case rebuilt(Result)
        /// It could not be made again; the old index pages and `titles.csv` were removed (`removedIndex`, or could not be).
        case failed(message: String, removedIndex: Bool)
    }

    /// Whether the output folder `path` has a review (`review/index.html`, a regular file).
    public static func isPresent(in path: String) -> Bool {
        var info = stat()
        return lstat(path + "/" + OwnedNames.reviewFolder + "/" + ReviewPages.Filter.all.pageName(1), &info) == 0
            && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `name`, in `review/`, presents the run as a whole: an index
    /// page or `titles.csv` (a file's own page names its file and run).
    static func showsTheRun(_ name: String) -> Bool {
        ReviewPages.Filter.isIndexPage(name) || name == TitlesCSV.name
    }

    /// Whether the output folder `path` has `review/titles.csv` (anything by that name).
    static func isTitlesPresent(in path: String) -> Bool {
        var info = stat()
        return lstat(path + "/" + OwnedNames.reviewFolder + "/" + TitlesCSV.name, &info) == 0
    }

    /// Makes the review of the output folder `path` again when it has one
    /// (see the type's note), `jobs` pages at once.
    public static func refresh(outputFolder path: String, jobs: Int) -> Refresh {
        guard isPresent(in: path) else { return .none }
        do {
            return .rebuilt(try build(outputFolder: path, jobs: jobs))
        } catch {
            var removed = false
            if let folder = try? OutputFolder(path: path) {
                folder.removeEntries(in: OwnedNames.reviewFolder, where: showsTheRun)
                removed = !isPresent(in: path) && !isTitlesPresent(in: path)
            }
            return .failed(message: error.message, removedIndex: removed)
        }
    }
}
