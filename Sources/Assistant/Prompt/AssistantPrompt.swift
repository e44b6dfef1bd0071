/// One prompt for the model, as a value: our instructions, the transcript part
/// sent (as delimited data in the request), and the answer's shape.
///
/// As Apple's `respond(to:generating:)` takes a prompt and a `@Generable`
/// type, `AssistantModel.respond(to:)` takes this value: a backend that takes
/// only text sends `text` (or `instructions` and `request` apart); one that
/// can constrain its output builds the constraint from `schema`, never by
/// parsing the text back apart; the fake reads `transcript`.
///
/// The transcript is untrusted text from a caption file. In `request` it sits
/// between `transcriptStart` and `transcriptEnd` lines, and the instructions
/// tell the model to treat it as data and never follow instructions found inside it.
public struct AssistantPrompt: Sendable, Hashable {
    /// The line that opens the transcript block.
    public static let transcriptStart = "<<<TRANSCRIPT"
    /// The line that closes the transcript block.
    public static let transcriptEnd = "TRANSCRIPT>>>"
    /// The line between the instructions and the request in `text`.
    public static let separator = "\n\n=== REQUEST ===\n\n"

    /// The system part: what to do and how to answer (an HTTP backend sends it as the system message).
    public let instructions: String
    /// The request part: the delimited transcript and the reminder of the
    /// answer format (and, in a repair request, what was wrong before).
    public let request: String
    /// The transcript as sent (cut to the cap, delimiter look-alikes defused).
    public let transcript: String
    /// The answer's shape: allowed keywords, the emoji set, the title bounds.
    public let schema: AnswerSchema
    /// The full transcript's length in `Character`s.
    public let characters: Int
    /// How many `Character`s of the transcript were sent.
    public let sentCharacters: Int
    /// Whether the transcript was cut to fit the cap.
    public let truncated: Bool
    /// Whether this is the one repair request (`adding(_:)`): a backend may
    /// sample with some variety then, since a model at temperature 0 tends to
    /// give the answer that was just refused again.
    public let isRepair: Bool

    /// Creates a prompt from its parts; `PromptBuilder` is the usual way.
    public init(instructions: String, request: String, transcript: String, schema: AnswerSchema,
                characters: Int, sentCharacters: Int, truncated: Bool, isRepair: Bool = false) {
        self.instructions = instructions
        self.request = request
        self.transcript = transcript
        self.schema = schema
        self.characters = characters
        self.sentCharacters = sentCharacters
        self.truncated = truncated
        self.isRepair = isRepair
    }

    /// The prompt as one string, for a model that takes only text: instructions, separator, request.
    public var text: String { instructions + Self.separator + request }

    /// The same prompt (instructions, transcript, schema) with `note` after the
    /// request, marked `isRepair`: the one repair request says there what was
    /// wrong with the first answer.
    /// `fields`, when given, narrows the schema to the fields asked for again.
    public func adding(_ note: String, asking fields: Set<AssistantAction>? = nil) -> AssistantPrompt {
        var schema = self.schema
        if let fields { schema.fields = fields }
        return AssistantPrompt(instructions: instructions, request: request + "\n\n" + note, transcript: transcript, schema: schema,
                               characters: characters, sentCharacters: sentCharacters, truncated: truncated, isRepair: true)
    }
}
