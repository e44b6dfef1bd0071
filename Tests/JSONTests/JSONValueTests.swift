import Foundation
import Testing
@testable import JSON

@Suite struct JSONValueTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let value = JSONValue.string("a\"b\\c\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}\u{2028}\u{2029}")
        #expect(value.rendered() == #""a\"b\\c\n\r\t\b\f\u0001\u001F\u007F\u2028\u2029""# + "\n")
        // Every layout uses the one escaper.
        #expect(value.oneLine(spaced: false) == #""a\"b\\c\n\r\t\b\f\u0001\u001F\u007F\u2028\u2029""#)
    }

    /// Integers print as `String(_:)` prints them, the extremes included.
    @Test func printsIntegersAsStringDoes() {
        for n in [0, 1, -1, 9, 10, -10, 99, 100, 1_234_567_890, Int.max, Int.min, Int.max - 1, Int.min + 1] {
            #expect(JSONValue.int(n).rendered() == String(n) + "\n")
        }
    }

    /// Bytes that need no escape around every kind that does, and the E2 lead byte of other characters.
    @Test func escapesOnlyWhatNeedsIt() {
        let text = "\u{2026}x\u{2028}\u{20AC}\"é\u{7E}\u{7F}\u{20}\u{21}\u{5B}\u{5D}\u{2029}"
        #expect(JSONValue.string(text).oneLine(spaced: false) == #""…x\u2028€\"é~\u007F ![]\u2029""#)
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

    @Test func oneLineLayoutsAreCompactOrSpaced() {
        let value = JSONValue.object([("a", .array([.int(1), .bool(false), .null])), ("b", .object([("c", .string("/"))])), ("e", .array([]))])
        #expect(value.oneLine(spaced: false) == #"{"a":[1,false,null],"b":{"c":"/"},"e":[]}"#)
        #expect(value.oneLine(spaced: true) == #"{"a": [1, false, null], "b": {"c": "/"}, "e": []}"#)
    }

    /// Foundation's reader gives back every string the escaper writes, and so does `parse`.
    @Test func escapedStringsReadBackByFoundationAndByParse() throws {
        var texts = ["plain", "", "🎬", "a\"b", "back\\slash", "tab\tline\nret\r", "\u{1}\u{1F}\u{7F}", "déjà vu…", "{\"x\": 1}",
                     "line\u{2028}para\u{2029}end", "e\u{301}"]
        texts.append(String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self))
        for text in texts {
            let json = JSONValue.array([.string(text)]).oneLine(spaced: false)
            let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
            #expect(decoded == [text], "\(json)")
            #expect(JSONValue.parse(Array(json.utf8)) == .array([.string(text)]))
            #expect(!json.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" })
        }
    }

    /// `parse` reads what Foundation's reader reads.
    @Test(arguments: [
        #"{"keywords": ["a", "b"], "titles": ["x", "y", "z"], "emoji": "🎬"}"#, "{}", #"{ "a" : [ ] }"#, "{\n\t\"a\"\r\n:\"b\" }",
        #"{"a": "q\"uote\\back\/slash\b\f\n\r\t"}"#, #"{"a": ["déjà", "vu…", ""]}"#, #"{"a": "\u0041\u00e9\ud83c\udfac"}"#,
        #"{"a": ["x", 1, -2, 0.5, 1e2, true, false, null]}"#, #"{"a": {"b": {"c": []}}}"#, #"{"z":"b","c":["d","e"],"f":"g"}"#,
        #"{"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 12}}"#,
    ])
    func readsWhatFoundationReads(_ input: String) throws {
        let foundation = try JSONSerialization.jsonObject(with: Data(input.utf8))
        let value = try #require(JSONValue.parse(Array(input.utf8)))
        #expect(Self.same(value, foundation), "\(input)")
    }

    /// `value` is what Foundation's reader gave as `any`.
    static func same(_ value: JSONValue, _ any: Any) -> Bool {
        switch value {
        case .null: return any is NSNull
        case .bool(let b): return (any as? NSNumber)?.boolValue == b
        case .int(let i): return (any as? NSNumber)?.doubleValue == Double(i)
        case .number(let d): return (any as? NSNumber)?.doubleValue == d
        case .string(let s): return any as? String == s
        case .array(let items):
            guard let list = any as? [Any], list.count == items.count else { return false }
            return zip(items, list).allSatisfy { same($0, $1) }
        case .object(let pairs):
            guard let dictionary = any as? [String: Any], dictionary.count == pairs.count else { return false }
            return pairs.allSatisfy { key, item in dictionary[key].map { same(item, $0) } ?? false }
        }
    }

    @Test func optionalHelpersWriteNull() {
        #expect(JSONValue.string(nil as String?) == .null)
        #expect(JSONValue.int(nil as Int?) == .null)
        #expect(JSONValue.object([("a", .int(1))])["a"] == .int(1))
    }
}
