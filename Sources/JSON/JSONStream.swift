#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a JSON object from a file one value at a time, so that a file of
/// any size is never held whole in memory: the keys of the object are read
/// as whole values, and the elements of one list among them are handed over
/// one by one as they are read.
///
/// The text is read through a buffer; each value is cut out by `JSONScanner`
/// and then parsed alone with `JSONValue.parse`. `report.json` and the report
/// parts are read this way (`files` is the list streamed).
public struct JSONStream {
    /// Why a file could not be read.
    public struct Failure: Error, LocalizedError, Sendable {
        /// What was wrong, in a sentence.
        public var message: String
        /// Creates a failure that says `message`.
        public init(message: String) { self.message = message }
        /// The message.
        public var errorDescription: String? { message }
    }

    /// The largest single value (one element of the list) accepted; a report entry is a few kilobytes.
    public static let maximumValueSize = 64 << 20

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
    public init(descriptor: Int32, name: String, chunkSize: Int = 1 << 20) {
        self.descriptor = descriptor
        self.name = name
        // A small file is read in one chunk of its own size (a part of a few files, a test's report), not 1 MiB.
        var info = stat()
        let size = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : Int.max - 1
        self.chunkSize = max(1, min(chunkSize, max(4096, size + 1)))
    }

    /// Reads the whole file: one object whose key `list` holds a list of
    /// objects. Calls `header` with the keys read before `list`, then
    /// `element` with each element of `list`, in order, and returns every key
    /// of the object in order with its value, `list` with an empty list in
    /// its place (its elements went to `element`).
    public mutating func read(list: String, header: ([(String, JSONValue)]) throws -> Void = { _ in },
                              element: (JSONValue) throws -> Void) throws -> [(String, JSONValue)] {
        var pairs: [(String, JSONValue)] = []
        var sawList = false
        try expect(UInt8(ascii: "{"), "it does not start with an object")
        try skipSpace()
        if try peek() == UInt8(ascii: "}") { position += 1; throw Failure(message: "\(name) has no \"\(list)\" list") }
        while true {
            let keyBytes = try valueBytes()
            guard case .string(let key)? = JSONValue.parse(keyBytes) else { throw failure("a key that is not a string") }
            try expect(UInt8(ascii: ":"), "a key without a value")
            if key == list {
                sawList = true
                try header(pairs)
                pairs.append((key, .array([])))
                try expect(UInt8(ascii: "["), "\"\(list)\" is not a list")
                try skipSpace()
                if try peek() == UInt8(ascii: "]") {
                    position += 1
                } else {
                    while true {
                        guard let value = JSONValue.parse(try valueBytes()), case .object = value else {
                            throw failure("an element of \"\(list)\" that is not a JSON object")
                        }
                        try element(value)
                        try skipSpace()
                        let next = try take()
                        if next == UInt8(ascii: ",") { continue }
                        if next == UInt8(ascii: "]") { break }
                        throw failure("the \"\(list)\" list is not closed")
                    }
                }
            } else {
                guard let value = JSONValue.parse(try valueBytes()) else { throw failure("the value of \"\(key)\" cannot be read") }
                pairs.append((key, value))
            }
            try skipSpace()
            let next = try take()
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { break }
            throw failure("the object is not closed")
        }
        try skipSpace()
        guard position == buffer.count, atEnd else { throw failure("text after the object") }
        guard sawList else { throw Failure(message: "\(name) has no \"\(list)\" list") }
        return pairs
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
            n = buffer.withUnsafeMutableBytes { raw in readFile(descriptor, raw.baseAddress! + old, chunkSize) }
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
    /// The value is only delimited here (`JSONScanner`), not checked: `JSONValue.parse` checks it.
    private mutating func valueBytes() throws -> ArraySlice<UInt8> {
        try skipSpace()
        guard try fill() else { throw failure("the text ends too early") }
        var scanner = JSONScanner()
        var start = position
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
                    if scanner.mayEndHere { break }
                    throw failure("the text ends too early")
                }
            }
            let from = index
            if let length = buffer.withUnsafeBufferPointer({ scanner.scan(UnsafeBufferPointer(rebasing: $0[from...])) }) {
                index += length
                break
            }
            index = buffer.count
        }
        position = index
        return buffer[start..<index]
    }
}

/// The system's `read(2)`, by a name no method of this module hides.
private func readFile(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
