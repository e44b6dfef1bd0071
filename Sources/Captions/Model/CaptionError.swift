#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A caption file that cannot be read (or written) at all.
///
/// Readers never return an empty document to mean failure; they throw this,
/// with the line (and, for XML, the column) where the problem is.
public struct CaptionError: Error, LocalizedError, Sendable, Equatable {
    /// What kind of failure this is, for code that must tell them apart.
    public enum Code: String, Sendable, Equatable {
        case emptyFile
        case binaryFile
        case unrecognizedFormat
        case badSignature
        case noCues
        case malformedTiming
        case malformedXML
        case forbiddenDocumentType
        case notTTML
        case unencodableCharacter
        case tooLarge
        case unsupported
    }

    /// The kind of failure.
    public var code: Code
    /// The 1-based line of the problem, when known.
    public var line: Int?
    /// The 1-based column of the problem, when known.
    public var column: Int?
    /// A sentence a person can act on.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, line: Int? = nil, column: Int? = nil, message: String) {
        self.code = code; self.line = line; self.column = column; self.message = message
    }

    public var errorDescription: String? {
        switch (line, column) {
        case let (l?, c?): return "line \(l), column \(c): \(message)"
        case let (l?, nil): return "line \(l): \(message)"
        default: return message
        }
    }
}
