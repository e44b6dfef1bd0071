import Foundation
import Testing
@testable import CaptionAssistant

/// What the output folder checks say when a folder cannot be used: the real
/// reason, and no advice that cannot help.
@Suite struct OutputFolderMessageTests {
    @Test func anOutputThatIsAFileIsNotToldToBeMadeWritable() throws {
        let dir = try TemporaryFolder()
        try dir.write("afile", "x")
        #expect {
            try OutputFolder.checkWritable(dir.path + "/afile")
        } throws: { error in
            let text = (error as? OutputFolderError)?.errorDescription ?? ""
            return text.contains("existing file, not a folder") && !text.contains("writable")
        }
        #expect(PathText.parent(of: "x") == ".")
        #expect(PathText.parent(of: "/x") == "/")
        #expect(PathText.parent(of: "a/b/") == "a")
    }

    /// Paths are cut at their `/` bytes, also where a part starts with a
    /// combining mark (one `Character` with the `/` before it): `..` after such
    /// a part takes it away, not the folder above it.
    @Test func aPartStartingWithACombiningMarkIsCutAtItsSlash() {
        #expect(PathText.parts("a/\u{301}x//b") == ["a", "\u{301}x", "b"])
        #expect(PathText.parts("a//b", omittingEmpty: false) == ["a", "", "b"])
        #expect(PathText.absolute("/in/\u{301}x/../out") == "/in/out")
        #expect(PathText.absolute("/in/\u{301}x/./y") == "/in/\u{301}x/y")
        #expect(HTMLWriter.relativeURL("d/\u{301}x.html") == "d/%CC%81x.html")
    }

    #if os(Linux)
    @Test func anOutputUnderProcSaysNothingCanBeMadeThere() {
        #expect {
            try OutputFolder.checkWritable("/proc/caption-assistant-test")
        } throws: { error in
            let text = (error as? OutputFolderError)?.errorDescription ?? ""
            return text.contains("it does not exist, and /proc does not let a folder be made in it")
        }
    }
    #endif
}
