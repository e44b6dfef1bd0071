#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
        /// The kinds of WebVTT blocks besides cues that the file has (for
        /// conversion losses), and what its header lines say.
        case vtt(Set<WebVTTReader.Block.Kind>, header: WebVTTHeader)
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
        try read(source, as: CaptionFormat.detect(source.bytes, hint: hint))
    }

    /// Reads decoded text as `format`, whatever its content suggests (a
    /// cue list without its `WEBVTT` line read as SRT): that format's reader
    /// says what does not fit it.
    public static func read(_ source: SourceText, as format: CaptionFormat) throws -> CaptionDocument {
        switch format {
        case .srt: return try SRTReader.read(source)
        case .vtt: return try WebVTTReader.read(source)
        case .ttml: return try TTMLReader.read(source)
        }
    }

    /// Writes the document back in its own format with `edits` (keyed by cue
    /// index) applied, in its own encoding unless `options` say otherwise.
    /// With no edits and default options the result is the input's bytes.
    public func write(edits: [Int: CueEdit] = [:], options: WriteOptions = WriteOptions()) throws -> Data {
        Data(try writeBytes(edits: edits, options: options))
    }

    /// `write(edits:options:)` as an array of bytes: for a UTF-8 file without a
    /// byte-order mark, the writer's buffer itself, with no copy of the file.
    public func writeBytes(edits: [Int: CueEdit] = [:], options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        try encoded(writeUTF8(edits: edits, options: options), options: options)
    }

    /// The bytes `writeBytes(edits:options:)` returns, handed to `sink` in
    /// pieces, in order, as they are made, so that the output is never held
    /// whole (a 500 MB file's edited output is not a second 500 MB): a file
    /// with edits, written as UTF-8 with no prolog edit to make. Anything
    /// else is made whole and handed over in one piece. False as soon as
    /// `sink` returns false (the output is then cut short).
    package func write(edits: [Int: CueEdit], options: WriteOptions = WriteOptions(),
                       into sink: (UnsafeBufferPointer<UInt8>) -> Bool) throws -> Bool {
        guard writesAsMade(edits: edits, options: options) else {
            return try writeBytes(edits: edits, options: options).withUnsafeBufferPointer(sink)
        }
        // The byte-order mark `encoded` gives a UTF-8 output: the one the file had.
        if source.encoding == .utf8 && source.hasByteOrderMark {
            guard ([0xEF, 0xBB, 0xBF] as [UInt8]).withUnsafeBufferPointer(sink) else { return false }
        }
        switch format {
        case .srt: return SRTWriter.apply(edits, to: self, into: sink)
        case .vtt: return WebVTTWriter.apply(edits, to: self, into: sink)
        case .ttml: return try TTMLWriter.apply(edits, to: self, into: sink)
        }
    }

    /// Whether `write(edits:options:into:)` hands the output on as it is
    /// made (else it is made whole first); such a write cannot fail (a TTML
    /// one only when the document was not read as TTML, which a document
    /// read by this package always was).
    package func writesAsMade(edits: [Int: CueEdit], options: WriteOptions = WriteOptions()) -> Bool {
        edits.values.contains(where: { !$0.isEmpty }) && outputEncoding(options: options) == .utf8
            && prologEdits(options).isEmpty
    }

    /// The document with `edits` and `options`' prolog edits applied, as UTF-8
    /// bytes before re-encoding (no byte-order mark). With neither, this is the
    /// source buffer itself.
    func writeUTF8(edits: [Int: CueEdit], options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        var out: [UInt8]
        if !edits.values.contains(where: { !$0.isEmpty }) {
            out = source.bytes
        } else {
            switch format {
            case .srt: out = try SRTWriter.apply(edits, to: self)
            case .vtt: out = try WebVTTWriter.apply(edits, to: self)
            case .ttml: out = try TTMLWriter.apply(edits, to: self)
            }
        }
        // Prolog edits lie before every cue edit, so their offsets are the same in `out`; the last first.
        for edit in prologEdits(options).reversed() where edit.range.upperBound <= out.count {
            out.replaceSubrange(edit.range, with: edit.bytes)
        }
        return out
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
    /// `losses` lists what could not be carried over. The language the file
    /// declares (else `options.language`) is declared in a WebVTT or TTML
    /// output; converted to its own format, the file is written as
    /// `write(edits:options:)` writes it.
    public func converted(to target: CaptionFormat, edits: [Int: CueEdit] = [:],
                          options: WriteOptions = WriteOptions()) throws -> Conversion {
        if target == format {
            return Conversion(data: try write(edits: edits, options: options), losses: losses(writing: options))
        }
        var edited = cues.enumerated().map { i, cue in edits[i].map { cue.applying($0) } ?? cue }
        var losses = ConversionLosses.beforeRendering(&edited, of: self, to: target)
        let language = outputLanguage(options)
        let bytes: [UInt8]
        switch target {
        case .srt: bytes = SRTWriter.render(edited, from: format, losses: &losses)
        case .vtt: bytes = WebVTTWriter.render(edited, from: format, language: language, losses: &losses)
        case .ttml: bytes = TTMLWriter.render(edited, from: format, language: language, losses: &losses)
        }
        losses += ConversionLosses.document(self, to: target)
        losses += ConversionLosses.language(self, to: target)
        losses += ConversionLosses.encoding(from: source.encoding, to: outputEncoding(convertingTo: target, options: options))
        var seen = Set<String>()
        return Conversion(data: Data(bytes), losses: losses.filter { seen.insert($0).inserted })
    }
}

extension Cue {
    /// The cue with an edit applied to its runs (for conversion, where the
    /// target writer renders runs rather than splicing source bytes). The
    /// appended text goes where `AppendPoint` puts it, with the style it
    /// gives, so a converted file shows it as the source would.
    func applying(_ edit: CueEdit) -> Cue {
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
