import Testing
@testable import Captions

/// `CaptionFileExtension.all` is the one list of extensions: what reading
/// makes of each is what the table says.
@Suite struct CaptionFileExtensionTests {
    @Test(arguments: CaptionFileExtension.all)
    func anExtensionNamesItsFormatInAnyCase(_ entry: CaptionFileExtension) {
        #expect(entry.name == entry.name.lowercased())
        #expect(CaptionFormat(fileExtension: entry.name) == entry.format)
        #expect(CaptionFormat(fileExtension: entry.name.uppercased()) == entry.format)
        #expect(CaptionFileExtension.named(entry.name) == entry)
    }

    @Test func namesAreUniqueAndEachFormatHasItsOwnFirst() {
        #expect(Set(CaptionFileExtension.all.map(\.name)).count == CaptionFileExtension.all.count)
        for format in CaptionFormat.allCases {
            let first = CaptionFileExtension.all.first { $0.format == format }
            #expect(first?.name == format.rawValue && format.fileExtension == format.rawValue)
            // A format's own extension names it as a conversion target and is found in folders.
            #expect(first?.namesConversionTarget == true && first?.folderSearch == .always)
        }
    }

    @Test func otherExtensionsNameNoFormat() {
        for ext in ["txt", "sub", "ass", "", "srtx", "json"] { #expect(CaptionFormat(fileExtension: ext) == nil) }
    }
}
