import Foundation
import Testing
@testable import JSON

@Suite struct JSONValueParsingTests {
    @Test func readsBackWhatItPrints() {
        let value: JSONValue = .object([
            ("z", .int(-12)), ("a", .array([.string("x\"y\\\n\t\u{1}é🎬\u{2028}"), .null, .bool(true), .bool(false)])),
            ("empty", .object([])), ("none", .array([])), ("nested", .object([("k", .array([.object([("q", .int(0))])]))])),
        ])
        #expect(JSONValue.parse(Array(value.rendered().utf8)) == value)
    }

    @Test func keepsTheKeyOrder() throws {
        let value = try #require(JSONValue.parse(Array(#"{"b": 1, "a": 2}"#.utf8)))
        guard case .object(let pairs) = value else { Issue.record("not an object"); return }
        #expect(pairs.map(\.0) == ["b", "a"])
    }

    @Test func decodesEscapesAndSurrogatePairs() {
        #expect(JSONValue.parse(Array(#""\u00e9\ud83c\udfac\/""#.utf8)) == .string("é🎬/"))
    }

    @Test(arguments: [
        "", "{", "[1,", #"{"a" 1}"#, #"{"a": 1,}"#, "[1 2]", "01", "-", #""abc"#, #""\x""#,
        #""\ud800""#, #""\udc00""#, "tru", "nul", "{} {}", "\"a\u{1}b\"", "1.", ".5", "1e", "1e+", "-01", "+1", "0x10", "NaN",
    ])
    func refusesWhatIsNotOneCompleteValue(_ text: String) {
        #expect(JSONValue.parse(Array(text.utf8)) == nil, "\(text)")
    }

    /// Servers send fractions (timings) and the answer may hold any number: they read as `.number`, integers as `.int`.
    @Test func readsFractionsExponentsAndLargeNumbers() {
        #expect(JSONValue.parse(Array("1.5".utf8)) == .number(1.5))
        #expect(JSONValue.parse(Array("-2.5e-3".utf8)) == .number(-0.0025))
        #expect(JSONValue.parse(Array("1E3".utf8)) == .number(1000))
        #expect(JSONValue.parse(Array("99999999999999999999999".utf8)) == .number(1e23))
        #expect(JSONValue.parse(Array("-0".utf8)) == .int(0))
        #expect(JSONValue.parse(Array(#"{"t": [0.25, 7]}"#.utf8)) == .object([("t", .array([.number(0.25), .int(7)]))]))
        #expect(JSONValue.array([.number(0.25), .number(1e23)]).oneLine(spaced: false) == "[0.25,1e+23]")
    }

    @Test func refusesInvalidUTF8AndDeepNesting() {
        #expect(JSONValue.parse([0x22, 0xFF, 0x22]) == nil)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONValue.parse(Array(deep.utf8)) == nil)
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(JSONValue.parse(Array(fine.utf8)) != nil)
    }

    /// Every prefix of a report (what a killed writer could have left, were
    /// writes not atomic) is refused.
    @Test func everyTruncatedReportIsRefused() {
        let text = Array(JSONValue.object([("a", .array([.int(1), .string("two")])), ("b", .object([("c", .null)]))]).rendered().utf8)
        let trimmed = text.count - 1  // without the final newline the value is still complete
        for cut in 0..<trimmed {
            #expect(JSONValue.parse(Array(text[..<cut])) == nil, "prefix of \(cut) bytes")
        }
        #expect(JSONValue.parse(Array(text[..<trimmed])) != nil)
    }
}
