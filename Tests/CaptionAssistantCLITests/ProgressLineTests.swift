import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistantCLI

@Suite struct ProgressLineTests {
    @Test func showsDoneRateAndTimeLeft() {
        #expect(ProgressLine.text(done: 0, total: 10, elapsed: 0) == "0/10 files")
        #expect(ProgressLine.text(done: 5, total: 10, elapsed: 2) == "5/10 files, 2.5 files/s, about 2 s left")
        #expect(ProgressLine.text(done: 10, total: 10, elapsed: 2) == "10/10 files, 5.0 files/s")
    }
}
