import Assistant
/// What a file's output was made from, recorded in its sidecar as
/// `fingerprint`: the SHA-256 of the input's bytes, the SHA-256 of the caption
/// file written, and the options that shape it.
///
/// `--resume` skips a file only when all three still match: the input is the
/// same, the caption in the output folder is the one this sidecar describes
/// (not a partial or older one), and the options are the same.
public struct OutputFingerprint: Sendable, Equatable {
    /// The SHA-256 (lowercase hexadecimal) of the input as read; nil when it could not be read.
    public var inputSHA256: String?
    /// The SHA-256 of the caption file written; nil when none was written.
    public var outputSHA256: String?
    /// The options that shape the output.
    public var settings: OutputSettings

    /// Creates a fingerprint.
    public init(inputSHA256: String?, outputSHA256: String?, settings: OutputSettings) {
        self.inputSHA256 = inputSHA256; self.outputSHA256 = outputSHA256; self.settings = settings
    }

    /// `{"inputSHA256": …, "outputSHA256": …, "options": {…}}`.
    var json: JSONValue {
        .object([("inputSHA256", .string(inputSHA256)), ("outputSHA256", .string(outputSHA256)), ("options", settings.json)])
    }

    /// Reads a fingerprint back; nil when `json` is not exactly what `json` writes.
    init?(json: JSONValue) {
        guard case .object(let pairs) = json, pairs.map(\.0) == ["inputSHA256", "outputSHA256", "options"],
              let options = json["options"], let settings = OutputSettings(json: options) else { return nil }
        guard let input = json.stringOrNull("inputSHA256"), let output = json.stringOrNull("outputSHA256"),
              [input, output].allSatisfy({ ($0?.utf8.count ?? 64) == 64 }) else { return nil }
        self.init(inputSHA256: input, outputSHA256: output, settings: settings)
    }
}
