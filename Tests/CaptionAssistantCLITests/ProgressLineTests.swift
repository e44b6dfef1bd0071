import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistantCLI

@Suite struct ProgressLineTests {
    /// `COLUMNS` is read by the one checked reader: a width, or nothing (never a number past any terminal).
    @Test func columnsFromTheEnvironmentAreAWidthOrNothing() {
        #expect(ProgressLine.columns(fromEnvironment: "80") == 80)
        for value in ["9223372036854775807", "99999999999999999999", "0", "-5", "wide", "", nil] as [String?] {
            #expect(ProgressLine.columns(fromEnvironment: value) == nil, "\(String(describing: value))")
        }
        #expect(ProgressLine.fitted("0123456789", columns: ProgressLine.columns(fromEnvironment: "5")) == "0123")
    }

    @Test func showsDoneRateAndTimeLeft() {
        #expect(ProgressLine.text(done: 0, total: 10, elapsed: 0) == "0/10 files")
        #expect(ProgressLine.text(done: 5, total: 10, elapsed: 2) == "5/10 files, 2.5 files/s, about 2 s left")
        #expect(ProgressLine.text(done: 10, total: 10, elapsed: 2) == "10/10 files, 5.0 files/s")
    }
}
