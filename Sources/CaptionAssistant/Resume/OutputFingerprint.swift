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
}

extension OutputFingerprint: ReportObject {
    package static let blank = OutputFingerprint(inputSHA256: nil, outputSHA256: nil, settings: .blank)

    /// A SHA-256 as the fingerprint writes it: 64 lower-case hexadecimal digits.
    static let isHash: @Sendable (String?) -> String? = { hash in
        guard let hash else { return nil }
        return hash.utf8.count == 64 && hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            ? nil : "is not a SHA-256 in lower-case hexadecimal"
    }

    /// `{"inputSHA256": …, "outputSHA256": …, "options": {…}}`.
    package static let keys: [ReportKey<OutputFingerprint>] = [
        .value(.inputSHA256, get: \.inputSHA256, set: { $0.inputSHA256 = $1 }, check: isHash),
        .value(.outputSHA256, get: \.outputSHA256, set: { $0.outputSHA256 = $1 }, check: isHash),
        .value(.options, get: \.settings, set: { $0.settings = $1 }),
    ]
}
