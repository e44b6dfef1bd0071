import Foundation
import Testing
import TestSupport

/// What a folder search cannot read is named in the report, never passed
/// over: a subfolder that cannot be opened, a caption-named link that leads
/// nowhere or loops. The batch then exits 1, as for any file that failed.
@Suite(.mayBlock) struct UnsearchedEntriesTests {
    static let srt = Data("1\n00:00:01,000 --> 00:00:02,000\nHello rocket\n".utf8)

    /// How the executable is run without the power to read what its
    /// permissions refuse: as root (as the suite often runs), through
    /// `setpriv` with `CAP_DAC_OVERRIDE` and `CAP_DAC_READ_SEARCH` taken out
    /// of its bounding set, so a folder of mode 000 refuses it too.
    static var withoutOverride: [String] {
        geteuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"] : []
    }

    @Test func anUnreadableFolderAndLinksToNothingAreInTheReport() throws {
        try #require(geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                     "running as root needs setpriv (util-linux) to test a folder it cannot read")
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        let locked = input.appendingPathComponent("sub/locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try Self.srt.write(to: input.appendingPathComponent("b.srt"))
        try Self.srt.write(to: locked.appendingPathComponent("a.srt"))
        try Self.srt.write(to: input.appendingPathComponent("sub/c.srt"))
        try FileManager.default.createSymbolicLink(atPath: input.appendingPathComponent("dangling.srt").path, withDestinationPath: "nowhere.srt")
        try FileManager.default.createSymbolicLink(atPath: input.appendingPathComponent("sub/loop.vtt").path, withDestinationPath: "loop.vtt")
        // A link to a folder is still not searched, and needs no entry (as a folder inside is searched on its own).
        try FileManager.default.createSymbolicLink(atPath: input.appendingPathComponent("folder.srt").path, withDestinationPath: "sub")
        #expect(chmod(locked.path, 0) == 0)
        defer { chmod(locked.path, 0o755) }

        let run = try ExecutableRun.run(["in", "-o", "out", "--model", "none"], in: scratch.url, launcher: Self.withoutOverride)
        #expect(run.status == 1, "\(run.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.url.appendingPathComponent("out/report.json"))) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        var errors: [String: String] = [:]
        for file in files { errors[file["input"] as? String ?? "?"] = file["error"] as? String ?? "" }
        #expect(errors.keys.sorted() == ["in/b.srt", "in/dangling.srt", "in/sub/c.srt", "in/sub/locked", "in/sub/loop.vtt"], "\(errors)")
        #expect(errors["in/b.srt"] == "" && errors["in/sub/c.srt"] == "")
        #expect(errors["in/sub/locked"]?.contains("not searched: the folder could not be opened (Permission denied)") == true, "\(errors)")
        #expect(errors["in/dangling.srt"]?.contains("symbolic link whose target cannot be found") == true, "\(errors)")
        #expect(errors["in/sub/loop.vtt"]?.hasPrefix("not read: ") == true, "\(errors)")
        #expect(run.stderrText.contains("in/sub/locked"), "\(run.stderrText)")
        #expect(run.stderrText.contains("in/dangling.srt"), "\(run.stderrText)")
    }
}
