import Foundation
import Testing
@testable import Captions

/// Caption files in the legacy encodings of their languages (GBK, GB18030,
/// Big5, EUC-KR, Shift_JIS, EUC-JP, KOI8-R, Windows-125x, ISO-8859-x), made
/// with Python's codecs by scripts/make-legacy-fixtures.py, not by the ICU the
/// tool converts with: each is read as its own text, written back unchanged
/// byte for byte, and an emphasised keyword comes out exactly as Python
/// writes the same edit in the same encoding.
@Suite struct LegacyEncodingTests {
    /// One line of the fixtures' manifest (Fixtures/legacy.tsv).
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// The names ICU's detector may give (several where two sets write these letters alike); empty: declared only;
        /// for an ambiguous file, encodings the message must name.
        var detected: [String]
        /// Not known when detected (`CharsetDetection`: another encoding reads it as other text, or the best guess is
        /// not confident): written unchanged, with the candidates named.
        var ambiguous = false
        var keyword: String
        var testDescription: String { name }
    }

    static let folder = "valid/legacy/"

    static func fixture(_ path: String) throws -> [UInt8] {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return [UInt8](try Data(contentsOf: root.appendingPathComponent(folder + path)))
    }

    static let cases: [Case] = {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil),
              let manifest = try? String(contentsOf: root.appendingPathComponent("legacy.tsv"), encoding: .utf8) else { return [] }
        return manifest.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let ambiguous = fields[2].hasPrefix("!")
            return Case(name: fields[0], detected: fields[2].dropFirst(ambiguous ? 1 : 0).split(separator: "|").map(String.init),
                        ambiguous: ambiguous, keyword: fields[3])
        }
    }()

    @Test func everyListedEncodingHasAFixture() {
        let names = Set(Self.cases.map(\.name))
        for name in ["gbk", "gb18030", "big5", "euc-kr", "shift_jis", "euc-jp", "koi8-r",
                     "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254", "windows-1255", "windows-1256",
                     "iso-8859-1", "iso-8859-2", "iso-8859-5", "iso-8859-7", "iso-8859-8", "iso-8859-9"] {
            #expect(names.contains(name), "no fixture in \(name)")
        }
    }

    /// The cases detection makes known.
    static let known = cases.filter { !$0.detected.isEmpty && !$0.ambiguous }

    /// Detected (no declaration): the real text, known, and unchanged when not edited.
    @Test(arguments: known)
    func legacyEncodingIsDetectedAndReadAsItsOwnText(_ c: Case) throws {
        let raw = try Self.fixture(c.name + ".srt")
        let source = try SourceText.decode(bytes: raw)
        #expect(c.detected.contains(source.encoding.rawValue), "detected as \(source.encoding.rawValue)")
        #expect(source.encodingIsKnown)
        #expect(source.bytes == (try Self.fixture(c.name + ".utf8.srt")))
        let document = try CaptionDocument.read(source, hint: .srt)
        #expect(try document.writeBytes() == raw)
    }

    /// The edit is spliced between whole characters of the file's own encoding:
    /// the output is what Python writes for the same edit, and decodes in that encoding.
    @Test(arguments: known)
    func emphasisInALegacyEncodingDecodesInThatEncoding(_ c: Case) throws {
        let document = try CaptionDocument.read(SourceText.decode(bytes: Self.fixture(c.name + ".srt")), hint: .srt)
        let result = KeywordEmphasis(keywords: [c.keyword]).apply(to: document.cues)
        #expect(result.occurrences > 0, "\(c.keyword) not found")
        let written = try document.writeBytes(edits: result.edits)
        #expect(written == (try Self.fixture(c.name + ".bold.srt")))
        let reread = try SourceText.decode(bytes: written, declared: document.source.encoding)
        #expect(reread.encodingIsKnown && reread.warnings.isEmpty)
    }

    /// Two encodings read these files as different text (EUC-JP and GBK, Windows-1250
    /// and Windows-1252, a short EUC-KR file that ICU scores highest as KOI8-R), or the
    /// best guess is not confident (a short Windows-1251 file): not known, whatever
    /// ICU's best guess, the candidates named, and written back byte for byte.
    @Test(arguments: cases.filter(\.ambiguous))
    func anAmbiguousFileIsNotKnownAndItsCandidatesAreNamed(_ c: Case) throws {
        let raw = try Self.fixture(c.name + ".srt")
        let source = try SourceText.decode(bytes: raw)
        #expect(!source.encodingIsKnown)
        #expect(source.encoding == .windows1252)
        for name in c.detected {
            #expect(source.encodingCandidates.map(\.rawValue).contains(name), "\(name) not among \(source.encodingCandidates)")
        }
        #expect(source.warnings.first?.message.contains("could not be told") == true)
        #expect(try CaptionDocument.read(source, hint: .srt).writeBytes() == raw)
    }

    /// The rule looks at every guess, not the best one alone: the EUC-JP file
    /// ICU scores 100 as EUC-JP is also GBK text (72), and the short Korean file
    /// ICU scores 50 as KOI8-R is EUC-KR text too.
    @Test func everyGuessIsLookedAt() throws {
        let japanese = try Self.fixture("euc-jp.srt")
        let guesses = LegacyCharset.detect(japanese)
        #expect(guesses.first?.name == "EUC-JP")
        #expect(guesses.contains { $0.name == "GB18030" && $0.confidence >= CharsetDetection.rivalConfidence })
        guard case .unknown(let candidates, let why) = CharsetDetection.find(japanese) else {
            Issue.record("EUC-JP text that GBK reads as other text was taken as known"); return
        }
        #expect(candidates.map(\.rawValue).prefix(2) == ["EUC-JP", "GBK"])
        #expect(why.contains("different text"))
        let korean = try Self.fixture("euc-kr-short.srt")
        #expect(LegacyCharset.detect(korean).first?.name == "KOI8-R")
        #expect(!(try SourceText.decode(bytes: korean)).encodingIsKnown)
    }

    /// A file ICU detects as GB18030 whose bytes are GBK text is taken as GBK
    /// (so nothing GBK cannot hold is added); one with GB18030's four-byte
    /// sequences stays GB18030.
    @Test func aGB18030DetectionThatIsGBKTextIsGBK() throws {
        #expect(try SourceText.decode(bytes: Self.fixture("gbk.srt")).encoding.rawValue == "GBK")
        #expect(try SourceText.decode(bytes: Self.fixture("gb18030.srt")).encoding.rawValue == "GB18030")
    }

    /// Declared: every fixture, the one ICU cannot tell (Windows-1257) included.
    @Test(arguments: cases)
    func aDeclaredEncodingIsReadAndWrittenInIt(_ c: Case) throws {
        let declared = c.name.replacingOccurrences(of: "-de", with: "").replacingOccurrences(of: "-cs", with: "")
            .replacingOccurrences(of: "-short-2", with: "").replacingOccurrences(of: "-short", with: "")
        let encoding = try #require(TextEncoding(named: declared))
        let raw = try Self.fixture(c.name + ".srt")
        let source = try SourceText.decode(bytes: raw, declared: encoding)
        #expect(source.encodingIsKnown && source.warnings.isEmpty)
        #expect(source.bytes == (try Self.fixture(c.name + ".utf8.srt")))
        let document = try CaptionDocument.read(source, hint: .srt)
        #expect(try document.writeBytes() == raw)
        let result = KeywordEmphasis(keywords: [c.keyword]).apply(to: document.cues)
        #expect(try document.writeBytes(edits: result.edits) == (try Self.fixture(c.name + ".bold.srt")))
    }

    /// `--encoding utf-8` converts from the real encoding, and the loss names it.
    @Test func utf8OutputIsConvertedFromTheRealEncoding() throws {
        let document = try CaptionDocument.read(SourceText.decode(bytes: Self.fixture("big5.srt")), hint: .srt)
        let options = WriteOptions(encoding: .utf8)
        #expect(try document.writeBytes(options: options) == (try Self.fixture("big5.utf8.srt")))
        #expect(document.losses(writing: options) == ["the text encoding was changed: written in UTF-8, the input was in Big5"])
    }

    /// Text ICU cannot tell with confidence is not taken for any encoding:
    /// read as Windows-1252 only to be shown, and marked not known.
    @Test func anEncodingICUCannotTellIsNotKnown() throws {
        let raw = try Self.fixture("windows-1257.srt")
        let source = try SourceText.decode(bytes: raw)
        #expect(!source.encodingIsKnown)
        #expect(source.encoding == .windows1252)
        #expect(source.warnings.first?.message.contains("could not be told") == true)
        #expect(try CaptionDocument.read(source, hint: .srt).writeBytes() == raw)
    }

    /// A declared encoding the bytes are not in is not believed either.
    @Test func aDeclaredEncodingTheBytesAreNotInIsNotKnown() throws {
        let raw = try Self.fixture("euc-kr.srt") + [0x81]   // a lead byte with nothing after it
        let source = try SourceText.decode(bytes: raw, declared: try #require(TextEncoding(named: "Shift_JIS")))
        #expect(!source.encodingIsKnown)
        #expect(source.warnings.first?.message.contains("declared Shift_JIS") == true)
    }

    /// A file declared UTF-8 (`--input-encoding utf-8`) whose bytes are mostly
    /// not UTF-8 (a GBK file) is not believed: it was read as UTF-8 with its
    /// bytes kept, so an emoji was appended in UTF-8 to GBK text. A damaged
    /// UTF-8 file (a few bad bytes among many good ones) is still UTF-8.
    @Test func aDeclaredUTF8FileWhoseBytesAreNotUTF8IsNotKnown() throws {
        let gbk = try SourceText.decode(bytes: Self.fixture("gbk.srt"), declared: .utf8)
        #expect(!gbk.encodingIsKnown)
        #expect(gbk.warnings.first?.message.contains("declared UTF-8") == true)
        let damaged = Array("1\n00:00:01,000 --> 00:00:02,000\nCafé crème brûlée à la carte\n".utf8) + [0xFF]
        let source = try SourceText.decode(bytes: damaged, declared: .utf8)
        #expect(source.encodingIsKnown)
        #expect(source.encoding == .utf8)
        #expect(source.bytes == damaged)
    }

    @Test func encodingNamesAsPeopleTypeThem() {
        #expect(TextEncoding(named: "utf8") == .utf8)
        #expect(TextEncoding(named: "UTF-16le") == .utf16LittleEndian)
        #expect(TextEncoding(named: "cp1252") == .windows1252)
        #expect(TextEncoding(named: "windows-1252") == .windows1252)
        #expect(TextEncoding(named: "sjis")?.rawValue == "Shift_JIS")
        #expect(TextEncoding(named: "gbk")?.rawValue == "GBK")
        #expect(TextEncoding(named: "koi8-r")?.rawValue == "KOI8-R")
        #expect(TextEncoding(named: "windows-1251")?.rawValue == "Windows-1251")
        #expect(TextEncoding(named: "UTF-16") == nil)
        #expect(TextEncoding(named: "no-such-set") == nil)
        #expect(TextEncoding(named: "") == nil)
    }

    /// GB18030 holds every character, the emoji included; Shift_JIS does not.
    @Test func whetherALegacySetCanHoldTheEmoji() throws {
        #expect(try #require(TextEncoding(named: "GB18030")).canEncode("🎬"))
        #expect(try !#require(TextEncoding(named: "Shift_JIS")).canEncode("🎬"))
        let document = try CaptionDocument.read(SourceText.decode(bytes: Self.fixture("shift_jis.srt")), hint: .srt)
        #expect(throws: CaptionError.self) { try document.source.encode(document.source.bytes + Array("🎬".utf8)) }
    }
}
