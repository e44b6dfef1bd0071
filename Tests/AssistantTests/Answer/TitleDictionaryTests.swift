import Foundation
import Testing
import Words
@testable import Assistant

/// A title's words are words of the captions or of their language (`TitleDictionary`, Hunspell's dictionaries).
/// The tests that need a dictionary run where libhunspell and the `hunspell-*` dictionaries are installed; CI
/// installs them and sets `CAPTION_ASSISTANT_REQUIRE_DICTIONARIES=1` (`.ci/run`), so that there they run or fail,
/// never skip. Without them the check is not made, which the last test asserts everywhere.
@Suite struct TitleDictionaryTests {
    static let hasDictionaries = ["en", "fr", "es", "it", "pt"].allSatisfy { TitleDictionary.of($0) != nil }
    static var required: Bool { ProcessInfo.processInfo.environment["CAPTION_ASSISTANT_REQUIRE_DICTIONARIES"] == "1" }

    static func captionWords(_ text: String) -> Set<String> {
        Set(WordScanner().words(in: text).map { $0.lowercased() })
    }

    /// Titles SmolLM2-135M's answers had, each grounded by one real word and passing every form rule: a word of no
    /// language in a grammatical frame.
    @Test(.enabled(if: hasDictionaries || required), arguments: [
        ("en", "Einstein was born in 1879. His theory of relativity changed physics.", "Einstenration and Relativity", "Einstenration"),
        ("pt", "O goleiro defende. O Flamengo ataca pela direita, cruzamento para a área.", "Egurgeira e abacara da Golei", "Egurgeira"),
        ("fr", "Le glacier recule chaque année. À Chamonix, les scientifiques installent des balises.", "L'Allepipode de Chamonix", "L'Allepipode"),
        ("es", "El pollo y el tomate se cocinan en la paella con pimentón.", "El pollo y el carro del marrecho", "marrecho"),
    ])
    func aWordOfNoLanguageIsRefused(_ language: String, _ captions: String, _ title: String, _ word: String) throws {
        let dictionary = try #require(TitleDictionary.of(language))
        #expect(dictionary.flaw(title, language: language, captionWords: Self.captionWords(captions))
                == "holds a word of neither the captions nor the \(language) dictionary (“\(word)”)")
    }

    /// Headlines pass: dictionary words in any letter case, elisions and possessives, numbers, and names the
    /// captions hold that no dictionary does.
    @Test(.enabled(if: hasDictionaries || required), arguments: [
        ("en", "Einstein was born in 1879. His theory of relativity changed physics.", "Einstein and Relativity"),
        ("en", "The Northfield Rovers scored twice at Riverside.", "NORTHFIELD ROVERS WIN AT RIVERSIDE"),
        ("en", "The chef stirs the risotto.", "The Chef's Risotto in 12 Minutes"),
        ("fr", "Le glacier recule chaque année. À Chamonix, les scientifiques installent des balises.", "L'éléphant et le glacier de Chamonix"),
        ("es", "El pollo y el tomate se cocinan en la paella con pimentón.", "Paella con pollo y pimentón"),
        ("pt", "O goleiro defende. O Flamengo ataca pela direita.", "O Flamengo ataca pela direita"),
        // Elisions the dictionaries know only with a straight apostrophe (it_IT), or not whole (pt_PT: d'água).
        ("it", "Il museo apre alle nove. La Venere di Botticelli è nella sala.", "L’arte del Rinascimento a Firenze"),
        ("pt", "Bebemos água fresca no verão.", "Um copo d’água fresca"),
    ])
    func wordsOfTheLanguageOrTheCaptionsPass(_ language: String, _ captions: String, _ title: String) throws {
        let dictionary = try #require(TitleDictionary.of(language))
        #expect(dictionary.flaw(title, language: language, captionWords: Self.captionWords(captions)) == nil)
    }

    /// Through the decoder: the refused title is named with the reason, three others stand.
    @Test(.enabled(if: hasDictionaries || required)) func theDecoderRefusesAndNamesIt() {
        let transcript = "Einstein was born in 1879. His theory of relativity changed physics. The light bends near the sun."
        let answer = #"{"keywords": ["relativity"], "titles": ["Einstenration and Relativity", "Einstein and Relativity", "Light and the Sun", "The Theory of Relativity", "Physics Changed"], "emoji": "💡"}"#
        let result = SuggestionDecoder().decode(answer, transcript: transcript)
        #expect(result.titles == .applied(["Einstein and Relativity", "Light and the Sun", "The Theory of Relativity"]))
        #expect(result.warnings.contains("Not usable: “Einstenration and Relativity” holds a word of neither the captions nor the en dictionary (“Einstenration”)."),
                "\(result.warnings)")
    }

    /// Only pairs of regular files are dictionaries: a FIFO named `en_US.dic` (in `DICPATH`, say) would hold the
    /// run at Hunspell's first read; a link to a regular file is one.
    @Test func onlyRegularFilesAreDictionaries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dictionaries-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/en_US.aff", 0o600) == 0 && mkfifo(folder + "/en_US.dic", 0o600) == 0)
        try Data("SET UTF-8\n".utf8).write(to: URL(fileURLWithPath: folder + "/fr_FR.aff"))
        try Data("1\nmot\n".utf8).write(to: URL(fileURLWithPath: folder + "/fr_FR.dic"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/es_ES.aff", withDestinationPath: folder + "/fr_FR.aff")
        try FileManager.default.createSymbolicLink(atPath: folder + "/es_ES.dic", withDestinationPath: folder + "/fr_FR.dic")
        #expect(TitleDictionary.files(for: "en", in: [folder]).isEmpty)
        #expect(TitleDictionary.files(for: "fr", in: [folder]).map(\.dic) == [folder + "/fr_FR.dic"])
        #expect(TitleDictionary.files(for: "es", in: [folder]).map(\.dic) == [folder + "/es_ES.dic"])
    }

    /// A language with no dictionary, and a machine with none, leave the check unmade; a dictionary is opened
    /// once per process.
    @Test func withoutADictionaryNothingIsChecked() {
        #expect(!Self.required || Self.hasDictionaries,
                "CAPTION_ASSISTANT_REQUIRE_DICTIONARIES=1 but libhunspell or a dictionary of en, fr, es, it, pt is missing (bash .ci/run installs them)")
        #expect(TitleDictionary.of("xx") == nil)
        #expect(TitleDictionary.files(for: "xx").isEmpty)
        if let english = TitleDictionary.of("en") {
            #expect(TitleDictionary.of("en") === english)
            #expect(english.paths.allSatisfy { TitleDictionary.installed.contains("en: \($0)") })
        } else {
            #expect(!TitleDictionary.installed.contains { $0.hasPrefix("en: ") })
            #expect(TitleDictionary.summary.hasPrefix("none ("))
        }
    }
}
