/// The caption formats CaptionAssistant reads and writes.
public enum CaptionFormat: String, Sendable, CaseIterable, Codable {
    /// SubRip.
    case srt
    /// WebVTT.
    case vtt
    /// TTML, DFXP and IMSC1 (text profile).
    case ttml

    /// The usual file extension, without the dot.
    public var fileExtension: String { rawValue }

    /// The format an extension suggests (`srt`, `vtt`/`webvtt`, `ttml`/`dfxp`/`xml`), if any.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "srt": self = .srt
        case "vtt", "webvtt": self = .vtt
        case "ttml", "dfxp", "xml", "imsc": self = .ttml
        default: return nil
        }
    }

    /// Decides the format from the content, using the extension only as a tie-breaker.
    ///
    /// `WEBVTT` at the start means WebVTT; an XML document whose first element is
    /// `tt` (any prefix) means TTML; a line with `-->` between two times means SRT.
    /// Throws for empty input, binary data and text that is none of these.
    public static func detect(_ bytes: [UInt8], hint: CaptionFormat? = nil) throws -> CaptionFormat {
        var i = 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        if i == bytes.count { throw CaptionError(.emptyFile, message: "the file is empty (no caption text)") }
        let head = bytes[i..<min(bytes.count, i + 4096)]
        if head.contains(0) && !head.contains(where: { $0 == 0x0A }) || bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            throw CaptionError(.binaryFile, message: "this is binary data, not a caption file")
        }
        if bytes[i...].starts(with: Array("WEBVTT".utf8)) { return .vtt }
        if bytes[i] == UInt8(ascii: "<") {
            if looksLikeTTML(head) || hint == .ttml { return .ttml }
            if hint == .srt || hint == .vtt { return hint! }
            throw CaptionError(.unrecognizedFormat, line: 1, message: "an XML or HTML document that is not TTML (no <tt> root element)")
        }
        if hint == .vtt { return .vtt }  // the reader reports the bad signature
        if containsArrow(bytes) { return .srt }
        if let hint { return hint }
        throw CaptionError(.unrecognizedFormat, message: "not SRT, WebVTT or TTML: no WEBVTT signature, no <tt> element and no '-->' timing line")
    }

    private static func looksLikeTTML(_ head: ArraySlice<UInt8>) -> Bool {
        // The first element that is not a declaration, comment or DOCTYPE is tt or prefix:tt.
        let s = String(decoding: head, as: UTF8.self)
        var rest = Substring(s)
        while let lt = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: lt)...]
            guard let first = rest.first else { return false }
            if first == "?" || first == "!" { continue }
            let name = rest.prefix { !" \t\r\n/>".contains($0) }
            return name == "tt" || name.hasSuffix(":tt")
        }
        return false
    }

    private static func containsArrow(_ bytes: [UInt8]) -> Bool {
        let limit = min(bytes.count, 1 << 16)
        var i = 0
        while i + 2 < limit {
            if bytes[i] == 0x2D, bytes[i + 1] == 0x2D, bytes[i + 2] == 0x3E { return true }
            i += 1
        }
        return false
    }
}
