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
}
