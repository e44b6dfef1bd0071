import Testing
@testable import CaptionAssistant

@Suite struct OwnedNamesTests {
    /// The quick look (`isOrdinaryASCII`) passes no name the full one
    /// (`checkedReservation(of:)`) reserves: random ASCII paths made of the
    /// owned names' letters, in both cases, with folders and dots.
    @Test func theQuickLookPassesNoReservedName() {
        let pieces = ["report", "Report", "REPORT", ".", "json", "JSON", "shard-", "0-of-1", "1-of-2", "-", "review", "Review",
                      "/", "assistant", "ASSISTANT", ".tmp-", "12-34-0", "caption-assistant-", "a", "srt", "x"]
        var generator = SystemRandomNumberGenerator()
        var passed = 0, reserved = 0
        for _ in 0..<20_000 {
            let path = (0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let full = OwnedNames.checkedReservation(of: path)
            if full != nil { reserved += 1 }
            if OwnedNames.isOrdinaryASCII(path) {
                passed += 1
                #expect(full == nil, "\(path) passed the quick look but is reserved: \(full ?? "")")
            }
            #expect(OwnedNames.reservation(of: path) == full, "\(path)")
        }
        // Both kinds were met.
        #expect(passed > 1_000 && reserved > 200, "\(passed) passed, \(reserved) reserved")
    }

    /// Every kind of owned name is refused through the quick look, in any ASCII case; a path
    /// with other bytes is left to the full look.
    @Test(arguments: ["report.json", "Report.JSON", "report.shard-1-of-2.json", "review/ep1.srt", "REVIEW/a/b.srt",
                      "s1/x.assistant.json", "ep1.srt.ASSISTANT.json", ".ep1.srt.tmp-12-34-0", "s1/.a.srt.tmp-1-2-3",
                      ".caption-assistant-probe-1-2"])
    func ownedNamesAreNotOrdinary(name: String) {
        #expect(!OwnedNames.isOrdinaryASCII(name))
        #expect(OwnedNames.reservation(of: name) != nil)
    }

    /// Names the quick look passes, and ones it leaves to the full look.
    @Test func ordinaryNames() {
        for name in ["ep1.srt", "s1/review/ep2.srt", "reviews/a.srt", "a.assistant.json.srt", "report-1.srt"] {
            #expect(OwnedNames.isOrdinaryASCII(name), "\(name)")
            #expect(OwnedNames.reservation(of: name) == nil, "\(name)")
        }
        // Not known from the quick look (a report's name, but not at the top): the full look passes it.
        #expect(!OwnedNames.isOrdinaryASCII("s1/report.json"))
        #expect(OwnedNames.reservation(of: "s1/report.json") == nil)
        #expect(!OwnedNames.isOrdinaryASCII("épisode.srt"))
        // The review's folder, then a name starting with a combining mark: cut at the `/` byte, it is in review/.
        #expect(OwnedNames.reservation(of: "review/\u{301}x.srt") != nil)
        #expect(!OwnedNames.isOrdinaryASCII(""))
        // A path that ends in a slash has an empty last part: nothing the tool owns.
        #expect(OwnedNames.isOrdinaryASCII("a/") && OwnedNames.checkedReservation(of: "a/") == nil)
        #expect(!OwnedNames.isOrdinaryASCII("review/") && OwnedNames.checkedReservation(of: "review/") != nil)
    }
}
