import Testing
@testable import JSON

@Suite struct JSONStreamWriterTests {
    /// The pieces make the bytes `renderedBytes()` prints for the whole object.
    @Test(arguments: [0, 1, 3])
    func thePiecesAreTheObjectRendered(elements: Int) {
        let list: [JSONValue] = (0..<elements).map { .object([("n", .int($0)), ("s", .strings(["a\u{2028}", "\"b\""])), ("o", .object([]))]) }
        for before in [[], [("schemaVersion", JSONValue.int(1)), ("shard", .object([("i", .int(0)), ("l", .array([.int(1)]))]))]] {
            let after: [(String, JSONValue)] = [("totals", .object([("files", .int(elements))])), ("end", .string("x"))]
            var bytes = JSONStreamWriter.opening(before, list: "files")
            for (i, element) in list.enumerated() {
                bytes += JSONStreamWriter.separator(first: i == 0)
                JSONStreamWriter.append(element: element, to: &bytes)
            }
            bytes += JSONStreamWriter.closing(after, empty: list.isEmpty)
            #expect(bytes == JSONValue.object(before + [("files", .array(list))] + after).renderedBytes())
        }
    }

    /// An element made from the value's own printing (a sidecar's bytes) is the element printed again.
    @Test func anElementFromItsRenderingIsTheElementRendered() {
        let values: [JSONValue] = [
            .object([]), .array([]), .string("line\nbreak \u{2028} \"q\""), .int(3),
            .object([("a", .array([.int(1), .string("x\n")])), ("b", .object([("c", .array([.object([("d", .null)])]))])),
                     ("e", .object([])), ("f", .strings(["\r\n", "\t"]))]),
            .array([.object([("k", .bool(true))]), .array([.array([])])]),
        ]
        for value in values {
            #expect(JSONStreamWriter.element(rendered: value.renderedBytes()) == JSONStreamWriter.element(value))
        }
    }
}
