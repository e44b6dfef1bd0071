import Foundation
import Testing
@testable import Captions

private func fixture(_ path: String) throws -> Data {
    try Data(contentsOf: TTMLTestSupport.fixtures.appendingPathComponent(path))
}

/// `--encoding`: a file written in its own format keeps its encoding, or is
/// written as UTF-8, which holds every emoji; the change is one loss line.
@Suite struct OutputEncodingTests {
    @Test func aWindows1252FileIsWrittenAsUTF8WithTheEmoji() throws {
        let data = try fixture("valid/srt/windows1252.srt")
        let doc = try CaptionDocument.read(data, hint: .srt)
        let edit = [0: CueEdit(appendedText: " 🎬")]
        // Kept in its own encoding, it cannot hold the emoji.
        #expect(throws: CaptionError.self) { try doc.write(edits: edit) }
        #expect(doc.outputEncoding() == .windows1252)
        #expect(doc.losses(writing: WriteOptions()).isEmpty)

        let utf8 = WriteOptions(encoding: .utf8)
        #expect(doc.outputEncoding(options: utf8) == .utf8)
        let out = try doc.write(edits: edit, options: utf8)
        #expect(out == Data("1\r\n00:00:01,000 --> 00:00:02,000\r\nCafé “quoted” 🎬\r\n".utf8))
        #expect(doc.losses(writing: utf8) == ["the text encoding was changed: written in UTF-8, the input was in Windows-1252"])
        // With no edit the file is still written as UTF-8: the option is about the file, not the emoji.
        #expect(!doc.writesInputUnchanged(edits: [:], options: utf8))
        #expect(try doc.write(options: utf8) == Data("1\r\n00:00:01,000 --> 00:00:02,000\r\nCafé “quoted”\r\n".utf8))
    }

    @Test func aUTF8FileIsWrittenAsItCame() throws {
        let data = try fixture("valid/srt/bom_utf8.srt")
        let doc = try CaptionDocument.read(data, hint: .srt)
        let utf8 = WriteOptions(encoding: .utf8)
        #expect(doc.writesInputUnchanged(edits: [:], options: utf8))
        #expect(try doc.write(options: utf8) == data)
        #expect(doc.losses(writing: utf8).isEmpty)
    }

    @Test func aUTF16TTMLFileSaysUTF8InItsDeclaration() throws {
        let data = try fixture("valid/ttml/utf16le-bom.ttml")
        let doc = try CaptionDocument.read(data, hint: .ttml)
        #expect(doc.source.encoding == .utf16LittleEndian)
        let out = try doc.write(edits: [doc.cues.count - 1: CueEdit(appendedText: " 🎬")], options: WriteOptions(encoding: .utf8))
        let text = String(decoding: out, as: UTF8.self)
        #expect(out.first == UInt8(ascii: "<"))   // no byte-order mark
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        let again = try CaptionDocument.read(out, hint: .ttml)
        #expect(again.source.encoding == .utf8)
        #expect(again.cues.map(\.plainText) == doc.cues.enumerated().map { $0.offset == doc.cues.count - 1 ? $0.element.plainText + " 🎬" : $0.element.plainText })
        #expect(try CaptionDocument.read(out).format == .ttml)
    }

    @Test func theXMLDeclarationsEncodingIsFound() {
        func value(_ text: String) -> String? {
            let bytes = Array(text.utf8)
            return XMLDeclaration.encodingValue(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        #expect(value("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><tt/>") == "ISO-8859-1")
        #expect(value("<?xml version='1.0' encoding = 'windows-1252' standalone='yes'?>") == "windows-1252")
        #expect(value("<?xml version=\"1.0\"?><tt encoding=\"x\"/>") == nil)
        #expect(value("<tt/>") == nil)
        #expect(value("<?xml-stylesheet encoding=\"x\"?>") == nil)
    }

    @Test func aConversionOfAFileInAnotherEncodingSaysSo() throws {
        let doc = try CaptionDocument.read(try fixture("valid/srt/windows1252.srt"), hint: .srt)
        let conversion = try doc.converted(to: .vtt)
        #expect(conversion.losses.contains("the text encoding was changed: written in UTF-8, the input was in Windows-1252"))
        // To its own format, the file keeps its encoding unless asked.
        #expect(try doc.converted(to: .srt).losses.isEmpty)
        #expect(try doc.converted(to: .srt, options: WriteOptions(encoding: .utf8)).losses.count == 1)
    }
}

/// The language a file declares, carried across formats, and `--language`.
@Suite struct LanguageTests {
    @Test(arguments: ["en", "en-GB", "EN-gb", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1901", "sl-rozaj-biske",
                      "x-private", "en-x-custom", "en-a-bbb-x-a", "i-klingon", "zh-min-nan", "yue-HK", "hy-Latn-IT-arevela"])
    func wellFormedTags(_ tag: String) {
        #expect(LanguageTag.isWellFormed(tag))
    }

    @Test(arguments: ["", "e", "en_GB", "en-", "-en", "en--GB", "123", "en-GB-oed-x", "en-a",
                      "en-x", "x", "en GB", "en-GB\n-->", "ünï", "en-a-b", "toolongtag"])
    func malformedTags(_ tag: String) {
        #expect(!LanguageTag.isWellFormed(tag))
    }

    private func ttml(_ root: String, body: String = "<div><p begin=\"0s\" end=\"1s\">Hello</p></div>") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\"\(root)>\n  <body>\(body)</body>\n</tt>\n"
    }

    @Test func webVTTLanguageBecomesTTMLsXMLLang() throws {
        let doc = try CaptionDocument.read(Data("WEBVTT\nKind: captions\nLanguage: en\n\n00:01.000 --> 00:02.000\nHello\n".utf8))
        #expect(doc.language == "en")
        let conversion = try doc.converted(to: .ttml)
        #expect(String(decoding: conversion.data, as: UTF8.self).contains("xml:lang=\"en\""))
        #expect(conversion.losses == ["WebVTT header lines were dropped (Kind)"])
        let srt = try doc.converted(to: .srt)
        #expect(srt.losses == ["WebVTT header lines were dropped (Kind)", "the language (en) was dropped: SRT files cannot declare one"])
        // A header of only Language: loses nothing on the way to TTML.
        let only = try CaptionDocument.read(Data("WEBVTT\r\nLanguage:  pt-BR \r\n\r\n00:01.000 --> 00:02.000\r\nOlá\r\n".utf8))
        #expect(only.language == "pt-BR")
        #expect(try only.converted(to: .ttml).losses.isEmpty)
    }

    @Test func ttmlsXMLLangBecomesTheWebVTTLanguageLine() throws {
        let doc = try CaptionDocument.read(Data(ttml(" xml:lang=\"en-GB\"").utf8))
        #expect(doc.language == "en-GB")
        let conversion = try doc.converted(to: .vtt)
        #expect(String(decoding: conversion.data, as: UTF8.self).hasPrefix("WEBVTT\nLanguage: en-GB\n\n"))
        #expect(conversion.losses.isEmpty)
        // Read back, the language is the same.
        #expect(try CaptionDocument.read(conversion.data).language == "en-GB")
    }

    @Test func aTTMLFileInSeveralLanguagesSaysWhatWebVTTAndSRTDrop() throws {
        let body = "<div><p begin=\"0s\" end=\"1s\">Hello</p></div><div xml:lang=\"fr\"><p begin=\"1s\" end=\"2s\">Bonjour</p></div>"
        let doc = try CaptionDocument.read(Data(ttml(" xml:lang=\"en\"", body: body).utf8))
        #expect(doc.language == "en")
        let vtt = try doc.converted(to: .vtt)
        #expect(String(decoding: vtt.data, as: UTF8.self).hasPrefix("WEBVTT\nLanguage: en\n"))
        #expect(vtt.losses == ["TTML xml:lang on parts of the file (fr) was dropped: WebVTT declares one language for the whole file (Language: en)"])
        #expect(try doc.converted(to: .srt).losses == ["the languages (en, fr) were dropped: SRT files cannot declare a language"])
        // A root with no language and one language in the content: that is the file's.
        let content = try CaptionDocument.read(Data(ttml(" xml:lang=\"\"", body: "<div xml:lang=\"de\"><p begin=\"0s\" end=\"1s\">Hallo</p></div>").utf8))
        #expect(content.language == "de")
    }

    @Test func aLanguageThatIsNotATagIsNotCarried() throws {
        // "English" would be a well-formed (if unregistered) tag: a 5-8 letter language subtag.
        #expect(LanguageTag.isWellFormed("English"))
        let doc = try CaptionDocument.read(Data(ttml(" xml:lang=\"en_GB\"").utf8))
        #expect(doc.language == nil)
        let conversion = try doc.converted(to: .vtt, options: WriteOptions(language: "en"))
        #expect(String(decoding: conversion.data, as: UTF8.self).hasPrefix("WEBVTT\nLanguage: en\n"))
        #expect(conversion.losses == ["the file's language (en_GB) is not a well-formed BCP 47 tag, so it was not carried"])
        // Written in its own format, the file's own value stays as it is.
        #expect(try doc.write(options: WriteOptions(language: "en")) == Data(ttml(" xml:lang=\"en_GB\"").utf8))
    }

    @Test func theOptionIsUsedOnlyWhereTheFileDeclaresNone() throws {
        let srt = try CaptionDocument.read(Data("1\n00:00:01,000 --> 00:00:02,000\nHi\n".utf8))
        #expect(srt.language == nil)
        #expect(String(decoding: try srt.converted(to: .ttml).data, as: UTF8.self).contains("xml:lang=\"und\""))
        let tagged = try srt.converted(to: .ttml, options: WriteOptions(language: "en-GB"))
        #expect(String(decoding: tagged.data, as: UTF8.self).contains("xml:lang=\"en-GB\""))
        #expect(String(decoding: try srt.converted(to: .vtt, options: WriteOptions(language: "en-GB")).data, as: UTF8.self)
            .hasPrefix("WEBVTT\nLanguage: en-GB\n\n"))
        // An SRT written as SRT has no place for it: unchanged.
        #expect(srt.writesInputUnchanged(edits: [:], options: WriteOptions(language: "en")))
        // A file that declares its own keeps it.
        let french = try CaptionDocument.read(Data(ttml(" xml:lang=\"fr\"").utf8))
        #expect(try french.converted(to: .vtt, options: WriteOptions(language: "en")).data.starts(with: Data("WEBVTT\nLanguage: fr\n".utf8)))
        #expect(french.writesInputUnchanged(edits: [:], options: WriteOptions(language: "en")))
        // A malformed tag given through the library is never written.
        #expect(!String(decoding: try srt.converted(to: .vtt, options: WriteOptions(language: "en\n-->")).data, as: UTF8.self).contains("Language"))
    }

    @Test(arguments: [
        // No header: a line after the signature line, with the file's line ending.
        ("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n", "WEBVTT\nLanguage: en-GB\n\n00:01.000 --> 00:02.000\nHi\n"),
        ("WEBVTT - Title\r\n\r\n00:01.000 --> 00:02.000\r\nHi\r\n", "WEBVTT - Title\r\nLanguage: en-GB\r\n\r\n00:01.000 --> 00:02.000\r\nHi\r\n"),
        // A header: a line at its end.
        ("WEBVTT\nKind: captions\n\n00:01.000 --> 00:02.000\nHi\n", "WEBVTT\nKind: captions\nLanguage: en-GB\n\n00:01.000 --> 00:02.000\nHi\n"),
        // An undetermined or empty language: the value replaced.
        ("WEBVTT\nLanguage: und\nKind: captions\n\n00:01.000 --> 00:02.000\nHi\n", "WEBVTT\nLanguage: en-GB\nKind: captions\n\n00:01.000 --> 00:02.000\nHi\n"),
        ("WEBVTT\nlanguage:\n\n00:01.000 --> 00:02.000\nHi\n", "WEBVTT\nlanguage:en-GB\n\n00:01.000 --> 00:02.000\nHi\n"),
        // Its own language: kept.
        ("WEBVTT\nLanguage: fr\n\n00:01.000 --> 00:02.000\nHi\n", "WEBVTT\nLanguage: fr\n\n00:01.000 --> 00:02.000\nHi\n"),
    ])
    func aWebVTTFileWrittenAsWebVTTGetsTheLanguageLine(_ input: String, _ expected: String) throws {
        let doc = try CaptionDocument.read(Data(input.utf8))
        let out = try doc.write(edits: [0: CueEdit(appendedText: " 🎬")], options: WriteOptions(language: "en-GB"))
        #expect(String(decoding: out, as: UTF8.self) == expected.replacingOccurrences(of: "Hi", with: "Hi 🎬"))
        #expect(try CaptionDocument.read(out).cues.count == 1)
        #expect(try doc.write(options: WriteOptions(language: "en-GB")) == Data(expected.utf8))
    }

    @Test(arguments: [
        ("", " xml:lang=\"en-GB\""),
        (" xml:lang=\"\"", " xml:lang=\"en-GB\""),
        (" xml:lang=\"und\"", " xml:lang=\"en-GB\""),
        (" xml:lang=\"fr\"", " xml:lang=\"fr\""),
    ])
    func aTTMLFileWrittenAsTTMLGetsXMLLang(_ root: String, _ expected: String) throws {
        let doc = try CaptionDocument.read(Data(ttml(root).utf8))
        let options = WriteOptions(language: "en-GB")
        #expect(try doc.write(options: options) == Data(ttml(expected).utf8))
        // With an emphasis that needs the styling namespace declared too.
        let out = try doc.write(edits: [0: CueEdit(emphasis: [.init(run: 0, utf8: 0..<5)])], options: options)
        #expect(String(decoding: out, as: UTF8.self).contains("<tt xmlns=\"http://www.w3.org/ns/ttml\"\(expected) xmlns:tts="))
        #expect(try CaptionDocument.read(out).language == (root.contains("fr") ? "fr" : "en-GB"))
    }
}
