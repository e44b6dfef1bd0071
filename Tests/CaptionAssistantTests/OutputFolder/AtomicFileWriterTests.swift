import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct AtomicFileWriterTests {
    @Test func writesCreatesFoldersAndReplacesWithoutLeavingTemporaryFiles() throws {
        let dir = try TemporaryFolder()
        let path = dir.path + "/a/b/c.srt"
        try AtomicFileWriter.write(Data("one".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("one".utf8))
        try AtomicFileWriter.write(Data("two, longer".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("two, longer".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/a/b") == ["c.srt"])
    }

    @Test func failsWithThePathWhenTheFolderIsAFile() throws {
        let dir = try TemporaryFolder()
        try dir.write("file", "x")
        #expect(throws: WriteError.self) { try AtomicFileWriter.write(Data(), to: dir.path + "/file/c.srt") }
    }

    @Test func anIdenticalFileIsNotReplacedButTouched() throws {
        let dir = try TemporaryFolder()
        let path = dir.path + "/same.srt"
        try AtomicFileWriter.write(Data("same".utf8), to: path)
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        let before = try FileManager.default.attributesOfItem(atPath: path)
        try AtomicFileWriter.write(Data("same".utf8), to: path)
        let after = try FileManager.default.attributesOfItem(atPath: path)
        let inode = try #require(before[.systemFileNumber] as? Int)
        #expect(after[.systemFileNumber] as? Int == inode)
        #expect((after[.modificationDate] as? Date ?? old) > old)
        try AtomicFileWriter.write(Data("diff".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("diff".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["same.srt"])
    }
}

/// The temporary-name-and-rename path, the only one on Apple platforms, forced here.
@Suite struct RenameWritePathTests {
    /// Writes `data` as `name` in `folder` through the rename path.
    static func writeByRename(_ data: String, _ name: String, in folder: String) throws {
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(dir >= 0)
        defer { close(dir) }
        try AtomicFileWriter.write(Array(data.utf8), named: name, inFolder: dir, path: folder + "/" + name, byRename: true)
    }

    @Test func createsReplacesAndLeavesNoTemporaryFile() throws {
        let dir = try TemporaryFolder()
        try Self.writeByRename("one", "c.srt", in: dir.path)
        #expect(try String(contentsOfFile: dir.path + "/c.srt", encoding: .utf8) == "one")
        try Self.writeByRename("two, longer", "c.srt", in: dir.path)
        #expect(try String(contentsOfFile: dir.path + "/c.srt", encoding: .utf8) == "two, longer")
        try Self.writeByRename("same", "d.srt", in: dir.path)
        try Self.writeByRename("same", "d.srt", in: dir.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["c.srt", "d.srt"])
    }

    @Test func aLinkAtTheNameIsReplacedNotFollowed() throws {
        let dir = try TemporaryFolder()
        try dir.write("elsewhere.txt", "keep me")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/out.srt", withDestinationPath: dir.path + "/elsewhere.txt")
        try Self.writeByRename("new", "out.srt", in: dir.path)
        #expect(try String(contentsOfFile: dir.path + "/elsewhere.txt", encoding: .utf8) == "keep me")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.path + "/out.srt")
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: dir.path + "/out.srt", encoding: .utf8) == "new")
    }
}

@Suite struct TemporaryNameTests {
    @Test(arguments: [1, 200, 230, 240, 255])
    func aTemporaryNameAlwaysFitsNAME_MAX(length: Int) {
        for name in [String(repeating: "a", count: length), String(repeating: "é", count: length / 2)] {
            let temporary = AtomicFileWriter.temporaryName(for: name, attempt: 99)
            #expect(temporary.utf8.count <= 255, "\(temporary.utf8.count) bytes")
            #expect(temporary.hasPrefix("."))
            #expect(temporary.unicodeScalars.allSatisfy { $0 != "\u{FFFD}" })
        }
    }

    /// The comparison that spares an identical file its rewrite says "same"
    /// exactly when the bytes are, for contiguous bytes (compared as memory)
    /// and for a collection without contiguous storage (walked), read in
    /// blocks (a file longer than one block, and one that differs only in its
    /// last block or its length).
    @Test func theExistingFileIsComparedByItsBytes() throws {
        let dir = try TemporaryFolder()
        let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        func holds(_ file: [UInt8], _ data: some Collection<UInt8>) throws -> Bool {
            try Data(file).write(to: URL(fileURLWithPath: dir.path + "/f"))
            let fd = open(dir.path + "/f", O_RDONLY)
            defer { close(fd) }
            return AtomicFileWriter.holds(fd, data)
        }
        let bytes: [UInt8] = [1, 2, 3]
        #expect(try holds(bytes, bytes[...]))
        #expect(try holds(bytes, Data([1, 2, 3])))
        #expect(try holds(bytes, UInt8(1)...UInt8(3)))
        #expect(try holds([], [UInt8]()))
        #expect(try !holds(bytes, [1, 2, 4]))
        #expect(try !holds(bytes, [1, 2]))
        #expect(try !holds([1, 2], bytes))
        #expect(try !holds(bytes, UInt8(1)...UInt8(4)))
        #expect(try !holds(bytes, UInt8(2)...UInt8(4)))
        #expect(try holds(large, large))
        #expect(try holds(large, Data(large)))
        var changed = large
        changed[199_999] &+= 1
        #expect(try !holds(large, changed))
        #expect(try !holds(large, large.dropLast()))
        #expect(try !holds(Array(large.dropLast()), large))
    }
}
