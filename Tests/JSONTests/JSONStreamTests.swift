import Foundation
import Testing
@testable import JSON

@Suite struct JSONStreamTests {
    /// Writes `text` to a scratch file and reads it with a stream of chunks of `chunk` bytes.
    static func read(_ text: String, chunk: Int = 1 << 20, header: ([(String, JSONValue)]) throws -> Void = { _ in },
                     element: (JSONValue) throws -> Void = { _ in }) throws -> [(String, JSONValue)] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("json-stream-" + UUID().uuidString)
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fd = open(file.path, O_RDONLY)
        defer { close(fd) }
        var stream = JSONStream(descriptor: fd, name: "r.json", chunkSize: chunk)
        return try stream.read(list: "files", header: header, element: element)
    }

    @Test(arguments: [1, 7, 4096])
    func readsEveryElementWhateverTheChunkSize(chunk: Int) throws {
        let entries: [JSONValue] = (0..<5).map { .object([("input", .string("f\($0) \"q\" {[,]}")), ("n", .int($0))]) }
        let text = JSONValue.object([("schemaVersion", .int(1)), ("files", .array(entries)),
                                     ("totals", .object([("files", .int(5)), ("list", .array([.int(1), .int(-2)]))]))]).rendered()
        var seen: [JSONValue] = []
        var header: [String] = []
        let pairs = try Self.read(text, chunk: chunk, header: { header = $0.map(\.0) }, element: { seen.append($0) })
        #expect(seen == entries)
        #expect(header == ["schemaVersion"])
        // Every key in order, the list's elements handed over (an empty list in its place).
        #expect(pairs.map(\.0) == ["schemaVersion", "files", "totals"])
        #expect(pairs[1].1 == .array([]))
        #expect(pairs[2].1 == .object([("files", .int(5)), ("list", .array([.int(1), .int(-2)]))]))
    }

    @Test func aNumberMayEndTheTextButNothingOpenMay() throws {
        // A value at the very end of a chunk and of the file.
        #expect(throws: JSONStream.Failure.self) { try Self.read(#"{"files": [], "n": 12"#, chunk: 1) }
        #expect(try Self.read(#"{"files": [], "n": 12}"#, chunk: 1).map(\.0) == ["files", "n"])
        #expect(throws: JSONStream.Failure.self) { try Self.read(#"{"files": [{"a": "b"#) }
    }

    @Test func whatIsNotAnObjectWithTheListIsNamed() {
        func message(_ text: String) -> String {
            do { _ = try Self.read(text); return "read" } catch { return (error as? JSONStream.Failure)?.message ?? "\(error)" }
        }
        #expect(message(#"{"files": [{"a": 1}, 7]}"#).contains(#"an element of "files" that is not a JSON object"#))
        #expect(message(#"{"n": 1}"#) == #"r.json has no "files" list"#)
        #expect(message(#"{}"#) == #"r.json has no "files" list"#)
        #expect(message(#"{"files": []} x"#).contains("text after the object"))
        #expect(message(#"{"files": [] "n": 1}"#).contains("the object is not closed"))
        #expect(message(#"{"files": {}}"#).contains(#""files" is not a list"#))
        #expect(message(#"{"files": [{}} "#).contains(#"the "files" list is not closed"#))
        #expect(message(#"{7: 1, "files": []}"#).contains("a key that is not a string"))
        #expect(message(#"{"n": tru, "files": []}"#).contains(#"the value of "n" cannot be read"#))
        #expect(message("[]").contains("it does not start with an object"))
    }
}
