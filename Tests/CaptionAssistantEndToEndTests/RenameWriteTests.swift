import Foundation
import Testing
import TestSupport

/// The write path Apple platforms use (a hidden temporary name, then
/// `rename`), forced on Linux with `CAPTION_ASSISTANT_WRITE_BY_RENAME=1`:
/// a whole batch, a second run over it and a conversion give the same bytes
/// as the usual Linux path and leave no temporary file behind.
@Suite(.mayBlock) struct RenameWriteTests {
    @Test func aBatchWrittenByRenameIsTheBatchWrittenTheUsualWay() throws {
        let scratch = try ScratchFolder()
        let byRename = ["CAPTION_ASSISTANT_WRITE_BY_RENAME": "1"]
        for (arguments, name) in [([String](), "plain"), (["--to", "vtt"], "vtt")] {
            let usual = scratch.url.appendingPathComponent(name + "-usual")
            let renamed = scratch.url.appendingPathComponent(name + "-renamed")
            let base = [SampleTests.samples.path, "-test-fake-assistant", "--quiet"] + arguments
            let first = try ExecutableRun.run(base + ["-o", usual.path], in: scratch.url)
            #expect(first.status == 0, "\(first.stderrText)")
            // Twice into the same folder: the second run replaces every file through the rename path.
            for _ in 0..<2 {
                let run = try ExecutableRun.run(base + ["-o", renamed.path], in: scratch.url, environment: byRename)
                #expect(run.status == 0, "\(run.stderrText)")
            }
            let files = filesUnder(usual)
            #expect(!files.isEmpty)
            #expect(filesUnder(renamed) == files, "no temporary file may be left, and no file missing")
            for file in files {
                let a = try Data(contentsOf: usual.appendingPathComponent(file))
                let b = try Data(contentsOf: renamed.appendingPathComponent(file))
                #expect(a == b, "\(name): \(file) differs between the two write paths")
            }
            // Hidden names (the temporary files) are not listed by `filesUnder`: look for them too.
            let hidden = try FileManager.default.contentsOfDirectory(atPath: renamed.path).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty, "\(hidden)")
        }
    }
}
