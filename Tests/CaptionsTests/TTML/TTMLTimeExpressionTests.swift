import Foundation
import Testing
@testable import Captions

@Suite struct TTMLTimingTests {
    typealias S = TTMLTestSupport

    private func times(_ parameters: String = "", _ body: String) throws -> [(CaptionTime, CaptionTime)] {
        try S.read(S.document(parameters: parameters, body: body)).cues.map { ($0.start, $0.end) }
    }

    @Test func clockTimeWithFraction() throws {
        let t = try times("", #"<div><p begin="01:02:03.5" end="01:02:04.125">a</p></div>"#)
        #expect(t[0].0 == S.time(3723 * 2 + 1, 2))
        #expect(t[0].1 == S.time(3724125, 1000))
    }

    @Test func clockTimeWithFramesAt25fps() throws {
        let t = try times(#"ttp:frameRate="25""#, #"<div><p begin="00:00:01:10" end="00:00:02:24">a</p></div>"#)
        #expect(t[0].0 == S.time(7, 5))            // 1 + 10/25
        #expect(t[0].1 == S.time(74, 25))          // 2 + 24/25
    }

    @Test func ntscFramesAreExact() throws {
        // 29.97 fps: 1 s plus 15 frames of 1001/30000 s each.
        let t = try times(#"ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001""#,
                          #"<div><p begin="00:00:01:15" end="00:01:00:00">a</p></div>"#)
        #expect(t[0].0 == S.time(1 * 30000 + 15 * 1001, 30000))
        #expect(t[0].0 == S.time(45015, 30000))
        #expect(t[0].1 == S.time(60))
    }

    @Test func subFrames() throws {
        // 25 fps, 4 sub-frames: 00:00:00:05.2 = (5 + 2/4) / 25 s = 11/50 s.
        let t = try times(#"ttp:frameRate="25" ttp:subFrameRate="4""#,
                          #"<div><p begin="00:00:00:05.2" end="00:00:01:00.3">a</p></div>"#)
        #expect(t[0].0 == S.time(11, 50))
        #expect(t[0].1 == S.time(1) .adding(S.time(3, 100))!)
    }

    @Test func ticksWithExplicitRate() throws {
        let t = try times(#"ttp:tickRate="10000000""#, #"<div><p begin="227080000t" end="250000000t">a</p></div>"#)
        #expect(t[0].0 == S.time(227080000, 10000000))
        #expect(t[0].0 == S.time(22708, 1000))
        #expect(t[0].1 == S.time(25))
    }

    @Test func tickRateDefaultsToFramesTimesSubFramesWhenAFrameRateIsGiven() throws {
        // No tickRate, frameRate 30 × 1000/1001, subFrameRate 2: a tick is one sub-frame, 1001/60000 s.
        let t = try times(#"ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001" ttp:subFrameRate="2""#,
                          #"<div><p begin="120t" end="60000t">a</p></div>"#)
        #expect(t[0].0 == S.time(120 * 1001, 60000))
        #expect(t[0].1 == S.time(1001))
    }

    @Test func tickRateDefaultsToOneWithoutAFrameRate() throws {
        let t = try times("", #"<div><p begin="3t" end="7t">a</p></div>"#)
        #expect(t[0].0 == S.time(3))
        #expect(t[0].1 == S.time(7))
    }

    @Test(arguments: [
        ("1.5h", S.time(5400)), ("2.25m", S.time(135)), ("3.125s", S.time(3125, 1000)),
        ("1500.5ms", S.time(30010, 20000)), ("12f", S.time(12, 25)), ("2.5f", S.time(1, 10)), ("40t", S.time(4)),
    ])
    func offsetTimesWithDecimals(_ expression: String, _ expected: CaptionTime) throws {
        let t = try times(#"ttp:frameRate="25" ttp:tickRate="10""#,
                          #"<div><p begin="\#(expression)" end="10h">a</p></div>"#)
        #expect(t[0].0 == expected)
    }

    @Test func nestedTimesAreRelativeToTheParentsBegin() throws {
        let t = try times("", """
        <div begin="10s">
          <div begin="00:00:05.000">
            <p begin="1s" end="2s">a</p>
            <p begin="3s" dur="500ms">b</p>
          </div>
        </div>
        """)
        #expect(t[0] == (S.time(16), S.time(17)))
        #expect(t[1] == (S.time(18), S.time(37, 2)))
    }

    @Test func bodyBeginShiftsEverything() throws {
        let text = S.document(body: "").replacingOccurrences(of: "<body>", with: #"<body begin="100ms">"#)
            .replacingOccurrences(of: "</body>", with: #"<div><p begin="1s" end="2s">a</p></div></body>"#)
        let doc = try S.read(text)
        #expect(doc.cues[0].start == S.time(11, 10))
    }

    @Test func seqContainerChainsSiblings() throws {
        let t = try times("", """
        <div timeContainer="seq" begin="1s">
          <p dur="2s">a</p>
          <p begin="1s" dur="3s">b</p>
          <p end="1s">c</p>
        </div>
        """)
        #expect(t[0] == (S.time(1), S.time(3)))
        #expect(t[1] == (S.time(4), S.time(7)))   // 1 s after a's end
        #expect(t[2] == (S.time(7), S.time(8)))
    }

    @Test func durWithEndTheEarlierWins() throws {
        let t = try times("", """
        <div>
          <p begin="1s" end="5s" dur="2s">a</p>
          <p begin="1s" end="2s" dur="5s">b</p>
        </div>
        """)
        #expect(t[0] == (S.time(1), S.time(3)))
        #expect(t[1] == (S.time(1), S.time(2)))
    }

    @Test func childEndsAreClippedToTheParent() throws {
        let t = try times("", #"<div begin="0s" end="3s"><p begin="1s" end="9s">a</p><p begin="2s">b</p></div>"#)
        #expect(t[0] == (S.time(1), S.time(3)))
        #expect(t[1] == (S.time(2), S.time(3)))  // no end: the parent's
    }

    @Test func paragraphWithNoEndAnywhereRunsToTheNextBeginAndWarns() throws {
        let doc = try S.read(S.document(body: #"<div><p begin="1s">a</p><p begin="4s" end="6s">b</p><p begin="7s">c</p></div>"#))
        #expect(doc.cues.map(\.end) == [S.time(4), S.time(6), S.time(7)])
        #expect(doc.warnings.contains { $0.message.contains("no end time") })
    }

    @Test func spanTimingGivesAParagraphItsEnd() throws {
        let t = try times("", #"<div><p begin="1s"><span begin="0s" end="2s">a</span> <span begin="2s" end="3.5s">b</span></p></div>"#)
        #expect(t[0] == (S.time(1), S.time(9, 2)))
    }

    @Test func framesAtOrAboveTheFrameRateAreClampedWithAWarning() throws {
        let doc = try S.read(S.document(parameters: #"ttp:frameRate="25""#, body: "<div>\n<p begin=\"00:00:01:30\" end=\"00:00:03:00\">a</p></div>"))
        #expect(doc.cues[0].start == S.time(1).adding(S.time(24, 25))!)
        let warning = try #require(doc.warnings.first { $0.message.contains("frame 30") })
        #expect(warning.line == 5)
    }

    @Test func unparseableTimesAndUnknownAttributesWarnWithTheirLine() throws {
        let doc = try S.read(S.document(body: "<div>\n<p begin=\"soon\" end=\"2s\">a</p>\n<p start=\"1s\" end=\"3s\">b</p>\n<p begin=\"1x\" end=\"3s\">c</p></div>"))
        #expect(doc.cues.count == 3)
        #expect(doc.cues[0].start == .zero)
        #expect(doc.warnings.contains { $0.line == 5 && $0.message.contains("soon") })
        #expect(doc.warnings.contains { $0.line == 6 && $0.message.contains("start=") })
        #expect(doc.warnings.contains { $0.line == 7 && $0.message.contains("unknown unit") })
    }

    @Test func legacyParameterNamespaceIsHonoured() throws {
        let text = """
        <tt xmlns="http://www.w3.org/2006/10/ttaf1" xmlns:ttp="http://www.w3.org/2006/10/ttaf1#parameter" ttp:frameRate="24">
        <body><div><p begin="00:00:00:12" end="1s">a</p></div></body></tt>
        """
        #expect(try S.read(text).cues[0].start == S.time(1, 2))
    }

    @Test func hugeValuesWarnInsteadOfTrapping() throws {
        let doc = try S.read(S.document(parameters: #"ttp:tickRate="1""#,
            body: #"<div begin="9223372036854775807t"><p begin="9223372036854775807t" end="99999999999999999999999s">a</p></div>"#))
        #expect(doc.cues.count == 1)
        #expect(!doc.warnings.isEmpty)
    }
}
