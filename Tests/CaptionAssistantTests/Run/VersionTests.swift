import Testing
@testable import CaptionAssistant

@Suite struct VersionTests {
    @Test func versionIsSemantic() {
        #expect(CaptionAssistantVersion.current.split(separator: ".").count == 3)
    }

    @Test func theDescriptionNamesTheCommitOrSaysItIsUnknown() {
        #expect(CaptionAssistantVersion.description(commit: "0ba8de0c1a2b") == "\(CaptionAssistantVersion.current) (commit 0ba8de0c1a2b)")
        #expect(CaptionAssistantVersion.description(commit: nil) == "\(CaptionAssistantVersion.current) (commit unknown)")
    }

    /// `swift test` builds without `scripts/package.sh`'s definition, so this build
    /// must not claim a commit.
    @Test func aBuildNotToldItsCommitSaysUnknown() {
        #expect(CaptionAssistantVersion.commit == nil)
        #expect(CaptionAssistantVersion.description.hasSuffix("(commit unknown)"))
    }
}
