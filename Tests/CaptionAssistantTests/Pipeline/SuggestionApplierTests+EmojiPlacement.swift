import Foundation
import Testing
@testable import Captions
@testable import CaptionAssistant

/// Where the emoji goes: one space after the last visible
/// character of the cue shown last in time. The golden cases
/// emoji-after-last-visible-character-srt and -ttml check the written files.
@Suite struct EmojiPlacementTests {
    @Test func theEmojiGoesOnTheCueShownLast() throws {
        let doc = try CaptionDocument.read(Data("""
            1
            00:00:05,000 --> 00:00:06,000
            middle

            2
            00:00:09,000 --> 00:00:10,000
            last in time

            3
            00:00:01,000 --> 00:00:02,000
            last in the file

            """.utf8))
        #expect(SuggestionApplier.lastShown(doc.cues) == 1)
        #expect(AppendPoint.visibleEnd(of: 0..<9, in: Array("dragon.  ".utf8)) == 7)
        #expect(AppendPoint.visibleEnd(of: 0..<3, in: Array("   ".utf8)) == 0)
    }

}
