import Foundation
import Testing
import TestSupport

/// Names with `..`, links pointing out of the input tree and links planted in
/// the output folder never make the tool write outside the output folder; an
/// output folder that cannot be written is an error before any work starts.
@Suite(.mayBlock) struct OutputSafetyTests {
    /// Every file and link outside `out/`, with its bytes or link target.
    func snapshot(_ root: URL) -> [String: String] {
        var result: [String: String] = [:]
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: root.path) else { return [:] }
        while let relative = walker.nextObject() as? String {
            if relative == "out" || relative.hasPrefix("out/") { continue }
            let path = root.appendingPathComponent(relative).path
            switch walker.fileAttributes?[.type] as? FileAttributeType {
            case .typeSymbolicLink?: result[relative] = "link to " + ((try? fm.destinationOfSymbolicLink(atPath: path)) ?? "?")
            case .typeRegular?: result[relative] = (try? Data(contentsOf: URL(fileURLWithPath: path)))?.base64EncodedString() ?? "?"
            default: result[relative] = "folder"
            }
        }
        return result
    }

    @Test func nothingIsWrittenOutsideTheOutputFolder() throws {
        let scratch = try ScratchFolder()
        let root = scratch.url
        let fm = FileManager.default
        let srt = "1\n00:00:01,000 --> 00:00:02,000\nThe rocket launch is today.\n"
        for path in ["in/ep.srt", "in/sub/x.srt", "outside/secret.srt", "outside/dir/deep.srt"] {
            try fm.createDirectory(at: root.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(srt.utf8).write(to: root.appendingPathComponent(path))
        }
        try Data("precious".utf8).write(to: root.appendingPathComponent("outside/precious.txt"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("in/absolute.srt").path,
                                  withDestinationPath: root.appendingPathComponent("outside/secret.srt").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("in/relative.srt").path, withDestinationPath: "../outside/secret.srt")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("in/linked-folder").path,
                                  withDestinationPath: root.appendingPathComponent("outside/dir").path)
        // Links planted in the output folder: at a file's name, and as a subfolder. With several
        // inputs the folder `in` is mirrored under its own name, `out/in/`.
        try fm.createDirectory(at: root.appendingPathComponent("out/in"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("out/in/ep.srt").path,
                                  withDestinationPath: root.appendingPathComponent("outside/precious.txt").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("out/in/sub").path,
                                  withDestinationPath: root.appendingPathComponent("outside/dir").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("out/in/ep.srt.assistant.json").path,
                                  withDestinationPath: root.appendingPathComponent("outside/new.json").path)
        let before = snapshot(root)

        // A file named with `..` (another than the folder's: the same file twice is processed once, under its first mention).
        let run = try ExecutableRun.run(["-test-fake-assistant", "in", "in/sub/../../outside/dir/deep.srt", "-o", "out"], in: root)
        #expect(run.status == 1)
        #expect(snapshot(root) == before, "something outside out/ changed")

        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("out/report.json"))) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        var byInput: [String: [String: Any]] = [:]
        for file in files { byInput[file["input"] as? String ?? ""] = file }
        #expect(Set(byInput.keys) == ["in/absolute.srt", "in/ep.srt", "in/relative.srt", "in/sub/x.srt", "in/sub/../../outside/dir/deep.srt"])
        for link in ["in/absolute.srt", "in/relative.srt"] {
            #expect((byInput[link]?["error"] as? String)?.contains("outside the input folder") == true, "\(link)")
        }
        #expect((byInput["in/sub/x.srt"]?["error"] as? String)?.contains("symbolic link") == true)
        #expect(byInput["in/ep.srt"]?["output"] as? String == "in/ep.srt")
        #expect(byInput["in/sub/../../outside/dir/deep.srt"]?["output"] as? String == "deep.srt")
        // The planted links were replaced by the real outputs, not followed.
        for name in ["out/in/ep.srt", "out/in/ep.srt.assistant.json", "out/deep.srt"] {
            let type = try fm.attributesOfItem(atPath: root.appendingPathComponent(name).path)[.type] as? FileAttributeType
            #expect(type == .typeRegular, "\(name)")
        }
        #expect(String(decoding: try Data(contentsOf: root.appendingPathComponent("out/in/ep.srt")), as: UTF8.self).contains("<b>rocket</b>"))
    }

    @Test(arguments: ["file/out", "file", "file/a/b/c"])
    func anUnwritableOutputFolderExits73BeforeAnyWork(output: String) throws {
        let scratch = try ScratchFolder()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("in"), withIntermediateDirectories: true)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello.\n".utf8).write(to: scratch.url.appendingPathComponent("in/a.srt"))
        try Data("not a folder".utf8).write(to: scratch.url.appendingPathComponent("file"))
        let run = try ExecutableRun.run(["-test-fake-assistant", "in", "-o", output], in: scratch.url)
        #expect(run.status == 73)
        #expect(run.stderrText.contains("cannot write to the output folder \(output)"), "\(run.stderrText)")
        #expect(run.stderrText.split(separator: "\n").count == 1, "\(run.stderrText)")
        #expect(filesUnder(scratch.url) == ["file", "in/a.srt"])
    }
}
