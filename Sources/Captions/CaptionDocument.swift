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
        self.format = format; self.source = source; self.cues = cues
        // Capped per kind, so that a hostile file cannot make a report of millions of lines.
        self.warnings = CaptionWarning.capped(source.warnings + warnings); self.payload = payload
    }

    /// Reads a caption file's bytes, detecting the encoding and the format
    /// (from content; `hint`, usually from the file extension, breaks ties).
    public static func read(_ data: Data, hint: CaptionFormat? = nil) throws -> CaptionDocument {
        let source = try SourceText.decode(data)
        return try read(source, hint: hint)
    }

    /// Reads a caption file from disk (see `read(_:hint:)`); the extension is the hint.
    public static func read(contentsOf url: URL) throws -> CaptionDocument {
        let bytes = try FileBytes.load(url.path)
        return try read(try SourceText.decode(bytes: bytes), hint: CaptionFormat(fileExtension: url.pathExtension))
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

    /// Writes the document with `edits` applied to `path` in its own format
    /// and encoding, without building a copy of the whole file when it is
    /// UTF-8 without a byte-order mark. The caller handles atomicity (write to
    /// a temporary path, then rename).
    public func write(edits: [Int: CueEdit] = [:], toFile path: String) throws {
        try FileBytes.store(writeBytes(edits: edits), to: path)
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
    /// target writer renders runs rather than splicing source bytes). The
    /// appended text goes where `AppendPoint` puts it, with the style it
    /// gives, so a converted file shows it as the source would.
    public func applying(_ edit: CueEdit) -> Cue {
        var out = self
        let runs = self.runs
        var newRuns: [TextRun] = []
        newRuns.reserveCapacity(runs.count + 2 * edit.emphasis.count + 1)
        // Each run's ranges, grouped once (not a pass over every range per run).
        var byRun: [Int: [Range<Int>]] = [:]
        for range in edit.emphasis { byRun[range.run, default: []].append(range.utf8) }
        var appended: TextRun?
        var point: AppendPoint?
        if let extra = edit.appendedText, !extra.isEmpty {
            point = AppendPoint.find { RunView.forEach(in: runs, $0) }
            let at = point.map { $0.source.upperBound } ?? textRange.upperBound
            appended = TextRun(kind: .text, text: extra, style: point?.style ?? [], source: at..<at)
        }
        for (i, run) in runs.enumerated() {
            let cut = point?.run == i ? point?.utf8 : nil
            guard run.kind == .text, (byRun[i] != nil || cut != nil) else {
                newRuns.append(run)
                if let appended, point?.run == i { newRuns.append(appended) }
                continue
            }
            var ranges = byRun[i] ?? []
            ranges.sort { $0.lowerBound < $1.lowerBound }
            let utf8 = Array(run.text.utf8)
            var at = 0
            func plain(upTo end: Int) {
                if end > at {
                    newRuns.append(TextRun(kind: .text, text: String(decoding: utf8[at..<end], as: UTF8.self), style: run.style, source: run.source))
                    at = end
                }
            }
            for r in ranges where r.lowerBound >= at && r.upperBound <= utf8.count {
                plain(upTo: r.lowerBound)
                newRuns.append(TextRun(kind: .text, text: String(decoding: utf8[r], as: UTF8.self), style: run.style.union(.bold), source: run.source))
                at = r.upperBound
            }
            if let cut, let appended {
                plain(upTo: min(max(cut, at), utf8.count))
                newRuns.append(appended)
            }
            plain(upTo: utf8.count)
        }
        if let appended, point == nil { newRuns.append(appended) }
        out.runs = newRuns
        return out
    }
}
