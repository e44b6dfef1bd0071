import Foundation
import Testing
import TestSupport

/// `help` and `version` are subcommands (as `git help`, `cargo version`), not
/// input names answered "no output folder given".
@Suite(.mayBlock) struct SubcommandTests {
    @Test(arguments: [("help", "--help"), ("version", "--version")])
    func theSubcommandPrintsWhatTheOptionPrints(subcommand: String, option: String) throws {
        let scratch = try ScratchFolder()
        let named = try ExecutableRun.run([subcommand], in: scratch.url)
        let flagged = try ExecutableRun.run([option], in: scratch.url)
        #expect(named.status == 0)
        #expect(named.stdout == flagged.stdout)
        #expect(named.stderrText.isEmpty)
    }
}
