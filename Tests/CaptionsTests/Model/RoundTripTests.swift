import Foundation
import Testing
@testable import Captions

/// Every file under `Fixtures/valid/` (any format, any subfolder) read and
/// written back with no edits must come out byte for byte as it went in.
@Suite("Round trip")
struct RoundTripTests {
    /// Paths of the valid fixtures, relative to `Fixtures/valid/`, hidden files left out.
    static func validFixtures() -> [String] {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil)?
            .appendingPathComponent("valid"),
            let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                       options: [.skipsHiddenFiles]) else { return [] }
        var paths: [String] = []
        let prefix = root.standardizedFileURL.path + "/"
        for case let url as URL in walk {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            paths.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
        }
        return paths.sorted()
    }

    /// The format an extension suggests (as the command line does).
    static func hint(for path: String) -> CaptionFormat? {
        CaptionFormat(fileExtension: (path as NSString).pathExtension)
    }

    @Test(arguments: validFixtures())
    func unchangedWriteIsByteIdentical(_ path: String) throws {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let data = try Data(contentsOf: root.appendingPathComponent("valid").appendingPathComponent(path))
        let doc = try CaptionDocument.read(data, hint: Self.hint(for: path))
        #expect(!doc.cues.isEmpty, "\(path) read with no cues")
        let written = try doc.write()
        #expect(written == data, "\(path) changed on a write with no edits")
    }

    @Test func theFixtureSetIsFound() {
        let srt = Self.validFixtures().filter { $0.hasPrefix("srt/") }
        // The SRT set alone has the 24 edge cases this suite is meant to cover.
        #expect(srt.count >= 24, "found \(srt)")
    }
}
