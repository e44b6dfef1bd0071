/// A file-name extension of caption files: the format it names, whether a
/// folder search takes files with it, and whether it names a format to
/// convert to.
///
/// `CaptionFileExtension.all` is the one list of extensions: reading (the
/// format hint), the folder search, the outputs an earlier run may have left
/// under another extension, and the command line's `--to` spellings and help
/// are all made from it.
public struct CaptionFileExtension: Sendable, Hashable {
    /// How a folder search treats files with this extension.
    public enum FolderSearch: Sendable, Hashable {
        /// Every such file is taken as a caption file.
        case always
        /// Only a file whose content is TTML is taken (`.xml` is used for much else).
        case whenContentIsTTML
    }

    /// The extension, in lower case, without the dot.
    public let name: String
    /// The format it names.
    public let format: CaptionFormat
    /// How a folder search treats it.
    public let folderSearch: FolderSearch
    /// Whether it names `format` as a format to convert to (`webvtt` does;
    /// `xml` does not, and neither does `imsc`, a profile the TTML writer does
    /// not promise to keep to).
    public let namesConversionTarget: Bool

    init(_ name: String, _ format: CaptionFormat, folderSearch: FolderSearch = .always, namesConversionTarget: Bool) {
        self.name = name; self.format = format; self.folderSearch = folderSearch; self.namesConversionTarget = namesConversionTarget
    }

    /// Every extension, each format's own first.
    public static let all: [CaptionFileExtension] = [
        CaptionFileExtension("srt", .srt, namesConversionTarget: true),
        CaptionFileExtension("vtt", .vtt, namesConversionTarget: true),
        CaptionFileExtension("webvtt", .vtt, namesConversionTarget: true),
        CaptionFileExtension("ttml", .ttml, namesConversionTarget: true),
        CaptionFileExtension("dfxp", .ttml, namesConversionTarget: true),
        CaptionFileExtension("imsc", .ttml, namesConversionTarget: false),
        CaptionFileExtension("xml", .ttml, folderSearch: .whenContentIsTTML, namesConversionTarget: false),
    ]

    private static let byName: [String: CaptionFileExtension] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The entry for `ext` (any case, without the dot), if it is one of `all`.
    public static func named(_ ext: String) -> CaptionFileExtension? {
        byName[ext] ?? byName[ext.lowercased()]
    }

}
