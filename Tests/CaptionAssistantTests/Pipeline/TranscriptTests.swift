import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

@Suite struct TranscriptTests {
    @Test func oneCuePerLineWithoutMarkup() throws {
        let document = try CaptionDocument.read(Data(sampleSRT.utf8), hint: .srt)
        #expect(Transcript.text(of: document) == "The rocket is on the pad.\nLaunch control: the rocket is ready for launch.")
    }
}
