#if canImport(CLibHunspell)
internal import CLibHunspell
#endif
import Foundation
import Words

/// The words of a language a title may hold besides the captions' own: a
/// Hunspell dictionary (the spelling dictionaries LibreOffice, Firefox and
/// Debian's `hunspell-*` packages ship), opened through the system's
/// libhunspell when first needed.
///
/// A title whose every word is a word of the transcript or of its language
/// may still be a bad title, but one holding a word of neither is no title a
/// producer would publish: a small model writes letters of no language in a
/// grammatical frame ("Egurgeira e abacara da Golei", "L'Allepipode de
/// Chamonix", "Einstenration and Relativity": all passed every other rule in
/// measured runs, grounded by one real word). Names and rare words the
/// captions hold pass, whatever the dictionary says.
///
/// Where libhunspell (Debian's `libhunspell-1.7-0`) or a dictionary for the
/// transcript's language (`hunspell-en-us`, `hunspell-fr`…) is missing, the
/// check is not made: `caption-assistant check` says which languages have one.
/// Dictionaries are looked for in `DICPATH` (Hunspell's own variable, folders
/// separated by `:`), then in `folders`.
public final class TitleDictionary: @unchecked Sendable {
    /// Where dictionaries are looked for after `DICPATH`.
    public static let folders = ["/usr/share/hunspell", "/usr/local/share/hunspell", "/opt/homebrew/share/hunspell", "/usr/share/myspell"]
    /// The dictionaries tried for each language the decoder tells
    /// (`SuggestionDecoder.language(of:)`: the languages of `StopWords`), in order.
    public static let names: [String: [String]] = [
        "en": ["en_US", "en_GB", "en_CA", "en_AU"], "fr": ["fr_FR", "fr"], "es": ["es_ES", "es_MX", "es"],
        "de": ["de_DE", "de_AT", "de_CH"], "it": ["it_IT"], "pt": ["pt_PT", "pt_BR"],
    ]
    /// The fewest characters of a title word that is looked up (shorter ones
    /// are articles, particles and initials in every language).
    public static let minimumWordLength = 3

    /// The `.dic` files of the language's dictionaries opened (`en_US` and
    /// `en_GB`, `pt_PT` and `pt_BR`: a word of any of them is a word of the language).
    public let paths: [String]
    private let handles: [(handle: OpaquePointer, isLatin1: Bool)]
    /// Hunspell's spell check is not safe from two threads at once.
    private let lock = NSLock()

    private init(handles: [(handle: OpaquePointer, isLatin1: Bool)], paths: [String]) {
        self.handles = handles
        self.paths = paths
    }

    deinit {
        #if canImport(CLibHunspell)
        for entry in handles { ca_hunspell_destroy(entry.handle) }
        #endif
    }

    /// Whether libhunspell can be loaded on this machine.
    public static var isAvailable: Bool {
        #if canImport(CLibHunspell)
        return ca_hunspell_is_loaded() != 0
        #else
        return false
        #endif
    }

    /// The dictionary of `language` (an ISO 639-1 code), opened once per
    /// process; nil without libhunspell or a dictionary for it.
    public static func of(_ language: String) -> TitleDictionary? {
        opened.lock.lock()
        defer { opened.lock.unlock() }
        if let known = opened.dictionaries[language] { return known }
        let dictionary = open(language)
        opened.dictionaries[language] = .some(dictionary)
        return dictionary
    }

    /// Each language's dictionary found here (the files, not opened), as
    /// `language: path`, by language; empty without libhunspell
    /// (`caption-assistant check` prints them).
    public static var installed: [String] {
        guard isAvailable else { return [] }
        return names.keys.sorted().flatMap { language in files(for: language).map { "\(language): \($0.dic)" } }
    }

    /// What `check` says of the title dictionaries: those installed, or why there are none.
    public static var summary: String {
        guard isAvailable else {
            return "none (libhunspell-1.7.so.0 cannot be loaded: install libhunspell-1.7-0 and hunspell-en-us, hunspell-fr… for the languages you caption; titles' words are not checked)"
        }
        let found = installed
        return found.isEmpty
            ? "none (no hunspell dictionary for \(names.keys.sorted().joined(separator: ", ")) in DICPATH or \(folders.joined(separator: ", ")); titles' words are not checked)"
            : found.joined(separator: ", ")
    }

    /// The folders searched, `DICPATH`'s first.
    static var searchFolders: [String] {
        let dicpath = ProcessInfo.processInfo.environment["DICPATH"].map { $0.split(separator: ":").map(String.init) } ?? []
        return dicpath + folders
    }

    /// Every dictionary of `language` found (`files(for:)`).
    private static func open(_ language: String) -> TitleDictionary? {
        #if canImport(CLibHunspell)
        guard isAvailable else { return nil }
        var handles: [(handle: OpaquePointer, isLatin1: Bool)] = []
        var paths: [String] = []
        for (_, aff, dic) in files(for: language) {
            guard let handle = ca_hunspell_create(aff, dic) else { continue }
            let encoding = ca_hunspell_encoding(handle).map { String(cString: $0).uppercased() } ?? ""
            // Words are handed over in the dictionary's encoding: UTF-8 or Latin-1 here; another is not used.
            let latin1 = ["ISO8859-1", "ISO-8859-1", "ISO8859-15", "ISO-8859-15"].contains(encoding)
            guard encoding == "UTF-8" || latin1 else {
                ca_hunspell_destroy(handle)
                continue
            }
            handles.append((handle, latin1))
            paths.append(dic)
        }
        return handles.isEmpty ? nil : TitleDictionary(handles: handles, paths: paths)
        #else
        return nil
        #endif
    }

    /// The readable `.aff` and `.dic` files of `language`'s dictionaries in
    /// `folders`, by name, in the order they are tried; a name whose `.dic` is
    /// one already listed (`es_MX.dic`, a link to `es_ES.dic`) is left out,
    /// and so is a pair that is not two regular files (a FIFO would hold the
    /// run at Hunspell's first read).
    static func files(for language: String, in folders: [String] = searchFolders) -> [(name: String, aff: String, dic: String)] {
        var seen: Set<String> = []
        return (names[language] ?? []).flatMap { name in
            folders.map { (name: name, aff: $0 + "/" + name + ".aff", dic: $0 + "/" + name + ".dic") }
        }.filter {
            isReadableRegularFile($0.aff) && isReadableRegularFile($0.dic)
                && seen.insert(URL(fileURLWithPath: $0.dic).resolvingSymlinksInPath().path).inserted
        }
    }

    /// Whether `path` (links followed) is a regular file this process may read.
    static func isReadableRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && FileManager.default.isReadableFile(atPath: path)
    }

    /// Whether `word` is a word of one of the language's dictionaries (in
    /// any letter case it allows). A word with an apostrophe is also tried
    /// with the straight one (it_IT knows `l'arte`, not `l’arte`), then by its
    /// parts (pt_PT knows neither `d'água` nor `d’água`, but `água`): a part
    /// shorter than `minimumWordLength` (`d`, `l`, `s`) passes.
    public func contains<S: StringProtocol>(_ word: S) -> Bool {
        let text = String(word)
        if spells(text) { return true }
        guard text.contains(where: { $0 == "'" || $0 == "’" }) else { return false }
        if text.contains("’"), spells(text.replacingOccurrences(of: "’", with: "'")) { return true }
        let parts = text.split(whereSeparator: { $0 == "'" || $0 == "’" })
        return parts.count > 1 && parts.allSatisfy { $0.count < Self.minimumWordLength || spells(String($0)) }
    }

    /// Whether one of the dictionaries holds `text` as it is.
    private func spells(_ text: String) -> Bool {
        #if canImport(CLibHunspell)
        lock.lock()
        defer { lock.unlock() }
        return handles.contains { entry in
            guard entry.isLatin1 else { return ca_hunspell_spell(entry.handle, text) != 0 }
            guard var bytes = text.data(using: .isoLatin1).map(Array.init) else { return false }
            bytes.append(0)
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { ca_hunspell_spell(entry.handle, $0.baseAddress) != 0 }
            }
        }
        #else
        return false
        #endif
    }

    /// Why `title` is no title of `language`: the first word of
    /// `minimumWordLength` characters or more, with no digit, that is neither
    /// one of `captionWords` (lower case) nor in this dictionary; nil when there is none.
    public func flaw(_ title: String, language: String, captionWords: Set<String>) -> String? {
        for word in WordScanner().words(in: title)
        where word.count >= Self.minimumWordLength && !word.contains(where: \.isNumber) {
            if captionWords.contains(word.lowercased()) || contains(word) { continue }
            return "holds a word of neither the captions nor the \(language) dictionary (“\(word)”)"
        }
        return nil
    }

    /// The dictionaries opened so far, by language (nil: none found).
    private static let opened = Opened()

    private final class Opened: @unchecked Sendable {
        let lock = NSLock()
        var dictionaries: [String: TitleDictionary?] = [:]
    }
}
