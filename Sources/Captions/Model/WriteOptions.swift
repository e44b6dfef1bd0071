/// How a document is written besides the edits to its cues: the encoding of
/// a file written in its own format, and a language to declare.
public struct WriteOptions: Sendable, Hashable {
    /// The encoding a file written in its own format gets.
    public var encoding: OutputEncoding
    /// A BCP 47 tag to declare where the file declares no language (WebVTT's
    /// `Language:` header, TTML's `xml:lang`; SRT has no place for one). A
    /// file that declares its own language keeps it.
    public var language: String?

    /// Creates options; the defaults write a file as it came.
    public init(encoding: OutputEncoding = .keep, language: String? = nil) {
        self.encoding = encoding; self.language = language
    }
}

/// The encoding a caption file written in its own format gets (`--encoding`).
/// A file converted to another format is always UTF-8.
public enum OutputEncoding: String, Sendable, Hashable, CaseIterable {
    /// The file's own encoding and byte-order mark, so that what is not
    /// edited is written back byte for byte.
    case keep
    /// UTF-8, which holds every character: a file in another encoding
    /// (Windows-1252, UTF-16, UTF-32) is written as UTF-8 without a
    /// byte-order mark; a UTF-8 file is written as it came (its mark kept).
    case utf8 = "utf-8"
}

extension CaptionDocument {
    /// The encoding a write gives: UTF-8 for a conversion to another format
    /// and with `OutputEncoding.utf8`, otherwise the file's own.
    public func outputEncoding(convertingTo target: CaptionFormat? = nil, options: WriteOptions = WriteOptions()) -> TextEncoding {
        if let target, target != format { return .utf8 }
        return options.encoding == .utf8 ? .utf8 : source.encoding
    }

    /// Whether a write with `edits` and `options` gives the input's bytes
    /// exactly (then the caller can write the input itself).
    public func writesInputUnchanged(edits: [Int: CueEdit], options: WriteOptions = WriteOptions()) -> Bool {
        edits.values.allSatisfy(\.isEmpty) && outputEncoding(options: options) == source.encoding
            && prologEdits(options).isEmpty
    }

    /// What a write in the file's own format with `options` changes that is
    /// not a cue edit, one sentence each for the report's `losses`: the
    /// encoding, when it is not the file's own.
    public func losses(writing options: WriteOptions) -> [String] {
        ConversionLosses.encoding(from: source.encoding, to: outputEncoding(options: options))
    }

    /// The bytes (UTF-8) to be written, with the byte-order mark the output gets.
    func encoded(_ utf8: [UInt8], options: WriteOptions) throws -> [UInt8] {
        if outputEncoding(options: options) == .utf8 && (source.encoding != .utf8 || !source.hasByteOrderMark) { return utf8 }
        if source.encoding == .utf8 { return [0xEF, 0xBB, 0xBF] + utf8 }
        return [UInt8](try source.encode(utf8))
    }

    /// Edits before the first cue that `options` ask for, in order: the XML
    /// declaration's `encoding` made `UTF-8` when a TTML file is written as
    /// UTF-8 from another encoding, and `options.language` declared where
    /// the file declares none (an empty or `und` value replaced, or a
    /// `Language:` line or `xml:lang` attribute added). A value that is not a
    /// well-formed tag is the file's own and is left as it is.
    func prologEdits(_ options: WriteOptions) -> [(range: Range<Int>, bytes: [UInt8])] {
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        let bytes = source.bytes
        let language = declaredLanguage == nil ? outputLanguage(options) : nil
        switch payload {
        case .ttml(let payload):
            if outputEncoding(options: options) != source.encoding, let value = XMLDeclaration.encodingValue(in: bytes),
               String(decoding: bytes[value], as: UTF8.self).lowercased() != "utf-8" {
                edits.append((value, Array("UTF-8".utf8)))
            }
            if let language {
                if let value = payload.rootLanguageValue {
                    edits.append((value, Array(TTMLWriter.escapeAttribute(language).utf8)))
                } else {
                    let at = payload.rootAttributesEnd
                    edits.append((at..<at, Array(" xml:lang=\"\(TTMLWriter.escapeAttribute(language))\"".utf8)))
                }
            }
        case .vtt(_, let header):
            if let language { edits.append(header.languageEdit(language)) }
        case .none:
            break
        }
        guard !edits.isEmpty else { return edits }
        // Only the prolog: every edit lies before the first cue's text, where cue edits never move a byte.
        let limit = cues.map(\.textRange.lowerBound).min() ?? bytes.count
        return edits.filter { $0.range.lowerBound >= 0 && $0.range.upperBound <= min(limit, bytes.count) }
    }
}

/// The XML declaration at the start of a document (`<?xml version="1.0" encoding="UTF-16"?>`).
enum XMLDeclaration {
    /// The byte range of the declaration's `encoding` value (between its
    /// quotes), or nil when the document has no declaration or it names no encoding.
    static func encodingValue(in bytes: [UInt8]) -> Range<Int>? {
        let open = Array("<?xml".utf8)
        guard bytes.count > open.count, bytes.starts(with: open), XMLBytes.isSpace(bytes[open.count]) else { return nil }
        guard let close = (open.count..<(min(bytes.count, 1024) - 1)).first(where: { bytes[$0] == UInt8(ascii: "?") && bytes[$0 + 1] == UInt8(ascii: ">") }) else { return nil }
        let name = Array("encoding".utf8)
        var i = open.count
        while i + name.count <= close {
            if XMLBytes.isSpace(bytes[i - 1]), bytes[i..<(i + name.count)].elementsEqual(name) {
                var j = i + name.count
                while j < close, XMLBytes.isSpace(bytes[j]) { j += 1 }
                guard j < close, bytes[j] == UInt8(ascii: "=") else { return nil }
                j += 1
                while j < close, XMLBytes.isSpace(bytes[j]) { j += 1 }
                guard j < close, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") else { return nil }
                let quote = bytes[j]
                guard let end = ((j + 1)..<close).first(where: { bytes[$0] == quote }) else { return nil }
                return (j + 1)..<end
            }
            i += 1
        }
        return nil
    }
}
