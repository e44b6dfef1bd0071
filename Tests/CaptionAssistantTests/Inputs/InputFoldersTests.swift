import Foundation
import Testing
@testable import CaptionAssistant

/// The searched folders are opened once for the run, at most `limit` of them;
/// past that a folder is opened for each file and closed after it, so a
/// command line naming many folders holds no more descriptors than that.
@Suite struct InputFoldersTests {
    /// How many descriptors the process has open on `folder` or inside it (other tests run beside this one
    /// and open their own files: only this test's folder is counted).
    static func openDescriptors(under folder: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd) else { return false }
            return target == folder || target.hasPrefix(folder + "/")
        }.count
    }

    @Test func atMostTheLimitIsKeptOpenAndEveryFileIsRead() throws {
        let dir = try TemporaryFolder()
        let names = (0..<5).map { "in\($0)" }
        for (n, name) in names.enumerated() { try dir.write(name + "/a.srt", "file \(n)") }
        let plan = try InputPlan.make(inputs: names.map { dir.path + "/" + $0 }, outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.items.count == 5 && plan.items.allSatisfy { $0.searchedFolderLength != nil })
        let folders = InputFolders(limit: 2)
        let root = URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path
        #expect(Self.openDescriptors(under: root) == 0)
        for _ in 0..<20 {
            for (n, item) in plan.items.enumerated() {
                #expect(try FileInput.read(item, folders: folders) == Array("file \(n)".utf8))
            }
        }
        #expect(folders.keptCount == 2)
        // The two kept, and nothing else left open by the reads past the limit.
        #expect(Self.openDescriptors(under: root) == 2)
    }
}
