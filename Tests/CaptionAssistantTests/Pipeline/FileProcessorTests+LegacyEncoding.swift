import Assistant
import Captions
import Foundation
import Testing
import TestSupport
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
        #expect(outcome.report.losses == ["the text encoding was changed: written in UTF-8, the input was in GBK"])
    }

    /// A file whose encoding cannot be told is written unchanged, and the
    /// actions that would edit it fail with a reason naming the way out.
    @Test func aFileWhoseEncodingCannotBeToldIsNeverEdited() async throws {
        let raw = try Self.fixture("windows-1257.srt")
        let outcome = await process(raw)
        #expect(outcome.bytes == raw)
        #expect(outcome.report.actions.map(\.state) == [.failed, .failed, .failed])
        let candidates = try SourceText.decode(bytes: raw).encodingCandidates
        #expect(outcome.report.actions[0].reason == FileProcessor.unknownEncodingReason(.plain, candidates: candidates))
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
        let candidates = try SourceText.decode(bytes: Self.fixture("windows-1257.srt")).encodingCandidates
        #expect(undetected.report.actions[2].reason == FileProcessor.unknownEncodingReason(.plain, candidates: candidates))
        var configuration = fakeConfiguration()
        configuration.settings.inputEncoding = "Shift_JIS"
        let raw = try Self.fixture("euc-kr.srt") + [0x81]   // not Shift_JIS: a lead byte with nothing after it
        let declared = await process(raw, configuration)
        #expect(declared.bytes == raw)
        #expect(declared.report.actions.map(\.state) == [.failed, .failed, .failed])
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
        #expect(outcome.report.actions.map(\.state) == [.failed, .failed, .failed])
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

    /// The fixtures' manifest (Fixtures/legacy.tsv): name, codec, the names detection gives ("!…": not known), keyword.
    static let manifest: [(name: String, detected: String, keyword: String)] = {
        guard let text = try? String(contentsOf: folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("legacy.tsv"),
                                     encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], fields[2], fields[3])
        }
    }()

    /// Every fixture detection makes known, through the job with the fake model:
    /// the output decodes in the file's own encoding, and is the input's text
    /// with each reported keyword made bold where it was found (and the emoji,
    /// where the encoding holds it, after the last cue's text): no tag between
    /// the bytes of a character, no character changed.
    @Test(arguments: manifest.filter { !$0.detected.isEmpty && !$0.detected.hasPrefix("!") }.map { ($0.name, $0.keyword) })
    func everyEditedLegacyFileDecodesInItsOwnEncodingToTheExpectedText(_ name: String, _ keyword: String) async throws {
        let raw = try Self.fixture(name + ".srt")
        let encoding = try SourceText.decode(bytes: raw).encoding
        let answer = #"{"keywords": ["# + "\"\(keyword)\"" + #"], "titles": ["One", "Two", "Three"], "emoji": "🎬"}"#
        let model = ScriptedAssistantModel(answers: [answer])
        let outcome = await process(raw, fakeConfiguration(model: model))
        let keywords = try #require(outcome.report.actions[0].keywords, "\(name): \(outcome.report.actions[0].reason ?? "")")
        let caption = try #require(outcome.bytes)
        let reread = try SourceText.decode(bytes: caption, declared: encoding)
        #expect(reread.encodingIsKnown && reread.warnings.isEmpty, "\(name) does not decode in \(encoding.rawValue)")
        var text = String(decoding: reread.bytes, as: UTF8.self)
        // The prompt had the real text, not a guessed reading of it.
        let original = String(decoding: try Self.fixture(name + ".utf8.srt"), as: UTF8.self)
        let firstLine = try #require(original.split(separator: "\n").dropFirst(2).first)
        #expect(model.log.prompts.first?.contains(firstLine) == true)
        if outcome.report.actions[2].state == .applied, let emoji = outcome.report.actions[2].emoji {
            #expect(text.hasSuffix(" \(emoji)\n"))
            text = String(text.dropLast(emoji.count + 2)) + "\n"
        } else {
            #expect(outcome.report.actions[2].reason?.contains(encoding.rawValue) == true)
        }
        // Every bold span is a keyword, and without the tags the text is the input's.
        let spans = text.components(separatedBy: "<b>").dropFirst().compactMap { $0.components(separatedBy: "</b>").first }
        #expect(spans.count == outcome.report.actions[0].occurrences)
        #expect(!spans.isEmpty)
        for span in spans { #expect(keywords.contains { $0.caseInsensitiveCompare(span) == .orderedSame }, "\(span) is not a keyword") }
        #expect(text.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "") == original)
    }

    /// Every fixture detection does not make known (two encodings read it as
    /// different text, or the best guess is not confident): written byte for
    /// byte, the model not asked, every action failed with a reason that names
    /// `--input-encoding` and the candidates.
    @Test(arguments: manifest.filter { $0.detected.hasPrefix("!") }.map { ($0.name, $0.detected) })
    func everyAmbiguousLegacyFileIsWrittenUnchangedWithTheReason(_ name: String, _ detected: String) async throws {
        let raw = try Self.fixture(name + ".srt")
        let model = FakeAssistantModel()
        let outcome = await process(raw, fakeConfiguration(model: model))
        #expect(outcome.bytes == raw)
        #expect(model.prompts.isEmpty)
        #expect(outcome.report.actions.map(\.state) == [.failed, .failed, .failed])
        #expect(outcome.report.actions[1].titles == nil)
        let reason = try #require(outcome.report.actions[0].reason)
        #expect(reason.contains("`inputEncoding`"))
        for candidate in detected.dropFirst().split(separator: "|") { #expect(reason.contains(candidate), "\(reason)") }
    }

    /// The EUC-JP file GBK also reads: the message names both, as "EUC-JP or GBK".
    @Test func theReasonNamesTheCandidatesAsAChoice() async throws {
        let outcome = await process(try Self.fixture("euc-jp.srt"))
        #expect(outcome.report.actions[0].reason?.contains("it may be EUC-JP or GBK") == true)
    }

    /// A file detected as GB18030 whose bytes are GBK text is GBK: its emoji
    /// (which GB18030 writes as four bytes, junk to a GBK reader) is not added;
    /// a file with GB18030's four-byte characters gets it, and it decodes back.
    @Test func anEmojiIsAddedOnlyWhereTheFileSEncodingHoldsIt() async throws {
        let gbk = await process(try Self.fixture("gbk.srt"))
        #expect(gbk.report.actions[2].state == .failed)
        #expect(gbk.report.actions[2].reason?.contains("GBK") == true)
        #expect(gbk.report.actions[2].reason?.contains("GB18030") == true)
        let gbkBytes = try #require(gbk.bytes)
        #expect(!String(decoding: try SourceText.decode(bytes: gbkBytes, declared: try #require(TextEncoding(named: "GBK"))).bytes, as: UTF8.self)
            .unicodeScalars.contains { $0.properties.isEmojiPresentation })
        let gb18030 = await process(try Self.fixture("gb18030.srt"))
        #expect(gb18030.report.actions[2].state == .applied)
        let emoji = try #require(gb18030.report.actions[2].emoji)
        let reread = try SourceText.decode(bytes: try #require(gb18030.bytes), declared: try #require(TextEncoding(named: "GB18030")))
        #expect(String(decoding: reread.bytes, as: UTF8.self).hasSuffix(" \(emoji)\n"))
        // Declared GB18030, the GBK-looking file gets it too.
        var configuration = fakeConfiguration()
        configuration.settings.inputEncoding = "GB18030"
        #expect(await process(try Self.fixture("gbk.srt"), configuration).report.actions[2].state == .applied)
    }
}
