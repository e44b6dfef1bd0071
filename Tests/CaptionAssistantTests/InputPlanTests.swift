import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct InputPlanTests {
    @Test func foldersAreMirroredAndFilesLandAtTheTop() throws {
        let dir = try TemporaryFolder()
        try dir.write("shows/s2/ep1.srt", "x")
        try dir.write("shows/s1/ep2.vtt", "x")
        try dir.write("shows/s1/ep1.srt", "x")
        try dir.write("shows/s1/notes.txt", "x")
        try dir.write("shows/.hidden/ep9.srt", "x")
        try dir.write("shows/s1/meta.xml", "<catalog/>")
        try dir.write("shows/s1/show.xml", "<?xml version=\"1.0\"?><tt xmlns=\"http://www.w3.org/ns/ttml\"></tt>")
        try dir.write("single/extra.webvtt", "x")
        let plan = try InputPlan.make(inputs: [dir.path + "/shows/", dir.path + "/single/extra.webvtt"],
                                      outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.items.map(\.output) == ["s1/ep1.srt", "s1/ep2.vtt", "s1/show.xml", "s2/ep1.srt", "extra.webvtt"])
        #expect(plan.items[0].input == dir.path + "/shows/s1/ep1.srt")
        #expect(plan.items[1].hint == .vtt)
        #expect(plan.items.allSatisfy { if case .file = $0.location { return true }; return false })
    }

    @Test func conversionChangesTheExtension() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", "x")
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: .vtt)
        #expect(plan.items.map(\.output) == ["a.vtt"])
    }

    @Test func refusesAnOutputFolderInsideAnInputFolder() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", "x")
        for output in [dir.path + "/in/out", dir.path + "/in", dir.path + "/in/./deeper/../out2"] {
            #expect(throws: UsageError.self) {
                try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: output, convertTo: nil)
            }
        }
        // A sibling whose name merely starts the same is fine.
        #expect(try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/in-out", convertTo: nil).items.count == 1)
    }

    @Test func missingInputsAndCollisionsAreMarked() throws {
        let dir = try TemporaryFolder()
        try dir.write("a/ep.srt", "x")
        try dir.write("b/ep.srt", "x")
        let plan = try InputPlan.make(inputs: [dir.path + "/a", dir.path + "/b", dir.path + "/nope.srt", "-"],
                                      outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.items.count == 4)
        #expect(plan.items[0].location == .file(dir.path + "/a/ep.srt"))
        guard case .refused(let reason) = plan.items[1].location else { Issue.record("not refused"); return }
        #expect(reason.contains("same output path"))
        #expect(plan.items[2].location == .missing)
        #expect(plan.items[3].location == .standardInput)
    }

    @Test func refusesToOverwriteAnInput() throws {
        let dir = try TemporaryFolder()
        try dir.write("a.srt", "x")
        let plan = try InputPlan.make(inputs: [dir.path + "/a.srt"], outputFolder: dir.path, convertTo: nil)
        guard case .refused(let reason) = plan.items[0].location else { Issue.record("not refused"); return }
        #expect(reason.contains("overwrite"))
    }
}
