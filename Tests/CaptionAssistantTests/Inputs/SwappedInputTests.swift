import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

/// Inputs changed between the plan and the read: while the model answers for
/// an earlier file, a later file (or a folder on its way) is swapped for a
/// symbolic link. The read opens from the searched folder one name at a time
/// (`FileInput.openInput`), so a link out of the folder is never followed,
/// whatever the plan saw; a link that stays inside still is.
@Suite struct SwappedInputTests {
    /// Words only the file outside the input folder holds.
    static let secret = "SECRET outside the input folder"

    /// A model that, the first time it is asked, runs `swap` (the moment the
    /// earlier file is in the model's hands), then answers as the fake does.
    final class SwappingModel: AssistantModel, @unchecked Sendable {
        private let lock = NSLock()
        private var swap: (() throws -> Void)?
        private(set) var swapError: (any Error)?

        init(swap: @escaping () throws -> Void) { self.swap = swap }

        func respond(to prompt: AssistantPrompt) async throws -> ModelAnswer {
            let once = lock.withLock { () -> (() throws -> Void)? in defer { swap = nil }; return swap }
            do { try once?() } catch { lock.withLock { swapError = error } }
            return try await FakeAssistantModel().respond(to: prompt)
        }
    }

    /// Plans `in/`, runs it with one job and a model that runs `swap` while it
    /// answers for the first file, and returns the reports by output name.
    static func run(_ dir: TemporaryFolder, swap: @escaping () throws -> Void) async throws -> [String: FileReport] {
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let model = SwappingModel(swap: swap)
        let runner = BatchRunner(processor: FileProcessor(configuration: fakeConfiguration(model: model)),
                                 destination: .folder(dir.path + "/out"), jobs: 1, keepsReports: true)
        let result = await runner.run(plan)
        #expect(model.swapError == nil, "the swap failed: \(String(describing: model.swapError))")
        return Dictionary(uniqueKeysWithValues: zip(plan.items.map(\.output), result.files))
    }

    /// No file under `out/` holds the outside file's words.
    static func expectNothingCopiedOut(_ dir: TemporaryFolder) {
        let out = dir.path + "/out"
        for name in (FileManager.default.subpaths(atPath: out) ?? []) {
            let text = (try? String(contentsOfFile: out + "/" + name, encoding: .utf8)) ?? ""
            #expect(!text.contains(secret), "\(name) holds the outside file's text")
        }
    }

    @Test func aFileSwappedForALinkOutOfTheFolderWhileTheModelAnswersIsNotRead() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", sampleSRT)
        try dir.write("in/z.srt", sampleSRT)
        try dir.write("outside/secret.srt", sampleSRT.replacingOccurrences(of: "The rocket is on the pad.", with: Self.secret))
        let reports = try await Self.run(dir) {
            try FileManager.default.removeItem(atPath: dir.path + "/in/z.srt")
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/in/z.srt", withDestinationPath: dir.path + "/outside/secret.srt")
        }
        #expect(reports["a.srt"]?.error == nil)
        #expect(reports["z.srt"]?.error?.contains("symbolic link to a file outside the input folder") == true,
                "\(String(describing: reports["z.srt"]?.error))")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/out/z.srt"))
        Self.expectNothingCopiedOut(dir)
    }

    @Test func aFolderSwappedForALinkOutOfTheFolderWhileTheModelAnswersIsNotEntered() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", sampleSRT)
        try dir.write("in/sub/z.srt", sampleSRT)
        try dir.write("outside/sub/z.srt", sampleSRT.replacingOccurrences(of: "The rocket is on the pad.", with: Self.secret))
        let reports = try await Self.run(dir) {
            try FileManager.default.moveItem(atPath: dir.path + "/in/sub", toPath: dir.path + "/old-sub")
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/in/sub", withDestinationPath: dir.path + "/outside/sub")
        }
        #expect(reports["a.srt"]?.error == nil)
        #expect(reports["sub/z.srt"]?.error?.contains("a folder on its path is a symbolic link that leads outside the input folder") == true,
                "\(String(describing: reports["sub/z.srt"]?.error))")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/out/sub/z.srt"))
        Self.expectNothingCopiedOut(dir)
    }

    /// The rule is about leaving the folder, not about links: a file swapped
    /// for a link to another file inside the folder is read through it, as a
    /// link found by the search is.
    @Test func aFileSwappedForALinkInsideTheFolderIsStillRead() async throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", sampleSRT)
        try dir.write("in/sub/other.srt", sampleSRT.replacingOccurrences(of: "pad", with: "gantry"))
        try dir.write("in/z.srt", sampleSRT)
        let reports = try await Self.run(dir) {
            try FileManager.default.removeItem(atPath: dir.path + "/in/z.srt")
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/in/z.srt", withDestinationPath: "sub/../sub/other.srt")
        }
        #expect(reports["z.srt"]?.error == nil, "\(String(describing: reports["z.srt"]?.error))")
        #expect(try String(contentsOfFile: dir.path + "/out/z.srt", encoding: .utf8).contains("gantry"))
    }
}
