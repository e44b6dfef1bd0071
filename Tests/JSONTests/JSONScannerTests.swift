import Testing
@testable import JSON

@Suite struct JSONScannerTests {
    /// Where the value at the start of `text` ends, fed whole or in pieces of `piece` bytes;
    /// nil when it does not end within the text.
    static func end(of text: String, piece: Int = Int.max) -> (length: Int?, mayEndHere: Bool) {
        let bytes = Array(text.utf8)
        var scanner = JSONScanner()
        var from = 0
        while from < bytes.count {
            let to = min(bytes.count, from + min(piece, bytes.count))
            let found = bytes.withUnsafeBufferPointer { scanner.scan(UnsafeBufferPointer(rebasing: $0[from..<to])) }
            if let found { return (from + found, true) }
            from = to
        }
        return (nil, scanner.mayEndHere)
    }

    @Test(arguments: [1, 2, 5, Int.max])
    func findsWhereEachKindOfValueEnds(piece: Int) {
        let cases: [(String, Int?)] = [
            (#"{"a": "}", "b": [1, {"c": "\"{"}]} tail"#, 34),
            (#""x\\" , 1"#, 5),
            (#""say \"}\"" rest"#, 11),
            ("[1, [2], {}], 3", 12),
            ("-12.5e3, 4", 7),
            ("true}", 4),
            ("null\n", 4),
        ]
        for (text, expected) in cases {
            #expect(Self.end(of: text, piece: piece).length == expected, "\(text)")
        }
    }

    @Test func aValueThatRunsToTheEndOfTheTextMayEndThereOnlyWhenNothingIsOpen() {
        #expect(Self.end(of: "12").length == nil && Self.end(of: "12").mayEndHere)
        #expect(Self.end(of: "false").mayEndHere)
        #expect(!Self.end(of: #"{"a": 1"#).mayEndHere)
        #expect(!Self.end(of: #""open"#).mayEndHere)
        #expect(!Self.end(of: "").mayEndHere)
    }

    @Test func whatItFindsIsWhatTheParserReads() {
        let value = JSONValue.object([("k", .string("}]\"\\{[")), ("l", .array([.object([]), .array([]), .null, .number(1.5)]))])
        let text = value.oneLine(spaced: true) + ", 7"
        let length = Self.end(of: text, piece: 3).length
        #expect(length == value.oneLine(spaced: true).utf8.count)
        #expect(JSONValue.parse(Array(text.utf8).prefix(length ?? 0)) == value)
    }
}
