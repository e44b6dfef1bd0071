import Foundation
import Testing
@testable import CaptionAssistant

/// The folder walk behind the input plan: each folder opened once from the
/// one above it, descriptors bounded at any depth, folders moved during the
/// walk found again or said unfinished.
@Suite struct FolderWalkTests {
    /// Makes the folder `name` in the open folder `fd` and returns it open (the caller closes it).
    static func makeFolder(_ fd: Int32, _ name: String) -> Int32 {
        #expect(mkdirat(fd, name, 0o755) == 0)
        return openat(fd, name, O_RDONLY | O_DIRECTORY)
    }

    /// Makes an empty file `name` in the open folder `fd`.
    static func makeFile(_ fd: Int32, _ name: String) {
        let file = openat(fd, name, O_WRONLY | O_CREAT, 0o644)
        #expect(file >= 0)
        close(file)
    }

    /// A chain `L000/L001/…` of `depth` folders below `top`, each also
    /// holding a file `f.srt` and a folder `S` with a file `s.srt`.
    /// Returns the number of folders made.
    static func makeChain(below top: String, depth: Int) -> Int {
        var fd = open(top, O_RDONLY | O_DIRECTORY)
        for level in 0..<depth {
            let next = makeFolder(fd, String(format: "L%03d", level))
            close(fd)
            fd = next
            makeFile(fd, "f.srt")
            let side = makeFolder(fd, "S")
            makeFile(side, "s.srt")
            close(side)
        }
        close(fd)
        return 2 * depth
    }

    /// Walks `top`, visiting subfolders in name order (so `L…` before `S`),
    /// running `during` in the deepest folder (`depth` names below the top);
    /// returns the files found and the walk.
    static func walk(_ top: String, depth: Int = 0, during: (() -> Void)? = nil) throws -> ([String], FolderWalk) {
        let fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(fd >= 0)
        let walk = FolderWalk(top: fd)
        var files: [String] = []
        walk.run { stream, _ in
            var folders: [[UInt8]] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name.first == 0x2E { continue }
                if Int32(entry.pointee.d_type) == Int32(DT_DIR) { folders.append(name); continue }
                let folder = walk.relativePath()
                files.append((folder.isEmpty ? "" : folder + "/") + String(decoding: name, as: UTF8.self))
            }
            if walk.names().count == depth { during?() }
            return folders.sorted { $0.lexicographicallyPrecedes($1) }
        }
        return (files.sorted(), walk)
    }

    /// The files `makeChain` puts below the top.
    static func chainFiles(depth: Int) -> [String] {
        var files: [String] = []
        var path = ""
        for level in 0..<depth {
            path += (path.isEmpty ? "" : "/") + String(format: "L%03d", level)
            files += [path + "/f.srt", path + "/S/s.srt"]
        }
        return files.sorted()
    }

    @Test func aTreeDeeperThanTheHeldLimitIsWalkedOpeningEachFolderAtMostTwiceWithBoundedDescriptors() throws {
        let dir = try TemporaryFolder()
        let depth = 3 * FolderWalk.heldLimit
        let folders = Self.makeChain(below: dir.path, depth: depth)
        let (files, walk) = try Self.walk(dir.path)
        #expect(files == Self.chainFiles(depth: depth))
        #expect(walk.unfinished.isEmpty)
        #expect(walk.mostHeld <= FolderWalk.heldLimit + 1, "held \(walk.mostHeld) descriptors")
        // Once down, and at most once more up again for the folders closed on the way down.
        #expect(walk.foldersOpened <= 2 * folders, "opened \(walk.foldersOpened) for \(folders) folders")
        #expect(walk.foldersOpened >= folders)
    }

    @Test func aShallowTreeIsWalkedOpeningEachFolderOnce() throws {
        let dir = try TemporaryFolder()
        let folders = Self.makeChain(below: dir.path, depth: FolderWalk.heldLimit / 2)
        let (files, walk) = try Self.walk(dir.path)
        #expect(files == Self.chainFiles(depth: FolderWalk.heldLimit / 2))
        #expect(walk.foldersOpened == folders)
    }

    /// A folder moved out of its parent while the walk is below it: going
    /// up with `..` lands elsewhere, so the folder is looked for again from
    /// the top by its names, and the walk goes on.
    @Test func aFolderMovedWhileTheWalkIsBelowItIsFoundAgainFromTheTop() throws {
        let dir = try TemporaryFolder()
        let depth = 2 * FolderWalk.heldLimit
        _ = Self.makeChain(below: dir.path, depth: depth)
        let l10 = (0...10).map { String(format: "L%03d", $0) }.joined(separator: "/")
        var moved = false
        let (files, walk) = try Self.walk(dir.path, depth: depth + 1) {
            // L011 (closed by now) leaves L010 for the top: `..` from below it no longer reaches L010.
            moved = rename(dir.path + "/" + l10 + "/L011", dir.path + "/moved") == 0
        }
        try #require(moved)
        #expect(walk.unfinished.isEmpty)
        // Everything below L010 that was still to walk (the `S` folders of L000 to L010) is found.
        for level in 0...10 {
            let path = (0...level).map { String(format: "L%03d", $0) }.joined(separator: "/")
            #expect(files.contains(path + "/S/s.srt"), "\(path)/S was not walked")
        }
    }

    /// A folder replaced while the walk is below it (moved away, a new one
    /// made under its name, and the folder below it moved too): neither way
    /// up reaches it, so its subfolders still to walk are not walked from
    /// anywhere else, and the walk says so.
    @Test func aFolderReplacedWhileTheWalkIsBelowItIsSaidUnfinished() throws {
        let dir = try TemporaryFolder()
        let depth = 2 * FolderWalk.heldLimit
        _ = Self.makeChain(below: dir.path, depth: depth)
        let l9 = (0...9).map { String(format: "L%03d", $0) }.joined(separator: "/")
        var replaced = false
        let (files, walk) = try Self.walk(dir.path, depth: depth + 1) {
            replaced = rename(dir.path + "/" + l9 + "/L010/L011", dir.path + "/moved-11") == 0
                && rename(dir.path + "/" + l9 + "/L010", dir.path + "/moved-10") == 0
                && mkdir(dir.path + "/" + l9 + "/L010", 0o755) == 0
        }
        try #require(replaced)
        #expect(walk.unfinished == [l9 + "/L010"])
        #expect(!files.contains(l9 + "/L010/S/s.srt"))
        #expect(files.contains(l9 + "/S/s.srt"))
    }
}
