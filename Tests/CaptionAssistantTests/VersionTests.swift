import Testing
@testable import CaptionAssistant

@Suite struct VersionTests {
    @Test func versionIsSemantic() {
        #expect(CaptionAssistantVersion.current.split(separator: ".").count == 3)
    }
}
