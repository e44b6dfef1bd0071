import Foundation
@testable import Captions

/// Helpers shared by the TTML test suites.
enum TTMLTestSupport {
    static func read(_ text: String) throws -> CaptionDocument {
        try CaptionDocument.read(Data(text.utf8), hint: .ttml)
    }

    static func time(_ numerator: Int64, _ denominator: Int64 = 1) -> CaptionTime {
        CaptionTime(numerator: numerator, denominator: denominator)!
    }

    /// A document with the usual namespaces, `ttp:` parameters on the root and `body` content.
    static func document(parameters: String = "", body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" \
        xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="en" \(parameters)>
          <body>
        \(body)
          </body>
        </tt>
        """
    }

    static var fixtures: URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    }
}
