/// Finds where one JSON value ends without parsing it (`JSONValue.parse`
/// checks it): the one scan of JSON text, which `JSONStream` cuts a file
/// into values with and the answer finder finds an object in free text with.
///
/// The bytes may come in pieces (a file read a chunk at a time): the scanner
/// keeps its place between calls. It works on bytes: braces, brackets, quotes
/// and backslashes never occur inside a multi-byte UTF-8 sequence.
public struct JSONScanner: Sendable {
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Bytes of the value scanned so far.
    public private(set) var scanned = 0

    /// A scanner at the first byte of a value (after any space before it).
    public init() {}

    /// Scans the value's next bytes (its first bytes, or those after the
    /// ones scanned before).
    ///
    /// - Returns: how many of `bytes` belong to the value when it ends within
    ///   them (an object, list or string with its closing byte; a number or
    ///   literal up to the comma, space or bracket after it); nil when it goes
    ///   on past them.
    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            let b = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if b == 0x5C {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                    if depth == 0 { return ended(index + 1) }
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
                    if scanned + index > 0 { return ended(index) }
                } else {
                    depth -= 1
                    if depth == 0 { return ended(index + 1) }
                }
            case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 && scanned + index > 0 { return ended(index) }
            default:
                break
            }
            index += 1
        }
        scanned += bytes.count
        return nil
    }

    /// Whether the text may end after the bytes scanned: a number or literal
    /// may end the text; a value left open may not.
    public var mayEndHere: Bool { depth == 0 && !inString && scanned > 0 }

    private mutating func ended(_ count: Int) -> Int {
        scanned += count
        return count
    }
}
