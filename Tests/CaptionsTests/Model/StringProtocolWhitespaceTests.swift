import Foundation
import Testing
@testable import Captions

/// `trimmingWhitespace()` is Foundation's `trimmingCharacters(in: .whitespaces)`
/// without Foundation (Captions needs only FoundationEssentials, which has no
/// `CharacterSet`): the same result for every assigned scalar of the first three
/// planes at the ends and inside.
@Suite struct StringProtocolWhitespaceTests {
    @Test func itTrimsWhatFoundationsWhitespacesTrim() {
        let scalars = (0..<0x30000).compactMap(Unicode.Scalar.init).filter { $0.properties.generalCategory != .unassigned }
        for scalar in scalars {
            let s = String(scalar)
            for text in ["\(s)\(s)a \(s) b\(s)", "\(s)", "a\(s)"] {
                let foundation = text.trimmingCharacters(in: .whitespaces)
                #expect(text.trimmingWhitespace() == foundation, "U+\(String(scalar.value, radix: 16))")
                #expect(text.dropFirst(0).trimmingWhitespace() == foundation)
            }
        }
        #expect(" \t\u{3000}x y\u{A0}\u{200B} ".trimmingWhitespace() == "x y" && "\n x \n".trimmingWhitespace() == "\n x \n")
        #expect("   ".trimmingWhitespace() == "" && "".trimmingWhitespace() == "")
    }
}
