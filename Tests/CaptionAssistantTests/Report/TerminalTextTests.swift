import Testing
@testable import CaptionAssistant

/// `TerminalText.escaped`: the one rule for names and server texts printed on a terminal or log.
@Suite struct TerminalTextTests {
    @Test func plainTextIsKeptAsItIs() {
        for text in ["a.srt", "épisode 1 — 🚀 rocket.srt", "日本語.vtt", "👩‍🚀 family 👨‍👩‍👧", ""] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test(arguments: [
        ("a\nb", "a\\x0Ab"), ("a\tb", "a\\x09b"), ("a\rb", "a\\x0Db"), ("\u{1B}[2J", "\\x1B[2J"),
        ("\u{7F}", "\\x7F"), ("a\u{85}b", "a\\x85b"), ("\u{9B}31m", "\\x9B31m"), ("\u{0}", "\\x00"),
    ])
    func everyControlCharacterIsEscapedIncludingLineFeedAndTab(_ text: String, _ shown: String) {
        #expect(TerminalText.escaped(text) == shown)
    }

    @Test(arguments: [
        ("\u{202E}txt.exe", "\\u{202E}txt.exe"), ("a\u{2028}b", "a\\u{2028}b"), ("a\u{2029}b", "a\\u{2029}b"),
        ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"), ("\u{200F}", "\\u{200F}"), ("\u{61C}", "\\u{061C}"),
    ])
    func lineSeparatorsAndBidirectionalControlsAreEscaped(_ text: String, _ shown: String) {
        #expect(TerminalText.escaped(text) == shown)
    }

    /// Whatever the input, the result is one line with no control character left in it.
    @Test func theResultIsAlwaysOneLineOfPrintableText() {
        var scalars: [Unicode.Scalar] = []
        for v in UInt32(0)...0x3000 { if let u = Unicode.Scalar(v) { scalars.append(u) } }
        let shown = TerminalText.escaped(String(String.UnicodeScalarView(scalars)))
        #expect(!shown.unicodeScalars.contains { TerminalText.isEscaped($0) })
        #expect(!shown.contains("\n"))
    }
}
