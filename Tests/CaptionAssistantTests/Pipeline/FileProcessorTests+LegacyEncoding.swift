import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant

/// A file in a legacy encoding through the whole job (fake model): the model
/// is sent the real text, edits land between whole characters of the file's
/// own encoding, and a file whose encoding cannot be told is never edited.
/// The fixtures are the Captions tests' (made by scripts/make-legacy-fixtures.py).
@Suite struct LegacyEncodingJobTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CaptionsTests/Fixtures/valid/legacy")

    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    func process(_ bytes: [UInt8], _ configuration: PipelineConfiguration = fakeConfiguration()) async -> FileProcessor.Outcome {
        await FileProcessor(configuration: configuration).process(bytes, input: "in/a.srt", hint: .srt) { _ in "a.srt" }
    }

    /// KOI8-R read as Windows-1252 got bold inside words and mojibake in the prompt.
    @Test func aKOI8RFileIsEditedInItsOwnEncoding() async throws {
        let model = FakeAssistantModel()
        let outcome = await process(try Self.fixture("koi8-r.srt"), fakeConfiguration(model: model))
        #expect(outcome.report.actions.map(\.state) == [.applied, .applied, .failed])   // KOI8-R cannot hold 🎬
        #expect(outcome.report.actions[2].reason?.contains("KOI8-R") == true)
        let keywords = try #require(outcome.report.actions[0].keywords)
        #expect(keywords.contains("погода"))
        // The prompt had the real Russian text.
        #expect(model.prompts.first?.contains("Сегодня мы пошли в парк") == true)
        // The output decodes in KOI8-R to the text with every keyword made bold, whole words only.
        let caption = try #require(outcome.bytes)
        let reread = try SourceText.decode(bytes: caption, declared: try #require(TextEncoding(named: "KOI8-R")))
        #expect(reread.encodingIsKnown)
        var expected = String(decoding: try Self.fixture("koi8-r.utf8.srt"), as: UTF8.self)
        for keyword in keywords {
            expected = expected.replacingOccurrences(of: "(?i)(?<![\\p{L}])(\(keyword))(?![\\p{L}])", with: "<b>$1</b>", options: .regularExpression)
        }
        #expect(String(decoding: reread.bytes, as: UTF8.self) == expected)
        #expect(outcome.report.warnings.first?.message.contains("detected as KOI8-R") == true)
    }

    /// A Shift_JIS or EUC-KR file with no edit comes out byte-identical.
    @Test(arguments: ["shift_jis.srt", "euc-kr.srt"])
    func anUneditedLegacyFileIsWrittenByteForByte(_ name: String) async throws {
        let raw = try Self.fixture(name)
        let outcome = await process(raw, fakeConfiguration(.unavailable(.deviceNotEligible)))
        #expect(outcome.bytes == raw)
    }

    /// `--encoding utf-8` converts from the real encoding, and `losses` names it.
    @Test func utf8OutputOfAGBKFileIsTheRealText() async throws {
        var configuration = fakeConfiguration(.unavailable(.deviceNotEligible))
        configuration.writeOptions.encoding = .utf8
        let outcome = await process(try Self.fixture("gbk.srt"), configuration)
        #expect(outcome.bytes == (try Self.fixture("gbk.utf8.srt")))
        #expect(outcome.report.losses == ["the text encoding was changed: written in UTF-8, the input was in GB18030"])
    }

    /// A file whose encoding cannot be told is written unchanged, and the
    /// actions that would edit it fail with a reason naming the way out.
    @Test func aFileWhoseEncodingCannotBeToldIsNeverEdited() async throws {
        let raw = try Self.fixture("windows-1257.srt")
        let outcome = await process(raw)
        #expect(outcome.bytes == raw)
        #expect(outcome.report.actions.map(\.state) == [.failed, .applied, .failed])
        #expect(outcome.report.actions[0].reason == FileProcessor.unknownEncodingReason(.plain))
        #expect(outcome.report.actions[0].reason?.contains("`inputEncoding`") == true)
        // Converted, it would be mojibake for good: the file fails instead.
        let converted = await process(raw, fakeConfiguration(convertTo: .vtt))
        #expect(converted.bytes == nil)
        #expect(converted.report.error?.contains("could not be told") == true)
    }

    /// The emoji of a file whose encoding cannot be told fails for that
    /// reason, not with "Windows-1252 cannot hold it; --encoding utf-8 can"
    /// (which fails the file); a declared encoding the bytes are not in is
    /// named as declared, not as "no legacy encoding was detected".
    @Test func aFileWhoseEncodingCannotBeToldSaysWhyForEveryEdit() async throws {
        let undetected = await process(try Self.fixture("windows-1257.srt"))
        #expect(undetected.report.actions[2].reason == FileProcessor.unknownEncodingReason(.plain))
        var configuration = fakeConfiguration()
        configuration.settings.inputEncoding = "Shift_JIS"
        let raw = try Self.fixture("euc-kr.srt") + [0x81]   // not Shift_JIS: a lead byte with nothing after it
        let declared = await process(raw, configuration)
        #expect(declared.bytes == raw)
        #expect(declared.report.actions.map(\.state) == [.failed, .applied, .failed])
        let reason = FileProcessor.unknownEncodingReason(.plain, declared: "Shift_JIS")
        #expect(reason.contains("not Shift_JIS text"))
        #expect(declared.report.actions[2].reason == reason)
        configuration.writeOptions.encoding = .utf8
        #expect(await process(raw, configuration).report.error?.contains("not Shift_JIS text") == true)
    }

    /// `--input-encoding utf-8` on a GBK file: not edited (an emoji in UTF-8 was appended to its GBK text).
    @Test func aGBKFileDeclaredUTF8IsNeverEdited() async throws {
        var configuration = fakeConfiguration()
        configuration.settings.inputEncoding = "UTF-8"
        let raw = try Self.fixture("gbk.srt")
        let outcome = await process(raw, configuration)
        #expect(outcome.bytes == raw)
        #expect(outcome.report.actions.map(\.state) == [.failed, .applied, .failed])
    }

    /// Declared (`--input-encoding windows-1257`), the same file is edited, in Windows-1257.
    @Test func aDeclaredEncodingIsEdited() async throws {
        var configuration = fakeConfiguration()
        configuration.settings.inputEncoding = "Windows-1257"
        let outcome = await process(try Self.fixture("windows-1257.srt"), configuration)
        #expect(outcome.report.actions.map(\.state) == [.applied, .applied, .failed])
        let caption = try #require(outcome.bytes)
        let reread = try SourceText.decode(bytes: caption, declared: try #require(TextEncoding(named: "windows-1257")))
        #expect(reread.encodingIsKnown)
        #expect(String(decoding: reread.bytes, as: UTF8.self).contains("<b>"))
        #expect(outcome.report.fingerprint.settings.json["inputEncoding"] == .string("Windows-1257"))
    }
}
