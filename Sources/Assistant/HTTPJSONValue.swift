import Foundation

/// A JSON value whose object keys keep the order they were written in.
///
/// The order matters for the answer's schema: llama.cpp and llama-cpp-python turn
/// a schema into a grammar that generates properties in the schema's order, and a
/// small model writes better JSON when that order (keywords, titles, emoji) matches
/// the instructions. `JSONSerialization` alone cannot keep an order, so strings
/// are escaped by `JSONSerialization` and the structure is written here.
enum HTTPJSONValue: Sendable, Equatable {
    /// An object, keys in order.
    case object([(String, HTTPJSONValue)])
    /// An array.
    case array([HTTPJSONValue])
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int)
    /// A Boolean.
    case boolean(Bool)

    static func == (lhs: HTTPJSONValue, rhs: HTTPJSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.boolean(let a), .boolean(let b)): a == b
        default: false
        }
    }

    /// The compact JSON text.
    /// - Throws: when `JSONSerialization` cannot escape a string (it always can for valid Swift strings).
    func encoded() throws -> Data {
        var output = Data()
        try write(to: &output)
        return output
    }

    private func write(to output: inout Data) throws {
        switch self {
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try Self.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                try value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .string(let text):
            try Self.writeString(text, to: &output)
        case .integer(let number):
            output.append(contentsOf: Array(String(number).utf8))
        case .boolean(let flag):
            output.append(contentsOf: Array((flag ? "true" : "false").utf8))
        }
    }

    private static func writeString(_ text: String, to output: inout Data) throws {
        output.append(try JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed, .withoutEscapingSlashes]))
    }
}
