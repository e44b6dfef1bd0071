import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

/// The per-file job on inputs found by adversarial testing: the
/// same answer with and without `--to` the file's own format, and emphasis
/// whose cost grows with the text, not with occurrences × text.
@Suite struct AdversarialJobTests {
    func process(_ bytes: [UInt8], hint: CaptionFormat, convertTo: CaptionFormat? = nil) async -> FileProcessor.Outcome {
        await FileProcessor(configuration: fakeConfiguration(convertTo: convertTo))
            .process(bytes, input: "in/a", hint: hint) { _ in "a" }
    }

    /// A Windows-1252 SRT (not valid UTF-8): "café" in Latin-1, and words the fake model picks.
    static let windows1252SRT: [UInt8] = Array("1\n00:00:01,000 --> 00:00:03,000\nThe rocket caf".utf8) + [0xE9]
        + Array(" is ready.\n\n2\n00:00:03,500 --> 00:00:06,000\nLaunch the rocket for launch.\n".utf8)

    @Test func toItsOwnFormatGivesTheSameResultAsWithoutTo() async throws {
        let plain = await process(Self.windows1252SRT, hint: .srt)
        let converted = await process(Self.windows1252SRT, hint: .srt, convertTo: .srt)
        // The emoji cannot be written in Windows-1252: that action alone fails, the file is written.
        #expect(plain.report.actions.map(\.state) == [.applied, .applied, .failed])
        #expect(converted.report.actions.map(\.state) == [.applied, .applied, .failed])
        #expect(converted.report.actions == plain.report.actions)
        #expect(converted.report.error == nil && plain.report.error == nil)
        let written = try #require(converted.bytes)
        #expect(written == plain.bytes)
        #expect(written.contains(0xE9))   // still Windows-1252
    }

    /// 50,000 occurrences of two keywords in one cue (25,000 ×
    /// "rocket launch"): linear work takes about a second even in a debug
    /// build; the old offset mapping took 15–22 s in release, minutes here.
    @Test(.timeLimit(.minutes(2)), arguments: [CaptionFormat.srt, .vtt, .ttml])
    func emphasisOfManyOccurrencesInOneCueIsLinear(_ format: CaptionFormat) async throws {
        let text = String(repeating: "rocket launch ", count: 25_000)
        let file: String
        switch format {
        case .srt: file = "1\n00:00:01,000 --> 00:00:05,000\n\(text)\n"
        case .vtt: file = "WEBVTT\n\n00:00:01.000 --> 00:00:05.000\n\(text)\n"
        case .ttml: file = #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s" end="5s">"# + text + "</p></div></body></tt>\n"
        }
        let document = try CaptionDocument.read(Data(file.utf8), hint: format)
        let result = KeywordEmphasis(keywords: ["rocket", "launch"]).apply(to: document.cues)
        #expect(result.occurrences == 50_000)
        let out = String(decoding: try document.writeBytes(edits: result.edits), as: UTF8.self)
        let open = format == .ttml ? #"<span tts:fontWeight="bold">"# : "<b>"
        #expect(out.components(separatedBy: open).count - 1 == 50_000)
    }
}
