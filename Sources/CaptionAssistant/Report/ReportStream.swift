import Assistant
import Foundation
import JSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `report.json` one file entry at a time, so that a report of any
/// size is never held whole in memory.
///
/// The text is read through a buffer; each value is found by scanning its
/// bytes (strings, escapes and nesting), and each file entry alone is then
/// parsed with `JSONValue.parse`. Only the shape `report.json` has is
/// accepted: an object whose `files` is an array of objects; its other keys
/// (`schemaVersion`, `totals`, anything newer) are read as whole values.
struct ReportStream {
    /// Why a report could not be read.
    struct Failure: Error, LocalizedError, Sendable {
        /// What was wrong, in a sentence.
        var message: String
        var errorDescription: String? { message }
    }

    /// The largest single value (one file's entry) accepted; a report entry is a few kilobytes.
    static let maximumValueSize = 64 << 20

    private let descriptor: Int32
    /// The file's name, for messages.
    private let name: String
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// Bytes read so far before `buffer`, for messages.
    private var consumed = 0

    /// A stream over the open file `descriptor` (not closed here), named
    /// `name` in messages. `chunkSize` is for tests.
    init(descriptor: Int32, name: String = "report.json", chunkSize: Int = 1 << 20) {
        self.descriptor = descriptor
        self.name = name
        // A small file is read in one chunk of its own size (a part of a few files, a test's report), not 1 MiB.
        var info = stat()
        let size = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : Int.max - 1
        self.chunkSize = max(1, min(chunkSize, max(4096, size + 1)))
    }

    /// Reads the whole report: calls `header` with the top-level keys read
    /// before `files` (such as `schemaVersion`), then `entry` with each
    /// element of `files`, in order, and returns the other top-level keys with
    /// their values.
    mutating func read(header: ([(String, JSONValue)]) throws -> Void = { _ in },
                       entry: (JSONValue) throws -> Void) throws -> [(String, JSONValue)] {
        var others: [(String, JSONValue)] = []
        var sawFiles = false
        try expect(UInt8(ascii: "{"), "it does not start with an object")
        try skipSpace()
        if try peek() == UInt8(ascii: "}") { position += 1; throw Failure(message: "\(name) has no \"files\" list") }
        while true {
            let keyBytes = try valueBytes()
            guard case .string(let key)? = JSONValue.parse(Array(keyBytes)) else { throw failure("a key that is not a string") }
            try expect(UInt8(ascii: ":"), "a key without a value")
            if key == ReportKeyName.files.rawValue {
                sawFiles = true
                try header(others)
                try expect(UInt8(ascii: "["), "\"files\" is not a list")
                try skipSpace()
                if try peek() == UInt8(ascii: "]") {
                    position += 1
                } else {
                    while true {
                        let bytes = try valueBytes()
                        guard let value = JSONValue.parse(Array(bytes)), case .object = value else {
                            throw failure("a file entry that is not a JSON object")
                        }
                        try entry(value)
                        try skipSpace()
                        let next = try take()
                        if next == UInt8(ascii: ",") { continue }
                        if next == UInt8(ascii: "]") { break }
                        throw failure("the \"files\" list is not closed")
                    }
                }
            } else {
                guard let value = JSONValue.parse(Array(try valueBytes())) else { throw failure("the value of \"\(key)\" cannot be read") }
                others.append((key, value))
            }
            try skipSpace()
            let next = try take()
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { break }
            throw failure("the report object is not closed")
        }
        try skipSpace()
        guard position == buffer.count, atEnd else { throw failure("text after the report object") }
        guard sawFiles else { throw Failure(message: "\(name) has no \"files\" list") }
        return others
    }

    private func failure(_ what: String) -> Failure {
        Failure(message: "\(name) cannot be read: \(what) (near byte \(consumed + position))")
    }

    /// Makes sure at least one unread byte is buffered; false at the end of the file.
    private mutating func fill() throws -> Bool {
        if position < buffer.count { return true }
        if atEnd { return false }
        if position > 0 {
            consumed += position
            buffer.removeFirst(position)
            position = 0
        }
        return try readMore()
    }

    /// Appends one chunk to `buffer`; false at the end of the file.
    private mutating func readMore() throws -> Bool {
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        var n = 0
        var problem: Int32 = 0
        repeat {
            n = buffer.withUnsafeMutableBytes { raw in Foundation.read(descriptor, raw.baseAddress! + old, chunkSize) }
            problem = n < 0 ? errno : 0
        } while n < 0 && problem == EINTR
        if n < 0 {
            buffer.removeLast(chunkSize)
            throw Failure(message: "\(name) cannot be read: \(String(cString: strerror(problem)))")
        }
        buffer.removeLast(chunkSize - n)
        if n == 0 { atEnd = true }
        return n > 0
    }

    private mutating func skipSpace() throws {
        while try fill() {
            switch buffer[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func peek() throws -> UInt8 {
        guard try fill() else { throw failure("the text ends too early") }
        return buffer[position]
    }

    private mutating func take() throws -> UInt8 {
        let b = try peek()
        position += 1
        return b
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        try skipSpace()
        guard try take() == byte else { throw failure(what) }
    }

    /// The bytes of the next complete JSON value (after any space), consumed.
    /// The value is only delimited here, not checked: `JSONValue.parse` checks it.
    private mutating func valueBytes() throws -> ArraySlice<UInt8> {
        try skipSpace()
        guard try fill() else { throw failure("the text ends too early") }
        var start = position
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        while true {
            if index == buffer.count {
                // Keep only the value's bytes before reading more (once per chunk, not per value).
                if start > 0 {
                    consumed += start
                    buffer.removeFirst(start)
                    index -= start
                    start = 0
                }
                guard index < Self.maximumValueSize else { throw failure("a value larger than \(Self.maximumValueSize >> 20) MiB") }
                guard try readMore() else {
                    // A number or literal may end the text; anything open may not.
                    if depth == 0 && !inString && index > start { break }
                    throw failure("the text ends too early")
                }
            }
            let b = buffer[index]
            if inString {
                if escaped { escaped = false }
                else if b == 0x5C { escaped = true }
                else if b == 0x22 {
                    inString = false
                    if depth == 0 { index += 1; break }
                }
                index += 1
                continue
            }
            switch b {
            case 0x22:
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 {
                    // The end of a number or literal (an empty value is left to the parser to refuse).
                    if index > start { position = index; return buffer[start..<index] }
                } else {
                    depth -= 1
                    if depth == 0 { index += 1; position = index; return buffer[start..<index] }
                }
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 && index > start { position = index; return buffer[start..<index] }
            default:
                break
            }
            index += 1
        }
        position = index
        return buffer[start..<index]
    }
}
