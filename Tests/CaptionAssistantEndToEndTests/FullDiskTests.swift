import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN), tried once.
enum TmpfsMount {
    static let allowed: Bool = {
        #if os(Linux)
        guard let scratch = try? ScratchFolder() else { return false }
        let point = scratch.url.appendingPathComponent("probe").path
        guard mkdir(point, 0o755) == 0, mount("tmpfs", point, "tmpfs", 0, "size=16k") == 0 else { return false }
        umount(point)
        return true
        #else
        return false
        #endif
    }()
}

/// A full disk, on a small tmpfs the test mounts (as root; where mounting is
/// not allowed the suite does not run): never a report claimed that was not
/// written, nor actions counted as applied for captions never written.
@Suite(.enabled(if: TmpfsMount.allowed, "mounting a tmpfs needs root (CAP_SYS_ADMIN)"), .mayBlock)
struct FullDiskTests {

    /// A tmpfs of `size` mounted at `scratch/disk`, unmounted when `body` returns.
    static func withSmallDisk<T>(_ size: String, in scratch: ScratchFolder, _ body: (URL) throws -> T) throws -> T {
        let disk = scratch.url.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try #require(mount("tmpfs", disk.path, "tmpfs", 0, "size=\(size)") == 0, "mount: \(String(cString: strerror(errno)))")
        defer { umount2(disk.path, Int32(MNT_DETACH)) }
        return try body(disk)
    }

    static func fill(_ folder: URL) {
        let fd = open(folder.appendingPathComponent("filler").path, O_WRONLY | O_CREAT, 0o600)
        defer { close(fd) }
        let block = [UInt8](repeating: 0x41, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    @Test func aDiskAlreadyFullIsCaughtBeforeAnyWork() throws {
        let scratch = try ScratchFolder()
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello rocket\n".utf8).write(to: scratch.url.appendingPathComponent("a.srt"))
        try Self.withSmallDisk("64k", in: scratch) { disk in
            Self.fill(disk)
            let run = try ExecutableRun.run(["-test-fake-assistant", "a.srt", "-o", disk.path + "/out"], in: scratch.url)
            #expect(run.status == 73, "stderr: \(run.stderrText)")
            #expect(run.stderrText.contains("No space left"), "\(run.stderrText)")
        }
    }

    @Test func aDiskThatFillsUpNeverClaimsAReportOrActionsNotWritten() throws {
        let scratch = try ScratchFolder()
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let cue = "The rocket launch from the harbour station is today.\n"
        for i in 0..<12 {
            var text = ""
            for c in 0..<20 { text += "\(c + 1)\n00:00:\(String(format: "%02d", c)),000 --> 00:00:\(String(format: "%02d", c)),500\n\(cue)\n" }
            try Data(text.utf8).write(to: input.appendingPathComponent(String(format: "ep%02d.srt", i)))
        }
        try Self.withSmallDisk("40k", in: scratch) { disk in
            let out = disk.appendingPathComponent("out")
            let run = try ExecutableRun.run(["-test-fake-assistant", "--jobs", "1", "in", "-o", out.path, "--json"], in: scratch.url)
            #expect(run.status == 1)
            let summary = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText)")
            let onDisk = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
            let reportWritten = onDisk.contains("report.json")
            #expect(!reportWritten, "the disk was meant to fill up before report.json: make the files larger")
            #expect(summary["report"] is NSNull, "--json points to a report that was not written")
            #expect(!run.stderrText.contains("report in"), "\(run.stderrText)")
            let captions = onDisk.filter { $0.hasSuffix(".srt") }.count
            let written = summary["written"] as? Int ?? -1
            let applied = (summary["actions"] as? [String: Any])?["applied"] as? Int ?? -1
            #expect(written == captions, "written \(written), captions on disk \(captions)")
            #expect(applied == 3 * captions, "applied \(applied) for \(captions) captions on disk")
            #expect(written < 12)
        }
    }
}
