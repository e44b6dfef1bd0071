import Foundation
import Testing
@testable import CaptionAssistant

/// Nothing is written outside the output folder, whatever the path or the links in it.
@Suite struct OutputFolderTests {
    @Test(arguments: ["../escape.srt", "a/../../escape.srt", "/tmp/escape.srt", "a/./b.srt", "a//b.srt", "", ".", "..", "a/..", "a\u{0}b"])
    func refusesPathsThatCouldLeaveTheFolder(_ relative: String) throws {
        let dir = try TemporaryFolder()
        let folder = try OutputFolder(path: dir.path + "/out")
        #expect(throws: WriteError.self) { try folder.write(Data("x".utf8), to: relative) }
        #expect(filesBelow(dir.path) == [])
    }

    /// Shards of one run share the folder's lock; a plain run (or `merge`)
    /// needs it alone, so it is refused while shards write, and shards are
    /// refused while it writes.
    @Test func shardsShareTheFolderAndExcludeAPlainRun() throws {
        let dir = try TemporaryFolder()
        let path = dir.path + "/out"
        let first = try OutputFolder(path: path, lock: .shard(run: "r"))
        let second = try OutputFolder(path: path, lock: .shard(run: "r"))
        #expect(OutputFolder.inUse(path, lock: .shard(run: "r")) == nil)
        #expect(OutputFolder.inUse(path)?.inUse == true)
        #expect(throws: OutputFolderError.self) { try OutputFolder(path: path) }
        withExtendedLifetime((first, second)) {}
        let alone = try OutputFolder(path: dir.path + "/alone")
        #expect(OutputFolder.inUse(dir.path + "/alone", lock: .shard(run: "r"))?.inUse == true)
        #expect(throws: OutputFolderError.self) { try OutputFolder(path: dir.path + "/alone", lock: .shard(run: "r")) }
        withExtendedLifetime(alone) {}
    }

    /// Shards share the folder only with shards of their own run (plan, options and shard
    /// count): a shard of another run is refused while they write, and may come once they are done.
    @Test func shardsOfAnotherRunAreRefusedTheFolder() throws {
        let dir = try TemporaryFolder()
        let path = dir.path + "/out"
        do {
            let first = try OutputFolder(path: path, lock: .shard(run: "plan/2"))
            let sameRun = try OutputFolder(path: path, lock: .shard(run: "plan/2"))
            for other in ["plan/3", "other/2"] {
                let refusal = OutputFolder.inUse(path, lock: .shard(run: other))
                #expect(refusal?.inUse == true && refusal?.reason.contains("another sharded run") == true, "\(String(describing: refusal))")
                #expect(throws: OutputFolderError.self) { try OutputFolder(path: path, lock: .shard(run: other)) }
            }
            // The refused ones left no lock behind: the run's own shards still share it.
            #expect(OutputFolder.inUse(path, lock: .shard(run: "plan/2")) == nil)
            withExtendedLifetime((first, sameRun)) {}
        }
        #expect(OutputFolder.inUse(path, lock: .shard(run: "other/2")) == nil)
    }

    /// A folder this process let go of is free again for the next batch, even
    /// while another thread starts programs: a child between `fork` and
    /// `exec` holds a copy of the folder's descriptor, and so its lock, for a
    /// moment. Before the fix a third of these opens were refused as in use
    /// (the cause of a `--resume` test that found nothing to skip under load).
    /// The opens (and their retries) run on a thread of their own, not on
    /// Swift's cooperative pool that other tests' timers need.
    @Test func aFolderLetGoIsFreeAgainWhileProgramsAreStarted() async throws {
        let dir = try TemporaryFolder()
        let path = dir.path + "/out"
        let starter = ProgramStarter(threads: 2)
        defer { starter.stop() }
        let refused: [String] = await withCheckedContinuation { continuation in
            Thread {
                guard starter.waitUntilStarted() > 0 else { return continuation.resume(returning: ["/bin/true could not be started"]) }
                var refused: [String] = []
                for _ in 0..<500 {
                    do {
                        _ = try OutputFolder(path: path)
                    } catch {
                        refused.append(error.localizedDescription)
                    }
                }
                continuation.resume(returning: refused)
            }.start()
        }
        #expect(refused.isEmpty, "\(refused.count) of 500 opens refused, first: \(refused.first ?? "")")
    }

    /// A folder held by a live `OutputFolder` of this process is recorded as
    /// held here, so it is refused at once: the retries are for a lock that
    /// nobody here holds.
    @Test func aFolderOpenInThisProcessIsRecordedAndRefused() throws {
        let dir = try TemporaryFolder()
        let first = try OutputFolder(path: dir.path + "/out")
        #expect(OutputFolder.heldHere.contains(try #require(identity(of: dir.path + "/out"))))
        #expect(throws: OutputFolderError.self) { try OutputFolder(path: dir.path + "/out") }
        withExtendedLifetime(first) {}
    }

    @Test func writesNestedFilesAndCreatesTheFolders() throws {
        let dir = try TemporaryFolder()
        let folder = try OutputFolder(path: dir.path + "/out")
        try folder.write(Data("one".utf8), to: "s1/deep/ep.srt")
        try folder.write(Data("two".utf8), to: "s1/deep/ep.srt")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/out/s1/deep/ep.srt")) == Data("two".utf8))
        #expect(filesBelow(dir.path) == ["out/s1/deep/ep.srt"])
    }

    @Test func aLinkedSubfolderIsNeverWrittenThrough() throws {
        let dir = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: dir.path + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path + "/out", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/out/s1", withDestinationPath: dir.path + "/elsewhere")
        let folder = try OutputFolder(path: dir.path + "/out")
        #expect { try folder.write(Data("x".utf8), to: "s1/ep.srt") } throws: { error in
            (error as? WriteError)?.reason.contains("symbolic link") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/elsewhere") == [])
    }

    /// A name that starts with a combining mark (`s1/\u{301}x.srt`): to Swift, `/` and the mark are one
    /// `Character`, but the path is cut at the `/` byte, as the system reads it, so the folder is made
    /// (it was not: "No such file or directory") and a link in its place is refused, not written through.
    @Test func aNameStartingWithACombiningMarkIsInItsFolder() throws {
        let dir = try TemporaryFolder()
        let folder = try OutputFolder(path: dir.path + "/out")
        try folder.write(Data("one".utf8), to: "s1/\u{301}x.srt")
        #expect(filesBelow(dir.path) == ["out/s1/\u{301}x.srt"])
        #expect(OutputFolder.safeParts("s1/\u{301}x.srt") == ["s1", "\u{301}x.srt"])
        #expect(OutputFolder.safeParts("s1/\u{301}") == ["s1", "\u{301}"])
        #expect(OutputFolder.safeParts("/\u{301}x.srt") == nil)
        try FileManager.default.createDirectory(atPath: dir.path + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/out/s2", withDestinationPath: dir.path + "/elsewhere")
        #expect { try folder.write(Data("x".utf8), to: "s2/\u{301}x.srt") } throws: { error in
            (error as? WriteError)?.reason.contains("symbolic link") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/elsewhere") == [])
    }

    @Test func aLinkAtTheFileNameIsReplacedNotFollowed() throws {
        let dir = try TemporaryFolder()
        try dir.write("precious.txt", "keep me")
        try FileManager.default.createDirectory(atPath: dir.path + "/out", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/out/ep.srt", withDestinationPath: dir.path + "/precious.txt")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/out/dangling.srt", withDestinationPath: dir.path + "/created-outside.txt")
        let folder = try OutputFolder(path: dir.path + "/out")
        try folder.write(Data("new".utf8), to: "ep.srt")
        try folder.write(Data("new".utf8), to: "dangling.srt")
        #expect(try String(contentsOfFile: dir.path + "/precious.txt", encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/created-outside.txt"))
        let type = try FileManager.default.attributesOfItem(atPath: dir.path + "/out/ep.srt")[.type] as? FileAttributeType
        #expect(type == .typeRegular)
        // Reading back for --resume never follows a link either.
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/out/link.srt", withDestinationPath: dir.path + "/precious.txt")
        #expect(folder.read("link.srt", limit: 100) == nil)
        #expect(folder.regularFileStatus("link.srt") == nil)
        #expect(folder.read("ep.srt", limit: 100) == Array("new".utf8))
    }

    @Test func anOutputUnderAFileIsRefusedBeforeAnythingIsMade() throws {
        let dir = try TemporaryFolder()
        try dir.write("file", "x")
        #expect { try OutputFolder.checkWritable(dir.path + "/file/out/deeper") } throws: { error in
            (error as? OutputFolderError)?.reason.contains("is a file") == true
        }
        #expect(throws: OutputFolderError.self) { try OutputFolder.checkWritable(dir.path + "/file") }
        #expect(throws: OutputFolderError.self) { try OutputFolder(path: dir.path + "/file/out") }
        try OutputFolder.checkWritable(dir.path + "/new/out")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/new"))
        #expect(filesBelow(dir.path) == ["file"])
    }

    /// A folder made by the run, or empty, has no earlier output to look for; one with any entry (a hidden one too) may.
    @Test func aFolderTakenEmptyIsKnownToBe() throws {
        let dir = try TemporaryFolder()
        #expect(try OutputFolder(path: dir.path + "/made/here").startedEmpty)
        try FileManager.default.createDirectory(atPath: dir.path + "/empty", withIntermediateDirectories: false)
        #expect(try OutputFolder(path: dir.path + "/empty").startedEmpty)
        try dir.write("hidden/.x", "x")
        #expect(try !OutputFolder(path: dir.path + "/hidden").startedEmpty)
        try dir.write("full/sub/ep.srt", "x")
        #expect(try !OutputFolder(path: dir.path + "/full").startedEmpty)
    }

    @Test func onlyStaleTemporaryNamesOfEndedProcessesAreRemoved() throws {
        let dir = try TemporaryFolder()
        let names = [".ep.srt.tmp-999999-1-0", ".ep.srt.tmp-\(getpid())-1-0", ".ep.srt.tmp-1-1-0", "ep.srt.tmp-999999-1-0",
                     ".ep.srt.tmp-999999-x-0", ".notes", "ep.srt"]
        for name in names { try dir.write("out/" + name, "x") }
        let folder = try OutputFolder(path: dir.path + "/out")
        #expect(folder.removeStaleTemporaryFiles(besides: ["ep.srt"]) == 1)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/out"))
        #expect(left == Set(names.dropFirst()))
    }

    private func identity(of path: String) -> FolderIdentity? {
        let fd = open(path, O_RDONLY | O_DIRECTORY)
        defer { if fd >= 0 { close(fd) } }
        return fd >= 0 ? FolderIdentity(fd) : nil
    }

    private func filesBelow(_ root: String) -> [String] {
        let walker = FileManager.default.enumerator(atPath: root)
        var out: [String] = []
        while let path = walker?.nextObject() as? String {
            if walker?.fileAttributes?[.type] as? FileAttributeType != .typeDirectory { out.append(path) }
        }
        return out.sorted()
    }
}

/// Threads that start `/bin/true` over and over (with `posix_spawn`, not
/// Foundation's `Process`, whose parallel launches have their own bug) until
/// stopped.
private final class ProgramStarter: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopping = false
    private var started = 0
    private var running = 0

    init(threads: Int) {
        for _ in 0..<threads {
            condition.withLock { running += 1 }
            Thread { [self] in
                while !condition.withLock({ stopping }) {
                    var pid: pid_t = 0
                    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
                    let spawned = posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0
                    free(argv[0])
                    guard spawned else { break }
                    var status: Int32 = 0
                    waitpid(pid, &status, 0)
                    condition.withLock { started += 1; condition.broadcast() }
                }
                condition.withLock { running -= 1; condition.broadcast() }
            }.start()
        }
    }

    /// Waits until a first program has been started (or every thread gave up); returns how many were.
    @discardableResult
    func waitUntilStarted() -> Int {
        condition.withLock {
            while started == 0 && running > 0 { condition.wait() }
            return started
        }
    }

    /// Stops the threads and waits for them to end.
    func stop() {
        condition.withLock {
            stopping = true
            while running > 0 { condition.wait() }
        }
    }
}
