import Foundation

/// One prompt for the model: our instructions, then the transcript as delimited data.
///
/// The transcript is untrusted text from a caption file. It sits between
/// `transcriptStart` and `transcriptEnd` lines, and the instructions tell the
/// model to treat it as data and never follow instructions found inside it.
public struct Prompt: Sendable, Hashable {
    /// The line that opens the transcript block.
    public static let transcriptStart = "<<<TRANSCRIPT"
    /// The line that closes the transcript block.
    public static let transcriptEnd = "TRANSCRIPT>>>"
    /// The line between the instructions and the request in `text`.
    public static let separator = "\n\n=== REQUEST ===\n\n"

    /// The system part: what to do and how to answer (an HTTP backend sends it as the system message).
    public let instructions: String
    /// The request part: the delimited transcript and the reminder of the answer format.
    public let request: String
    /// The transcript as sent (cut to the cap, delimiter look-alikes defused).
    public let sentTranscript: String
    /// The full transcript's length in `Character`s.
    public let characters: Int
    /// How many `Character`s of the transcript were sent.
    public let sentCharacters: Int
    /// Whether the transcript was cut to fit the cap.
    public let truncated: Bool

    /// Creates a prompt from its parts; `PromptBuilder` is the usual way.
    public init(instructions: String, request: String, sentTranscript: String, characters: Int, sentCharacters: Int, truncated: Bool) {
        self.instructions = instructions
        self.request = request
        self.sentTranscript = sentTranscript
        self.characters = characters
        self.sentCharacters = sentCharacters
        self.truncated = truncated
    }

    /// The single string given to `AssistantModel.respond(to:)`: instructions, separator, request.
    public var text: String { instructions + Self.separator + request }

    /// Splits a combined prompt (`text`) back into instructions and request; nil if the separator is missing.
    ///
    /// Backends with a separate system message (Foundation Models, HTTP) use this.
    public static func split(_ prompt: String) -> (instructions: String, request: String)? {
        guard let range = prompt.range(of: separator) else { return nil }
        return (String(prompt[..<range.lowerBound]), String(prompt[range.upperBound...]))
    }

    /// The transcript block of a prompt (the text between the delimiter lines); nil if there is none.
    ///
    /// Takes the first opening line and the last closing line, so nothing in the
    /// transcript can end the block early. The delimiters are ASCII and are
    /// found byte for byte.
    public static func transcript(in prompt: String) -> String? {
        CharacterSteps.withBytes(prompt) { p, _ in
            transcriptRange(in: p).map { CharacterSteps.string(p, $0) }
        }
    }

    /// Where `transcript(in:)` finds the block in a prompt's UTF-8 bytes.
    static func transcriptRange(in p: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let open = CharacterSteps.firstOffset(of: openingLine, in: p),
              let close = CharacterSteps.lastOffset(of: closingLine, in: p),
              open + openingLine.count <= close
        else { return nil }
        return open + openingLine.count..<close
    }

    private static let openingLine = Array((transcriptStart + "\n").utf8)
    private static let closingLine = Array(("\n" + transcriptEnd).utf8)
}
