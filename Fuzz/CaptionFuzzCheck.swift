// Compiled only into the libFuzzer targets (scripts/fuzz.sh), together with the
// Captions module's own sources, so it may call the readers directly.
import Foundation

/// The oracle every caption fuzz target applies to one input.
///
/// A reader may refuse the bytes with a `CaptionError`; anything else it throws,
/// and any trap, is a bug. When the bytes read:
/// 1. writing with no edits must give back exactly the input (when the decode was
///    lossless: UTF-16/32 with lone surrogates or a cut-off character is not);
/// 2. writing with a small edit (bold on the first word of the first cue's first
///    plain run, text appended to the last cue) must succeed and read again with
///    the same reader, with the same number of cues;
/// 3. converting (with that edit) to each other format must give a file that
///    format's reader reads.
enum CaptionFuzzCheck {
    static func run(_ data: UnsafePointer<UInt8>, _ size: Int, reader: (SourceText) throws -> CaptionDocument) {
        let input = Data(bytes: data, count: size)
        let source: SourceText
        do { source = try SourceText.decode(input) } catch is CaptionError { return } catch {
            fatalError("SourceText.decode threw a non-CaptionError: \(error)")
        }
        let document: CaptionDocument
        do { document = try reader(source) } catch is CaptionError { return } catch {
            fatalError("reader threw a non-CaptionError: \(error)")
        }
        for cue in document.cues {
            precondition(cue.textRange.lowerBound >= 0 && cue.textRange.upperBound <= source.bytes.count,
                         "cue textRange \(cue.textRange) outside the source (\(source.bytes.count) bytes)")
            for run in cue.runs {
                precondition(run.source.lowerBound >= 0 && run.source.upperBound <= source.bytes.count,
                             "run source \(run.source) outside the source (\(source.bytes.count) bytes)")
            }
        }

        // 1. No edits: the input, byte for byte.
        let unchanged: Data
        do { unchanged = try document.write() } catch {
            fatalError("writing with no edits threw: \(error)")
        }
        if decodesLosslessly(input), unchanged != input {
            fatalError("writing with no edits changed the bytes: \(input.count) in, \(unchanged.count) out")
        }

        // 2. A small edit must write and read again.
        guard !document.cues.isEmpty else { return }
        var edits: [Int: CueEdit] = [:]
        for (i, cue) in document.cues.enumerated() {
            guard let r = cue.runs.firstIndex(where: { $0.kind == .text && !$0.style.contains(.bold) }) else { continue }
            let word = cue.runs[r].text.utf8.prefix { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }.count
            if word > 0 { edits[i] = CueEdit(emphasis: [.init(run: r, utf8: 0..<word)]) }
            break
        }
        let last = document.cues.count - 1
        edits[last, default: CueEdit()].appendedText = " [fuzz]"
        let edited: Data
        do { edited = try document.write(edits: edits) } catch {
            fatalError("writing with a small edit threw: \(error)")
        }
        let again: CaptionDocument
        do { again = try reader(try SourceText.decode(edited)) } catch {
            fatalError("the edited output does not read again: \(error)")
        }
        if again.cues.count != document.cues.count {
            fatalError("the edited output reads as \(again.cues.count) cues, the input as \(document.cues.count)")
        }

        // 3. Conversion to the other formats (with the same edit) must give a file
        //    the target's reader reads.
        for target in CaptionFormat.allCases where target != document.format {
            let converted: Conversion
            do { converted = try document.converted(to: target, edits: edits) } catch {
                fatalError("converting to \(target) threw: \(error)")
            }
            let read: (SourceText) throws -> CaptionDocument = switch target {
            case .srt: SRTReader.read
            case .vtt: WebVTTReader.read
            case .ttml: TTMLReader.read
            }
            do { _ = try read(try SourceText.decode(converted.data)) } catch {
                fatalError("the \(target) conversion does not read: \(error)\n\(String(decoding: converted.data.prefix(2000), as: UTF8.self))")
            }
        }
    }

    /// Whether `SourceText.decode` keeps every character of `data`: true unless it is
    /// UTF-16 or UTF-32 (by byte-order mark or the zero-byte guess) holding invalid
    /// code units or a cut-off final character (a legacy set is taken only when it round-trips). Decides from the decoder's own
    /// verdict on the encoding, checked here independently.
    static func decodesLosslessly(_ data: Data) -> Bool {
        guard let source = try? SourceText.decode(data) else { return true }
        let raw = [UInt8](data)
        switch source.encoding {
        case .utf8, .windows1252: return true
        case .utf16LittleEndian, .utf16BigEndian:
            let body = raw.dropFirst(source.hasByteOrderMark ? 2 : 0)
            guard body.count % 2 == 0 else { return false }
            let little = source.encoding == .utf16LittleEndian
            var units: [UInt16] = []
            var i = body.startIndex
            while i + 1 < body.endIndex {
                let a = UInt16(body[i]), b = UInt16(body[i + 1])
                units.append(little ? (b << 8 | a) : (a << 8 | b)); i += 2
            }
            var it = units.makeIterator(); var decoder = UTF16()
            while true {
                switch decoder.decode(&it) {
                case .scalarValue: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        case .utf32LittleEndian, .utf32BigEndian:
            let body = raw.dropFirst(source.hasByteOrderMark ? 4 : 0)
            guard body.count % 4 == 0 else { return false }
            let little = source.encoding == .utf32LittleEndian
            var i = body.startIndex
            while i + 3 < body.endIndex {
                let q = (0..<4).map { UInt32(body[i + $0]) }
                let v = little ? (q[3] << 24 | q[2] << 16 | q[1] << 8 | q[0]) : (q[0] << 24 | q[1] << 16 | q[2] << 8 | q[3])
                if Unicode.Scalar(v) == nil { return false }
                i += 4
            }
            return true
        default:
            // A legacy set (Shift_JIS, GB18030, KOI8-R, …) is taken only when converting the text back gives the input's bytes.
            return true
        }
    }
}
