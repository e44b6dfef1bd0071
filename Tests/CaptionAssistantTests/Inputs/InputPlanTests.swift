import Foundation
import Captions
import Testing
@testable import CaptionAssistant

@Suite struct InputPlanTests {
    /// Several inputs: each folder's files under the folder's own name, files named alone at the top (as `cp -r a b dest`).
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
        #expect(plan.items.map(\.output) == ["shows/s1/ep1.srt", "shows/s1/ep2.vtt", "shows/s1/show.xml", "shows/s2/ep1.srt", "extra.webvtt"])
        // One folder alone: its files at the top.
        let alone = try InputPlan.make(inputs: [dir.path + "/shows/"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(alone.items.map(\.output) == ["s1/ep1.srt", "s1/ep2.vtt", "s1/show.xml", "s2/ep1.srt"])
        #expect(plan.items[0].input == dir.path + "/shows/s1/ep1.srt")
        #expect(plan.items[1].hint == .vtt)
        #expect(plan.items.allSatisfy { if case .file = $0.location { return true }; return false })
    }

    /// An input whose output would take a name the tool owns (`OwnedNames`: the batch report, a
    /// report part, the review's folder, a sidecar, a temporary file) is refused with its own error,
    /// so it is never overwritten by, read as, or removed with the tool's file; the other inputs go on.
    @Test(arguments: [("report.json", "batch report"), ("Report.JSON", "batch report"),
                      ("report.shard-1-of-2.json", "report part"), ("report.shard-0-of-1.json", "report part"),
                      ("x.assistant.json", "sidecar"), ("ep1.srt.ASSISTANT.json", "sidecar"),
                      (".ep1.srt.tmp-12-34-0", "temporary"), (".caption-assistant-probe-1-2", "probe")])
    func anInputNamedLikeAFileTheToolOwnsIsRefused(name: String, owner: String) throws {
        let dir = try TemporaryFolder()
        try dir.write("in/" + name, sampleSRT)
        try dir.write("in/a.srt", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/in/" + name, dir.path + "/in/a.srt"], outputFolder: dir.path + "/out",
                                      convertTo: nil)
        #expect(plan.items.count == 2)
        guard case .refused(let reason) = plan.items[0].location else {
            Issue.record("\(name) was not refused: \(plan.items[0].location)")
            return
        }
        #expect(reason.contains(owner) && reason.contains("rename the file"), "\(reason)")
        #expect(plan.items[1].location == .file(dir.path + "/in/a.srt"))
    }

    /// The review's folder is the tool's at the top of the output folder only; a part's or the
    /// report's name deeper down is an ordinary caption's.
    @Test func theReviewFolderIsReservedAtTheTopOnly() throws {
        let dir = try TemporaryFolder()
        for name in ["review/ep1.srt", "s1/review/ep2.srt", "s1/report.json.srt"] { try dir.write("in/" + name, sampleSRT) }
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let refused = plan.items.filter { if case .refused = $0.location { return true }; return false }.map(\.output)
        #expect(refused == ["review/ep1.srt"])
        // Several inputs: a folder named `review` is mirrored under its name, at the top.
        let two = try InputPlan.make(inputs: [dir.path + "/in/review", dir.path + "/in/s1"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(two.items.filter { if case .refused = $0.location { return true }; return false }.map(\.output) == ["review/ep1.srt"])
    }

    /// A folder given as input with no caption file in it is named, for the warning.
    @Test func aFolderWithNoCaptionFileIsNamed() throws {
        let dir = try TemporaryFolder()
        try dir.write("empty/rocket.txt", sampleSRT)
        try dir.write("full/a.srt", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/empty", dir.path + "/full"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.emptyFolders == [dir.path + "/empty"])
        #expect(plan.items.count == 1)
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
            #expect(throws: SettingsError.self) {
                try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: output, convertTo: nil)
            }
        }
        // A sibling whose name merely starts the same is fine.
        #expect(try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/in-out", convertTo: nil).items.count == 1)
    }

    @Test func missingInputsAndCollisionsAreMarked() throws {
        let dir = try TemporaryFolder()
        try dir.write("a/x/ep.srt", "x")
        try dir.write("b/x/ep.srt", "x")
        let plan = try InputPlan.make(inputs: [dir.path + "/a/x", dir.path + "/b/x", dir.path + "/nope.srt", "-"],
                                      outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.items.count == 4)
        #expect(plan.items[0].location == .file(dir.path + "/a/x/ep.srt"))
        guard case .refused(let reason) = plan.items[1].location else { Issue.record("not refused"); return }
        #expect(reason.contains("also the output of \(dir.path)/a/x/ep.srt"), "\(reason)")
        #expect(plan.items[2].location == .missing)
        #expect(plan.items[3].location == .standardInput)
    }

    /// The same file named twice (`ep.srt ./ep.srt`, a folder twice) is one item, and the repeat is
    /// listed to be warned about, as `cp a a dest/` copies once and warns: not a failure.
    @Test func aFileGivenTwiceIsProcessedOnceAndNotRefused() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/ep.srt", "x")
        try dir.write("in/other/ep.srt", "x")
        let plan = try InputPlan.make(inputs: [dir.path + "/in/ep.srt", dir.path + "/in/./ep.srt", dir.path + "/in/other/ep.srt"],
                                      outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.items.count == 2)
        #expect(plan.items[0].location == .file(dir.path + "/in/ep.srt"))
        #expect(plan.repeated == [InputPlan.Repeat(input: dir.path + "/in/./ep.srt", sameAs: dir.path + "/in/ep.srt")])
        // Another file with the same output name is still a collision, refused with both names.
        guard case .refused(let reason) = plan.items[1].location else { Issue.record("not refused"); return }
        #expect(reason.contains("also the output of \(dir.path)/in/ep.srt"), "\(reason)")
        let twice = try InputPlan.make(inputs: [dir.path + "/in", dir.path + "/in/"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(twice.items.count == 2 && twice.repeated.count == 2)
        #expect(twice.items.allSatisfy { if case .file = $0.location { return true }; return false })
    }

    /// A folder and a file inside it (`dir dir/sub/a.srt`, either order) name the file twice
    /// under two output names (`dir/sub/a.srt`, `a.srt`): it is processed once, under its first
    /// mention, and the repeat is listed to be warned about. It was processed twice, silently.
    @Test func aFileGivenThroughItsFolderAndByItsPathIsProcessedOnce() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/a.srt", "x")
        try dir.write("in/sub/b.srt", "x")
        let folder = dir.path + "/in"
        let plan = try InputPlan.make(inputs: [folder, folder + "/sub/b.srt", folder + "/a.srt"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.items.map(\.output) == ["in/a.srt", "in/sub/b.srt"])
        #expect(plan.repeated == [InputPlan.Repeat(input: folder + "/sub/b.srt", sameAs: folder + "/sub/b.srt"),
                                  InputPlan.Repeat(input: folder + "/a.srt", sameAs: folder + "/a.srt")])
        let fileFirst = try InputPlan.make(inputs: [folder + "/./a.srt", folder], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(fileFirst.items.map(\.output) == ["a.srt", "in/sub/b.srt"])
        #expect(fileFirst.repeated == [InputPlan.Repeat(input: folder + "/a.srt", sameAs: folder + "/./a.srt")])
    }

    @Test func refusesToOverwriteAnInput() throws {
        let dir = try TemporaryFolder()
        try dir.write("a.srt", "x")
        let plan = try InputPlan.make(inputs: [dir.path + "/a.srt"], outputFolder: dir.path, convertTo: nil)
        guard case .refused(let reason) = plan.items[0].location else { Issue.record("not refused"); return }
        #expect(reason.contains("overwrite"))
    }

    @Test func linksLeavingASearchedFolderAreRefusedAndLinksInsideAreFollowed() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/real.srt", sampleSRT)
        try dir.write("outside/secret.srt", sampleSRT)
        try dir.write("outside/deep/other.srt", sampleSRT)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir.path + "/in/absolute.srt", withDestinationPath: dir.path + "/outside/secret.srt")
        try fm.createSymbolicLink(atPath: dir.path + "/in/relative.srt", withDestinationPath: "../outside/secret.srt")
        try fm.createSymbolicLink(atPath: dir.path + "/in/inside.srt", withDestinationPath: "real.srt")
        try fm.createSymbolicLink(atPath: dir.path + "/in/folder", withDestinationPath: dir.path + "/outside/deep")
        let plan = try InputPlan.make(inputs: [dir.path + "/in", dir.path + "/outside/secret.srt"], outputFolder: dir.path + "/out", convertTo: nil)
        let byName = Dictionary(uniqueKeysWithValues: plan.items.map { ($0.output, $0.location) })
        #expect(plan.items.map(\.output) == ["in/absolute.srt", "in/inside.srt", "in/real.srt", "in/relative.srt", "secret.srt"])
        for name in ["in/absolute.srt", "in/relative.srt"] {
            guard case .refused(let reason)? = byName[name] else { Issue.record("\(name) was not refused"); continue }
            #expect(reason.contains("outside the input folder"))
        }
        #expect(byName["in/inside.srt"] == .file(dir.path + "/in/inside.srt"))
        // Named on the command line, the file outside is read.
        #expect(byName["secret.srt"] == .file(dir.path + "/outside/secret.srt"))
    }

    /// A link is followed only along a path that stays inside the folder: a
    /// target that climbs out, even to come back in, is refused; an absolute
    /// target inside the folder (by its real path or as the user named it) is
    /// followed; so is a link through a folder link inside. A link whose name
    /// is not UTF-8 is judged the same (it was once read through, whatever
    /// its target: its shown name could not be looked at).
    @Test func linksAreFollowedOnlyWhileTheyStayInsideTheFolder() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/real.srt", sampleSRT)
        try dir.write("in/sub/deeper.srt", sampleSRT)
        try dir.write("outside/secret.srt", sampleSRT)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: dir.path + "/in/out-and-back.srt", withDestinationPath: "../in/real.srt")
        try fm.createSymbolicLink(atPath: dir.path + "/in/absolute-inside.srt", withDestinationPath: dir.path + "/in/sub/deeper.srt")
        try fm.createSymbolicLink(atPath: dir.path + "/in/sub-link", withDestinationPath: "sub")
        try fm.createSymbolicLink(atPath: dir.path + "/in/through-folder-link.srt", withDestinationPath: "sub-link/deeper.srt")
        try fm.createSymbolicLink(atPath: dir.path + "/in/up-from-sub.srt", withDestinationPath: "sub/../real.srt")
        let notUTF8 = Array((dir.path + "/in/caf").utf8) + [0xE9] + Array(".srt".utf8)
        #expect(symlink(dir.path + "/outside/secret.srt", notUTF8.map { CChar(bitPattern: $0) } + [0]) == 0)
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        let byName = Dictionary(uniqueKeysWithValues: plan.items.map { ($0.output, $0.location) })
        for name in ["out-and-back.srt", "caf\\xE9.srt"] {
            guard case .refused(let reason)? = byName[name] else { Issue.record("\(name) was not refused: \(String(describing: byName[name]))"); continue }
            #expect(reason.contains("outside the input folder"), "\(name): \(reason)")
        }
        for name in ["absolute-inside.srt", "through-folder-link.srt", "up-from-sub.srt"] {
            guard case .file? = byName[name], let item = plan.items.first(where: { $0.output == name }) else {
                Issue.record("\(name) was not taken: \(String(describing: byName[name]))"); continue
            }
            #expect(try FileInput.read(item) == Array(sampleSRT.utf8), "\(name)")
        }
    }

    @Test func dotDotInInputNamesStaysInsideTheOutputFolder() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/sub/ep.srt", sampleSRT)
        try dir.write("in/top.srt", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/in/sub/..", dir.path + "/in/sub/../top.srt"],
                                      outputFolder: dir.path + "/out", convertTo: nil)
        for item in plan.items {
            #expect(OutputFolder.safeParts(item.output) != nil, "\(item.output)")
        }
        // `in/sub/..` is mirrored under its real name, `in`; `in/sub/../top.srt` is its top.srt again, processed once.
        #expect(plan.items.map(\.output) == ["in/sub/ep.srt", "in/top.srt"])
        #expect(plan.repeated.map(\.input) == [dir.path + "/in/sub/../top.srt"])
    }

    @Test func theExtensionIsWhatNSStringSays() {
        let names = ["ep1.srt", "EP1.SRT", "a.b.vtt", "noext", "trailing.", ".hidden", ".hidden.srt", "dir.d/file", "dir.d/file.ttml",
                     "s1/ep 1.web vtt", "é.dfxp", "a..srt", "x/.srt", "x/y.", "🎬.xml", "", "."]
        for name in names {
            #expect(InputPlan.extensionOf(name) == (name as NSString).pathExtension, "\(name)")
        }
    }

    @Test func pathsSortByTheirBytes() {
        let paths = ["b", "a/b", "a", "a-b", "a/a", "É", "z", "Z", "a/b/c", "e\u{301}", "é", ""]
        let expected = paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(paths.sorted(by: InputPlan.precedesByBytes) == expected)
    }

    @Test func anOutputNamedLikeATemporaryFileIsRefused() throws {
        let dir = try TemporaryFolder()
        try dir.write(".a.srt.tmp-12-34-0", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/.a.srt.tmp-12-34-0"], outputFolder: dir.path + "/out", convertTo: nil)
        guard case .refused(let reason) = plan.items[0].location else { Issue.record("not refused"); return }
        #expect(reason.contains("temporary files"))
    }

    @Test func nfcAndNfdSpellingsAreTwoOutputsNotACollision() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/caf\u{E9}.srt", sampleSRT)
        try dir.write("in/cafe\u{301}.srt", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.items.count == 2)
        #expect(plan.items.allSatisfy { if case .file = $0.location { return true }; return false })
    }

    @Test func aFileNamedLikeStandardInputsOutputIsRefused() throws {
        let dir = try TemporaryFolder()
        try dir.write("stdin.srt", sampleSRT)
        let plan = try InputPlan.make(inputs: [dir.path + "/stdin.srt", "-"], outputFolder: dir.path + "/out", convertTo: nil)
        guard case .refused(let reason) = plan.items[0].location else { Issue.record("not refused"); return }
        #expect(reason.contains("standard input"))
        #expect(plan.items[1].location == .standardInput)
    }
}

/// The folder search takes what `CaptionFileExtension.all` says: every
/// extension found always, `.xml` only holding TTML; the stale outputs look
/// at every extension.
@Suite struct InputPlanExtensionTableTests {
    static let ttml = "<?xml version=\"1.0\"?><tt xmlns=\"http://www.w3.org/ns/ttml\"></tt>"

    @Test func aFolderSearchFindsWhatTheTableSays() throws {
        let dir = try TemporaryFolder()
        var expected: [String] = []
        for entry in CaptionFileExtension.all {
            try dir.write("in/a.\(entry.name)", Self.ttml)
            try dir.write("in/b.\(entry.name.uppercased())", "<catalog/>")
            expected.append("a.\(entry.name)")
            if entry.folderSearch == .always { expected.append("b.\(entry.name.uppercased())") }
        }
        try dir.write("in/c.txt", Self.ttml)
        let plan = try InputPlan.make(inputs: [dir.path + "/in"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(plan.items.map(\.output).sorted() == expected.sorted())
        #expect(plan.items.allSatisfy { item in CaptionFileExtension.named(InputPlan.extensionOf(item.output))?.format == item.hint })
        // `.imsc` is read when named, and found in a folder too.
        #expect(plan.items.contains { $0.output == "a.imsc" })
    }

    @Test func searchedForNamesEveryExtension() {
        for entry in CaptionFileExtension.all { #expect(InputPlan.searchedFor.contains("." + entry.name)) }
        #expect(InputPlan.searchedFor == ".srt, .vtt, .webvtt, .ttml, .dfxp, .imsc, and .xml holding TTML")
    }

    @Test func staleOutputsLookAtEveryExtension() throws {
        let dir = try TemporaryFolder()
        try dir.write("in/ep.srt", "x")
        for entry in CaptionFileExtension.all where entry.name != "srt" {
            try dir.write("out/ep.\(entry.name)", "x")
            try dir.write("out/ep.\(entry.name).assistant.json", "{}")
        }
        let plan = try InputPlan.make(inputs: [dir.path + "/in/ep.srt"], outputFolder: dir.path + "/out", convertTo: nil)
        #expect(StaleOutputs.find(plan, in: dir.path + "/out") == CaptionFileExtension.all.filter { $0.name != "srt" }.map { "ep." + $0.name })
    }
}
