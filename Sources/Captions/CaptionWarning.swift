/// A problem a reader repaired or ignored, with the line it was found on.
public struct CaptionWarning: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number in the input, when the problem has one.
    public var line: Int?
    /// What was found and what the reader did about it.
    public var message: String

    /// Creates a warning.
    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}
