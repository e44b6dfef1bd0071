import Assistant
import Captions

/// Reading a sidecar back, for `--resume`: a file skipped because it is
/// already done still has its entry in the new `report.json`, taken from its
/// sidecar.
extension FileReport {
    /// The report a sidecar holds, or nil when `json` is not exactly what
    /// `json` writes for a file whose model was available or not asked (a
    /// sidecar that records an unavailable model is not read back: such a
    /// file is processed again, since the model may be there now).
    init?(json: JSONValue) {
        guard case .object(let pairs) = json, case .int(1)? = json["schemaVersion"],
              case .string(let input)? = json["input"],
              case .array(let warningValues)? = json["warnings"], case .array(let actionValues)? = json["actions"],
              let modelValue = json["model"], let model = Self.model(modelValue),
              let fingerprintValue = json["fingerprint"], let fingerprint = OutputFingerprint(json: fingerprintValue)
        else { return nil }
        guard let output = json.stringOrNull("output"), let formatName = json.stringOrNull("format"),
              let reasonRow = json.stringOrNull("reasonRow"), let error = json.stringOrNull("error") else { return nil }
        var format: CaptionFormat?
        if let formatName {
            guard let f = CaptionFormat(rawValue: formatName) else { return nil }
            format = f
        }
        var convertedTo: CaptionFormat?
        if let name = json["convertedTo"] {
            guard case .string(let s) = name, let f = CaptionFormat(rawValue: s) else { return nil }
            convertedTo = f
        }
        var cues: Int?
        switch json["cues"] {
        case .int(let n)?: cues = n
        case .null?: cues = nil
        default: return nil
        }
        var warnings: [CaptionWarning] = []
        for value in warningValues {
            guard case .string(let message)? = value["message"] else { return nil }
            switch value["line"] {
            case .int(let line)?: warnings.append(CaptionWarning(line: line, message: message))
            case .null?: warnings.append(CaptionWarning(line: nil, message: message))
            default: return nil
            }
        }
        var losses: [String] = []
        if let lossValues = json["losses"] {
            guard case .array(let items) = lossValues else { return nil }
            for item in items {
                guard case .string(let s) = item else { return nil }
                losses.append(s)
            }
        }
        var transcript: TranscriptStats?
        switch json["transcript"] {
        case .null?: transcript = nil
        case let value?:
            guard case .int(let characters)? = value["characters"], case .int(let sent)? = value["sentCharacters"],
                  case .bool(let truncated)? = value["truncated"] else { return nil }
            transcript = TranscriptStats(characters: characters, sentCharacters: sent, truncated: truncated)
        case nil: return nil
        }
        var actions: [ActionReport] = []
        for value in actionValues {
            guard let action = Self.action(value) else { return nil }
            actions.append(action)
        }
        self.init(input: input, output: output, format: format, convertedTo: convertedTo, cues: cues, warnings: warnings,
                  losses: losses, transcript: transcript, model: model, actions: actions, reasonRow: reasonRow,
                  error: error, fingerprint: fingerprint)
        // Whatever was not understood above would be lost: refuse the sidecar instead.
        guard self.json == .object(pairs) else { return nil }
    }

    private static func model(_ value: JSONValue) -> Model? {
        guard case .string(let backend)? = value["backend"] else { return nil }
        var cost: ModelCost?
        if let c = value["cost"] {
            guard case .int(let requests)? = c["requests"], case .int(let ms)? = c["milliseconds"] else { return nil }
            var read = ModelCost()
            read.requests = requests
            read.seconds = Double(ms) / 1000
            if case .int(let p)? = c["promptTokens"] { read.promptTokens = p }
            if case .int(let t)? = c["completionTokens"] { read.completionTokens = t }
            cost = read
        }
        switch value["availability"] {
        case .null?: return Model(backend: backend, availability: nil, cost: cost)
        case .string("available")?: return Model(backend: backend, availability: .available, cost: cost)
        default: return nil
        }
    }

    private static func action(_ value: JSONValue) -> ActionReport? {
        guard case .object(let pairs) = value, pairs.count >= 3, pairs[0].0 == "id", pairs[1].0 == "label", pairs[2].0 == "state",
              case .string(let idName) = pairs[0].1, let id = ActionReport.ID(rawValue: idName),
              case .string(let stateName) = pairs[2].1, let state = ActionReport.State(rawValue: stateName) else { return nil }
        var rest = pairs.dropFirst(3)
        var reason: String?
        if let first = rest.first, first.0 == "reason", case .string(let s) = first.1 {
            reason = s
            rest = rest.dropFirst()
        }
        return ActionReport(id: id, state: state, reason: reason, details: Array(rest))
    }
}
