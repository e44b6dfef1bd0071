import Assistant
import Captions
import JSON

/// The options that shape a file's output, recorded in its sidecar so that
/// `--resume` redoes a file made with different ones.
///
/// These are the options that change what is written: the backend and which
/// model it asks (the HTTP server's address, without any user name, password
/// or query, and the model name and server kind), a forced availability, the
/// transcript cap, the format converted to, `--encoding`, `--language` and `--input-encoding`,
/// the actions asked for, the emphasis density, the fallback and `--from` (each of
/// these recorded only when given, so sidecars of runs without them are as
/// they were). Options that only change how
/// the run goes (`--jobs`, `--quiet`, `--json`, timeouts, waiting) are left
/// out, and so is the tool's version: a resumed run after an upgrade keeps
/// the files already done (delete the output folder to redo everything).
public struct OutputSettings: Sendable, Equatable {
    /// `fake`, `foundation`, `http` or `none`.
    public var backend: String
    /// Which model the backend asks, when that is more than the backend (the
    /// HTTP model name; the failing test model and its message).
    public var model: String?
    /// The HTTP server's address, as diagnostics show it.
    public var endpoint: String?
    /// `--server-kind`, as given.
    public var serverKind: String?
    /// `--simulate-availability`, as given.
    public var simulatedAvailability: String?
    /// `--max-characters`.
    public var maxCharacters: Int
    /// `--to`.
    public var convertTo: CaptionFormat?
    /// `--encoding` and `--language`.
    public var writeOptions: WriteOptions
    /// The encoding declared for the inputs (`--input-encoding`, by the name
    /// `TextEncoding` gives it); nil: each file's is told from its bytes.
    public var inputEncoding: String?
    /// The actions asked for, in answer order (all three by default).
    public var actions: [AssistantAction]
    /// Which keyword occurrences are emphasised (every one by default).
    public var emphasis: EmphasisDensity
    /// Where content comes from when no model answers; nil: nowhere (the actions are disabled or failed).
    public var fallback: FallbackKind?
    /// `--from`: the format every input was read as, whatever its extension and content.
    public var readAs: CaptionFormat?

    /// Creates settings.
    public init(backend: String, model: String? = nil, endpoint: String? = nil, serverKind: String? = nil,
                simulatedAvailability: String? = nil, maxCharacters: Int = PromptBuilder.defaultMaxCharacters, convertTo: CaptionFormat? = nil,
                writeOptions: WriteOptions = WriteOptions(), actions: [AssistantAction] = AssistantAction.allCases,
                emphasis: EmphasisDensity = .all, fallback: FallbackKind? = nil, inputEncoding: String? = nil,
                readAs: CaptionFormat? = nil) {
        self.backend = backend; self.model = model; self.endpoint = endpoint; self.serverKind = serverKind
        self.simulatedAvailability = simulatedAvailability; self.maxCharacters = maxCharacters; self.convertTo = convertTo
        self.writeOptions = writeOptions; self.actions = actions; self.emphasis = emphasis; self.fallback = fallback
        self.inputEncoding = inputEncoding
        self.readAs = readAs
    }

    /// Whether the run asked for `action`.
    public func asks(for action: AssistantAction) -> Bool { actions.contains(action) }

    /// The settings as the sidecar records them.
    var json: JSONValue { reportJSON }
}

extension OutputEncoding: ReportName {}
extension AssistantAction: ReportName {}
extension EmphasisDensity.Mode: ReportName {}
extension FallbackKind: ReportName {}

extension OutputSettings: ReportObject {
    package static let blank = OutputSettings(backend: "")

    package static let keys: [ReportKey<OutputSettings>] = [
        .value(.backend, get: \.backend, set: { $0.backend = $1 }),
        .value(.model, get: \.model, set: { $0.model = $1 }),
        .value(.endpoint, get: \.endpoint, set: { $0.endpoint = $1 }),
        .value(.serverKind, get: \.serverKind, set: { $0.serverKind = $1 }),
        .value(.simulatedAvailability, get: \.simulatedAvailability, set: { $0.simulatedAvailability = $1 }),
        .value(.maxCharacters, get: \.maxCharacters, set: { $0.maxCharacters = $1 }),
        .value(.to, get: \.convertTo, set: { $0.convertTo = $1 }),
        // Written only when given, so sidecars of runs without them are as they were.
        .value(.encoding, get: \.writeOptions.encoding, set: { $0.writeOptions.encoding = $1 }, writtenIf: { $0.writeOptions.encoding != .keep }),
        .ifPresent(.language, get: \.writeOptions.language, set: { $0.writeOptions.language = $1 }),
        .ifPresent(.inputEncoding, get: \.inputEncoding, set: { $0.inputEncoding = $1 }),
        .value(.actions, get: \.actions, set: { $0.actions = $1 }, writtenIf: { $0.actions != AssistantAction.allCases }, check: { actions in
            !actions.isEmpty && actions == Array(Set(actions)).sorted() ? nil : "is not a list of distinct actions in the order keywords, titles, emoji"
        }),
        .value(.emphasis, get: \.emphasis.mode, set: { $0.emphasis.mode = $1 }, writtenIf: { $0.emphasis.mode != .all }),
        .value(.emphasisPerCue, get: \.emphasis.perCue, set: { $0.emphasis.perCue = $1 }, writtenIf: { $0.emphasis.perCue != nil },
               check: { ($0 ?? 1) >= 1 ? nil : "is not a number of occurrences from 1 up" }),
        .ifPresent(.fallback, get: \.fallback, set: { $0.fallback = $1 }),
        .ifPresent(.from, get: \.readAs, set: { $0.readAs = $1 }),
    ]
}
