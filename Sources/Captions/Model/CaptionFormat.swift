#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The caption formats CaptionAssistant reads and writes.
public enum CaptionFormat: String, Sendable, CaseIterable, Codable {
    /// SubRip.
    case srt
    /// WebVTT.
    case vtt
    /// TTML, DFXP and IMSC1 (text profile).
    case ttml

    /// The format's name in prose: `SRT`, `WebVTT`, `TTML`.
    public var name: String {
        switch self {
        case .srt: return "SRT"
        case .vtt: return "WebVTT"
        case .ttml: return "TTML"
        }
    }

    /// The usual file extension, without the dot (the table's first entry for the format).
    public var fileExtension: String { CaptionFileExtension.all.first { $0.format == self }?.name ?? rawValue }

    /// The format an extension names (any case), by `CaptionFileExtension.all`; nil for any other.
    public init?(fileExtension ext: String) {
        guard let known = CaptionFileExtension.named(ext) else { return nil }
        self = known.format
    }

    /// Decides the format from the content, using the extension only as a tie-breaker.
    ///
    /// `WEBVTT` at the start means WebVTT; an XML document whose first element is
    /// `tt` (any prefix) means TTML; a line with `-->` between two times means SRT.
    /// Throws for empty input, binary data and text that is none of these.
    public static func detect(_ bytes: [UInt8], hint: CaptionFormat? = nil) throws -> CaptionFormat {
        try bytes.withUnsafeBufferPointer { p in try detect(p, hint: hint) }
    }

    /// `detect(_:hint:)` on a buffer: no copies, and the binary-data checks
    /// with `memchr` instead of a byte at a time.
    private static func detect(_ p: UnsafeBufferPointer<UInt8>, hint: CaptionFormat?) throws -> CaptionFormat {
        let n = p.count
        var i = 0
        while i < n, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D { i += 1 }
        guard i < n, let base = p.baseAddress else { throw CaptionError(.emptyFile, message: "the file is empty (no caption text)") }
        let headEnd = min(n, i + 4096)
        let head = UnsafeBufferPointer(rebasing: p[i..<headEnd])
        let headHasZero = memchr(base + i, 0, headEnd - i) != nil
        let png = n >= 4 && p[0] == 0x89 && p[1] == 0x50 && p[2] == 0x4E && p[3] == 0x47
        if headHasZero && memchr(base + i, 0x0A, headEnd - i) == nil || png {
            throw CaptionError(.binaryFile, message: "this is binary data, not a caption file")
        }
        if head.starts(with: "WEBVTT".utf8) { return .vtt }
        if p[i] == UInt8(ascii: "<") {
            if looksLikeTTML(head) || hint == .ttml { return .ttml }
            if hint == .srt || hint == .vtt { return hint! }
            throw CaptionError(.unrecognizedFormat, line: 1, message: "an XML or HTML document that is not TTML (no <tt> root element)")
        }
        if hint == .vtt { return .vtt }  // the reader reports the bad signature
        if containsArrow(p) { return .srt }
        if let hint { return hint }
        throw CaptionError(.unrecognizedFormat, message: "not SRT, WebVTT or TTML: no WEBVTT signature, no <tt> element and no '-->' timing line")
    }

    private static func looksLikeTTML(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
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

    /// Whether `-->` occurs in the first 64 KiB (found with `memchr` for `>`).
    private static func containsArrow(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let limit = min(p.count, 1 << 16)
        guard let base = p.baseAddress else { return false }
        var at = 2
        while at < limit, let hit = memchr(base + at, 0x3E, limit - at) {
            let i = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if p[i - 1] == 0x2D, p[i - 2] == 0x2D { return true }
            at = i + 1
        }
        return false
    }
}
