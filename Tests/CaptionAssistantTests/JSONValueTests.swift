import Testing
@testable import CaptionAssistant

@Suite struct JSONValueTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let value = JSONValue.string("a\"b\\c\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}\u{2028}")
        #expect(value.rendered() == #""a\"b\\c\n\r\t\b\f\u0001\u001F\u007F\u2028""# + "\n")
    }

    @Test func keepsNonASCIIAsUTF8() {
        #expect(JSONValue.string("café 🎬 日本").rendered() == "\"café 🎬 日本\"\n")
    }

    @Test func keepsKeyOrderAndIndentsByTwo() {
        let value = JSONValue.object([
            ("z", .int(1)), ("a", .array([.string("x"), .null])), ("m", .object([("k", .bool(true))])),
            ("e", .array([])), ("o", .object([])), ("n", .array([.object([("x", .int(-2))])])),
        ])
        let expected = """
        {
          "z": 1,
          "a": ["x", null],
          "m": {
            "k": true
          },
          "e": [],
          "o": {},
          "n": [
            {
              "x": -2
            }
          ]
        }

        """
        #expect(value.rendered() == expected)
    }

    @Test func optionalHelpersWriteNull() {
        #expect(JSONValue.string(nil as String?) == .null)
        #expect(JSONValue.int(nil as Int?) == .null)
        #expect(JSONValue.object([("a", .int(1))])["a"] == .int(1))
    }
}
