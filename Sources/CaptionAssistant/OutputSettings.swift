import Assistant
import Captions

/// The options that shape a file's output, recorded in its sidecar so that
/// `--resume` redoes a file made with different ones.
///
/// These are the options that change what is written: the backend and which
/// model it asks (the HTTP server's address, without any user name, password
/// or query, and the model name and server kind), a forced availability, the
/// transcript cap, the format converted to, and `--encoding` and `--language`
/// (recorded only when given, so sidecars of runs without them are as they
/// were). Options that only change how
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

    /// Creates settings.
    public init(backend: String, model: String? = nil, endpoint: String? = nil, serverKind: String? = nil,
                simulatedAvailability: String? = nil, maxCharacters: Int = 3000, convertTo: CaptionFormat? = nil,
                writeOptions: WriteOptions = WriteOptions()) {
        self.backend = backend; self.model = model; self.endpoint = endpoint; self.serverKind = serverKind
        self.simulatedAvailability = simulatedAvailability; self.maxCharacters = maxCharacters; self.convertTo = convertTo
        self.writeOptions = writeOptions
    }

    /// The settings as the sidecar records them.
    var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("backend", .string(backend)), ("model", .string(model)), ("endpoint", .string(endpoint)),
            ("serverKind", .string(serverKind)), ("simulatedAvailability", .string(simulatedAvailability)),
            ("maxCharacters", .int(maxCharacters)), ("to", .string(convertTo?.rawValue)),
        ]
        if writeOptions.encoding != .keep { pairs.append(("encoding", .string(writeOptions.encoding.rawValue))) }
        if let language = writeOptions.language { pairs.append(("language", .string(language))) }
        return .object(pairs)
    }

    /// Reads settings back from a sidecar; nil when `json` is not exactly what `json` writes.
    init?(json: JSONValue) {
        guard case .object(let pairs) = json, pairs.count >= 7, pairs.prefix(7).map(\.0) == ["backend", "model", "endpoint", "serverKind",
              "simulatedAvailability", "maxCharacters", "to"],
              case .string(let backend)? = json["backend"], case .int(let cap)? = json["maxCharacters"] else { return nil }
        var writeOptions = WriteOptions()
        for (key, value) in pairs.dropFirst(7) {
            switch (key, value) {
            case ("encoding", .string(let name)):
                guard let encoding = OutputEncoding(rawValue: name) else { return nil }
                writeOptions.encoding = encoding
            case ("language", .string(let tag)): writeOptions.language = tag
            default: return nil
            }
        }
        guard let model = json.stringOrNull("model"), let endpoint = json.stringOrNull("endpoint"),
              let kind = json.stringOrNull("serverKind"), let simulated = json.stringOrNull("simulatedAvailability"),
              let to = json.stringOrNull("to") else { return nil }
        var format: CaptionFormat?
        if let to {
            guard let f = CaptionFormat(rawValue: to) else { return nil }
            format = f
        }
        self.init(backend: backend, model: model, endpoint: endpoint, serverKind: kind, simulatedAvailability: simulated,
                  maxCharacters: cap, convertTo: format, writeOptions: writeOptions)
        // Keys out of order or repeated would be lost: refuse them.
        guard self.json == json else { return nil }
    }
}
