import Assistant
/// One file's entry of `report.json`, as the review pages show it.
///
/// Read leniently from the JSON (a field that is missing or of the wrong kind
/// is simply absent), because the review shows whatever a report holds,
/// including one written by hand or merged from shards; every string in it is
/// untrusted and is escaped wherever it is shown.
struct ReviewEntry: Sendable {
    /// One of the three actions.
    struct Action: Sendable {
        /// `keywordEmphasis`, `titles` or `emoji` (or whatever the report says).
        var id: String
        /// The label shown for it.
        var label: String
        /// `applied`, `failed` or `disabled` (anything else is shown as it is).
        var state: String
        /// Why it failed.
        var reason: String?
        /// The whole entry, for its details (`keywords`, `titles`, `emoji`, …).
        var json: JSONValue
    }

    /// A reader warning.
    struct Warning: Sendable {
        /// The line it is about, when known.
        var line: Int?
        /// What is wrong.
        var message: String
    }

    /// The plan position, from 0.
    var index: Int
    /// The input as named in the report.
    var input: String
    /// The written caption file, relative to the output folder.
    var output: String?
    /// The input's format and the format converted to (`--to`).
    var format: String?, convertedTo: String?
    /// The number of cues read.
    var cues: Int?
    /// The reader's warnings.
    var warnings: [Warning]
    /// What a conversion could not carry over.
    var losses: [String]
    /// Transcript figures: characters, characters sent, truncated.
    var transcript: (characters: Int, sent: Int, truncated: Bool)?
    /// The backend's name.
    var backend: String?
    /// `available`, `unavailable`, or nil when availability was not read.
    var availability: String?
    /// For an unavailable model: the reason's name, its remedy, its permanence and whether Settings can help.
    var reason: String?, remedy: String?, permanence: String?
    /// Whether the report says the user can fix this in Settings.
    var offersSettings: Bool
    /// The three actions, in report order.
    var actions: [Action]
    /// The reason row (an unavailable or failed model), if any.
    var reasonRow: String?
    /// The real error text, if any.
    var error: String?
    /// The entry as it was read, to compare with the sidecar.
    var json: JSONValue

    /// Reads the entry at plan position `index`.
    init(_ json: JSONValue, index: Int) {
        func string(_ v: JSONValue?) -> String? { if case .string(let s)? = v { return s }; return nil }
        func int(_ v: JSONValue?) -> Int? { if case .int(let n)? = v { return n }; return nil }
        self.index = index
        self.json = json
        input = string(json["input"]) ?? "(no input named)"
        output = string(json["output"])
        format = string(json["format"])
        convertedTo = string(json["convertedTo"])
        cues = int(json["cues"])
        var warnings: [Warning] = []
        if case .array(let items)? = json["warnings"] {
            for item in items {
                if case .string(let message)? = item["message"] { warnings.append(Warning(line: int(item["line"]), message: message)) }
                else if case .string(let message) = item { warnings.append(Warning(line: nil, message: message)) }
            }
        }
        self.warnings = warnings
        var losses: [String] = []
        if case .array(let items)? = json["losses"] { for case .string(let s) in items { losses.append(s) } }
        self.losses = losses
        if let t = json["transcript"], let c = int(t["characters"]), let s = int(t["sentCharacters"]) {
            var truncated = false
            if case .bool(let b)? = t["truncated"] { truncated = b }
            transcript = (c, s, truncated)
        }
        let model = json["model"]
        backend = string(model?["backend"])
        availability = string(model?["availability"])
        reason = string(model?["reason"])
        remedy = string(model?["remedy"])
        permanence = string(model?["permanence"])
        if case .bool(true)? = model?["offersSettings"] { offersSettings = true } else { offersSettings = false }
        var actions: [Action] = []
        if case .array(let items)? = json["actions"] {
            for item in items {
                let id = string(item["id"]) ?? "action"
                actions.append(Action(id: id, label: string(item["label"]) ?? id, state: string(item["state"]) ?? "unknown",
                                      reason: string(item["reason"]), json: item))
            }
        }
        self.actions = actions
        reasonRow = string(json["reasonRow"])
        error = string(json["error"])
    }

    /// Whether the file was not written, or an action failed.
    var hasFailure: Bool { output == nil || error != nil || actions.contains { $0.state == "failed" } }
    /// Whether an action was disabled (the model was unavailable).
    var hasDisabled: Bool { actions.contains { $0.state == "disabled" } }
    /// Whether the reader left warnings.
    var hasWarnings: Bool { !warnings.isEmpty }
}
