import Assistant
import Captions

/// The report for one input file: the sidecar `*.assistant.json`, and the
/// file's entry in `report.json`.
///
/// It holds no timestamps, durations or absolute paths (beyond what the user
/// typed), so the same run gives the same bytes: reports can be golden files.
public struct FileReport: Sendable {
    /// The model part of the report.
    public struct Model: Sendable, Equatable {
        /// `fake`, `foundation`, `http` or `none`.
        public var backend: String
        /// nil when availability was not read (the file could not be read first);
        /// otherwise available, or unavailable with the diagnostics for the reason.
        public var availability: Availability?
        /// What the model calls cost, recorded for a real model (HTTP, Foundation
        /// Models) that was called; nil for the fake and when no call was made, so
        /// test reports stay free of timings.
        public var cost: ModelCost?

        /// Availability as the report writes it.
        public enum Availability: Sendable, Equatable {
            /// The model could be called.
            case available
            /// The model could not be called; the diagnostics say why and what to do.
            case unavailable(Diagnostics)
        }

        /// Creates the model part.
        public init(backend: String, availability: Availability?, cost: ModelCost? = nil) {
            self.backend = backend; self.availability = availability; self.cost = cost
        }

        var json: JSONValue {
            var pairs: [(String, JSONValue)] = [("backend", .string(backend))]
            switch availability {
            case nil: pairs.append(("availability", .null))
            case .available?: pairs.append(("availability", .string("available")))
            case .unavailable(let info)?:
                pairs += [("availability", .string("unavailable")), ("reason", .string(info.name)),
                          ("remedy", .string(info.remedy)), ("permanence", .string(info.permanence.rawValue)),
                          ("offersSettings", .bool(info.offersSettings))]
            }
            if let cost { pairs.append(("cost", cost.json)) }
            return .object(pairs)
        }
    }

    /// The input as the user named it (plus the path inside a folder they named); `-` for standard input.
    public var input: String
    /// The output caption file, relative to the output folder; nil when nothing was written.
    public var output: String?
    /// The input's format, when it could be detected.
    public var format: CaptionFormat?
    /// The format written when converting (`--to`), else nil.
    public var convertedTo: CaptionFormat?
    /// The number of cues read.
    public var cues: Int?
    /// Problems the reader repaired, with line numbers.
    public var warnings: [CaptionWarning]
    /// What conversion could not carry over (when converting), or what else
    /// the output does not keep of the input (its encoding, with `--encoding utf-8`).
    public var losses: [String]
    /// How much of the transcript was sent.
    public var transcript: TranscriptStats?
    /// Which model, and whether it was available.
    public var model: Model
    /// The three actions, in order.
    public var actions: [ActionReport]
    /// Why the actions are not applied (unavailable model, failed model); nil otherwise.
    public var reasonRow: String?
    /// The real error text (unreadable file, failed model, failed write).
    public var error: String?
    /// What the output was made from (input and output hashes, options), for `--resume`.
    public var fingerprint: OutputFingerprint

    /// Creates a report.
    public init(input: String, output: String?, format: CaptionFormat?, convertedTo: CaptionFormat? = nil,
                cues: Int?, warnings: [CaptionWarning], losses: [String] = [], transcript: TranscriptStats?,
                model: Model, actions: [ActionReport], reasonRow: String?, error: String?,
                fingerprint: OutputFingerprint? = nil) {
        self.input = input; self.output = output; self.format = format; self.convertedTo = convertedTo
        self.cues = cues; self.warnings = warnings; self.losses = losses; self.transcript = transcript
        self.model = model; self.actions = actions; self.reasonRow = reasonRow; self.error = error
        self.fingerprint = fingerprint ?? OutputFingerprint(inputSHA256: nil, outputSHA256: nil,
                                                            settings: OutputSettings(backend: model.backend, convertTo: convertedTo))
    }

    /// Whether the output caption file was written.
    public var written: Bool { output != nil }

    /// The sidecar's content, keys in the documented order.
    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("schemaVersion", .int(1)),
            ("input", .string(input)),
            ("output", .string(output)),
            ("format", .string(format?.rawValue)),
        ]
        if let convertedTo { pairs.append(("convertedTo", .string(convertedTo.rawValue))) }
        pairs.append(("cues", .int(cues)))
        pairs.append(("warnings", .array(warnings.map {
            .object([("line", .int($0.line)), ("message", .string($0.message))])
        })))
        if convertedTo != nil || !losses.isEmpty { pairs.append(("losses", .strings(losses))) }
        pairs.append(("transcript", transcript.map {
            .object([("characters", .int($0.characters)), ("sentCharacters", .int($0.sentCharacters)),
                     ("truncated", .bool($0.truncated))])
        } ?? .null))
        pairs.append(("model", model.json))
        pairs.append(("actions", .array(actions.map(\.json))))
        pairs.append(("reasonRow", .string(reasonRow)))
        pairs.append(("error", .string(error)))
        pairs.append(("fingerprint", fingerprint.json))
        return .object(pairs)
    }
}
