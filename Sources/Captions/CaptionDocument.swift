import Foundation

/// A caption file as read: its cues, what was repaired, and everything the
/// writer needs to give back the untouched parts byte for byte.
public struct CaptionDocument: Sendable {
    /// The file's format.
    public let format: CaptionFormat
    /// The file's text and encoding, as it came.
    public let source: SourceText
    /// The cues, in file order.
    public internal(set) var cues: [Cue]
    /// Problems the reader repaired or ignored, with line numbers (decoding warnings first).
    public internal(set) var warnings: [CaptionWarning]
    /// Format-specific structure the writer needs.
    let payload: Payload

    enum Payload: Sendable {
        case none
        case ttml(TTMLPayload)
        /// The kinds of WebVTT blocks besides cues that the file has (for conversion losses).
        case vtt(Set<WebVTTReader.Block.Kind>)
    }

    init(format: CaptionFormat, source: SourceText, cues: [Cue], warnings: [CaptionWarning], payload: Payload = .none) {
        // Both lists are capped already, each by its own `CaptionWarningLog`.
        self.format = format; self.source = source; self.cues = cues
        self.warnings = source.warnings + warnings; self.payload = payload
    }

    /// Reads a caption file's bytes, detecting the encoding and the format
    /// (from content; `hint`, usually from the file extension, breaks ties).
    public static func read(_ data: Data, hint: CaptionFormat? = nil) throws -> CaptionDocument {
        let source = try SourceText.decode(data)
        return try read(source, hint: hint)
    }

    /// Reads decoded text, detecting the format.
    public static func read(_ source: SourceText, hint: CaptionFormat? = nil) throws -> CaptionDocument {
        switch try CaptionFormat.detect(source.bytes, hint: hint) {
        case .srt: return try SRTReader.read(source)
        case .vtt: return try WebVTTReader.read(source)
        case .ttml: return try TTMLReader.read(source)
        }
    }

    /// Writes the document back in its own format and encoding with `edits`
    /// (keyed by cue index) applied. With no edits the result is the input's bytes.
    public func write(edits: [Int: CueEdit] = [:]) throws -> Data {
        try source.encode(writeUTF8(edits: edits))
    }

    /// `write(edits:)` as an array of bytes: for a UTF-8 file without a
    /// byte-order mark, the writer's buffer itself, with no copy of the file.
    public func writeBytes(edits: [Int: CueEdit] = [:]) throws -> [UInt8] {
        let utf8 = try writeUTF8(edits: edits)
        if source.encoding == .utf8 && !source.hasByteOrderMark { return utf8 }
        return [UInt8](try source.encode(utf8))
    }

    /// The document with `edits` applied, as UTF-8 bytes before re-encoding
    /// (no byte-order mark). With no edits this is the source buffer itself.
    func writeUTF8(edits: [Int: CueEdit]) throws -> [UInt8] {
        guard edits.values.contains(where: { !$0.isEmpty }) else { return source.bytes }
        switch format {
        case .srt: return try SRTWriter.apply(edits, to: self)
        case .vtt: return try WebVTTWriter.apply(edits, to: self)
        case .ttml: return try TTMLWriter.apply(edits, to: self)
        }
    }
}

/// The result of writing a document in another format.
public struct Conversion: Sendable {
    /// The converted file, UTF-8 without a byte-order mark.
    public var data: Data
    /// What the target format could not carry, one sentence each, without repeats.
    public var losses: [String]
}

extension CaptionDocument {
    /// Writes the cues (with `edits` applied) in another format. Not lossless:
    /// `losses` lists what could not be carried over.
    public func converted(to target: CaptionFormat, edits: [Int: CueEdit] = [:]) throws -> Conversion {
        if target == format {
            return Conversion(data: try write(edits: edits), losses: [])
        }
        var edited = cues.enumerated().map { i, cue in edits[i].map { cue.applying($0) } ?? cue }
        var losses = ConversionLosses.beforeRendering(&edited, of: self, to: target)
        let bytes: [UInt8]
        switch target {
        case .srt: bytes = SRTWriter.render(edited, from: format, losses: &losses)
        case .vtt: bytes = WebVTTWriter.render(edited, from: format, losses: &losses)
        case .ttml: bytes = TTMLWriter.render(edited, from: format, losses: &losses)
        }
        losses += ConversionLosses.document(self, to: target)
        var seen = Set<String>()
        return Conversion(data: Data(bytes), losses: losses.filter { seen.insert($0).inserted })
    }
}

extension Cue {
    /// The cue with an edit applied to its runs (for conversion, where the
    /// target writer renders runs rather than splicing source bytes).
    public func applying(_ edit: CueEdit) -> Cue {
        var out = self
        var newRuns: [TextRun] = []
        // Each run's ranges, grouped once (not a pass over every range per run).
        var byRun: [Int: [Range<Int>]] = [:]
        for range in edit.emphasis { byRun[range.run, default: []].append(range.utf8) }
        for (i, run) in runs.enumerated() {
            guard run.kind == .text, var ranges = byRun[i], !ranges.isEmpty else { newRuns.append(run); continue }
            ranges.sort { $0.lowerBound < $1.lowerBound }
            let utf8 = Array(run.text.utf8)
            var at = 0
            for r in ranges where r.lowerBound >= at && r.upperBound <= utf8.count {
                if r.lowerBound > at {
                    newRuns.append(TextRun(kind: .text, text: String(decoding: utf8[at..<r.lowerBound], as: UTF8.self), style: run.style, source: run.source))
                }
                newRuns.append(TextRun(kind: .text, text: String(decoding: utf8[r], as: UTF8.self), style: run.style.union(.bold), source: run.source))
                at = r.upperBound
            }
            if at < utf8.count {
                newRuns.append(TextRun(kind: .text, text: String(decoding: utf8[at...], as: UTF8.self), style: run.style, source: run.source))
            }
        }
        if let extra = edit.appendedText, !extra.isEmpty {
            let end = textRange.upperBound
            newRuns.append(TextRun(kind: .text, text: extra, style: [], source: end..<end))
        }
        out.runs = newRuns
        return out
    }
}
