/// What a conversion loses that the writers cannot see in the cues alone:
/// the parts of the source document outside its cues (WebVTT STYLE, NOTE,
/// REGION and header blocks; TTML regions, metadata and styling that cue
/// styles do not carry), and the cue changes made before rendering (ruby
/// readings, TTML paragraphs with no end). Each sentence is said only when
/// this file has the thing, so `losses` is exact.
enum ConversionLosses {
    /// How long a TTML paragraph with no end time, and nothing after it to end it, is shown once converted.
    static let openEndedDuration = CaptionTime(milliseconds: 5000)

    /// Adjusts the cues before a writer renders them, and says how.
    static func beforeRendering(_ cues: inout [Cue], of document: CaptionDocument, to target: CaptionFormat) -> [String] {
        var losses: [String] = []
        if document.format == .vtt, contains(document.source.bytes, Array("<rt".utf8)) {
            var rubies = 0
            for i in cues.indices where cues[i].runs.contains(where: { $0.kind == .markup && isTag($0.text, "rt") }) {
                cues[i].runs = parenthesizeRuby(cues[i].runs)
                rubies += 1
            }
            if rubies > 0 {
                losses.append("WebVTT ruby readings (<rt>) were written in parentheses after the text they annotate")
            }
        }
        if case .ttml(let payload) = document.payload, !payload.openEnded.isEmpty {
            var lengthened = 0
            for index in payload.openEnded where cues.indices.contains(index) && cues[index].end <= cues[index].start {
                if let end = cues[index].start.adding(openEndedDuration) { cues[index].end = end; lengthened += 1 }
            }
            let count = payload.openEnded.count
            var sentence = "\(count) TTML paragraph\(count == 1 ? " has no end time: it was" : "s have no end time: each was") given one (until the next paragraph begins"
            sentence += lengthened > 0 ? ", or 5 seconds where nothing follows)" : ")"
            losses.append(sentence)
        }
        return losses
    }

    /// The sentences for what the document has outside its cues that `target` does not get.
    static func document(_ document: CaptionDocument, to target: CaptionFormat) -> [String] {
        var losses: [String] = []
        switch document.payload {
        case .vtt(let kinds, let header):
            // The Language: line is carried, or its loss is said on its own (`language`).
            if kinds.contains(.header), !header.otherNames.isEmpty {
                let shown = header.otherNames.prefix(6).joined(separator: ", ") + (header.otherNames.count > 6 ? ", …" : "")
                losses.append("WebVTT header lines were dropped (\(shown))")
            }
            if kinds.contains(.style) { losses.append("WebVTT STYLE blocks (CSS) were dropped") }
            if kinds.contains(.region) { losses.append("WebVTT REGION definitions were dropped") }
            if kinds.contains(.note) { losses.append("WebVTT NOTE comments were dropped") }
        case .ttml(let payload):
            if !payload.uncarriedStyling.isEmpty {
                let names = payload.uncarriedStyling.sorted().map { "tts:" + $0 }
                let shown = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
                losses.append("TTML styling with no \(target == .srt ? "SRT" : "WebVTT") equivalent was dropped (\(shown))")
            }
            if payload.hasRegions { losses.append("TTML regions (where and how captions are placed) were dropped") }
            if payload.hasMetadata { losses.append("TTML metadata (titles, descriptions, agents, roles) was dropped") }
            if payload.hasForeignElements { losses.append("TTML elements in other namespaces (images, extensions) were dropped") }
        case .none:
            break
        }
        return losses
    }

    /// The sentences for the file's language that `target` does not get:
    /// every language, for SRT (which cannot declare one); for WebVTT, a
    /// TTML file's languages other than the one its `Language:` line gets
    /// (TTML can give each div, paragraph or span its own); and a declared
    /// value that is not a BCP 47 tag, which is never carried.
    static func language(_ document: CaptionDocument, to target: CaptionFormat) -> [String] {
        var declared: [String] = []
        switch document.payload {
        case .ttml(let payload): declared = payload.languages
        case .vtt(_, let header): declared = header.language.map { [$0] } ?? []
        case .none: break
        }
        var losses: [String] = []
        if let value = document.declaredLanguage, !LanguageTag.isWellFormed(value) {
            losses.append("the file's language (\(value)) is not a well-formed BCP 47 tag, so it was not carried")
        }
        let tags = declared.filter(LanguageTag.isWellFormed)
        switch target {
        case .srt where !tags.isEmpty:
            let list = tags.prefix(6).joined(separator: ", ") + (tags.count > 6 ? ", …" : "")
            losses.append(tags.count == 1 ? "the language (\(list)) was dropped: SRT files cannot declare one"
                                          : "the languages (\(list)) were dropped: SRT files cannot declare a language")
        case .vtt where document.format == .ttml:
            let kept = document.language?.lowercased()
            let others = tags.filter { $0.lowercased() != kept }
            if !others.isEmpty {
                let list = others.prefix(6).joined(separator: ", ") + (others.count > 6 ? ", …" : "")
                losses.append("TTML xml:lang on parts of the file (\(list)) was dropped: WebVTT declares one language for the whole file"
                              + (document.language.map { " (Language: \($0))" } ?? ""))
            }
        default:
            break
        }
        return losses
    }

    /// The sentence for a file written in another encoding than its own, or none.
    static func encoding(from source: TextEncoding, to written: TextEncoding) -> [String] {
        guard source != written else { return [] }
        return ["the text encoding was changed: written in \(written.rawValue), the input was in \(source.rawValue)"]
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == first, bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// Whether `raw` is an opening tag named `name` (`<rt>`, `<rt.class>`).
    static func isTag(_ raw: String, _ name: String) -> Bool {
        MarkupTag(raw).map { !$0.closing && $0.name == name } ?? false
    }

    /// Whether `raw` is a closing tag named `name`.
    static func isClosingTag(_ raw: String, _ name: String) -> Bool {
        MarkupTag(raw).map { $0.closing && $0.name == name } ?? false
    }

    /// The runs with each ruby reading put in parentheses: `kan<rt>kanji</rt>` reads "kan(kanji)".
    static func parenthesizeRuby(_ runs: [TextRun]) -> [TextRun] {
        var out: [TextRun] = []
        out.reserveCapacity(runs.count + 4)
        var inReading = false
        for run in runs {
            if run.kind == .markup {
                if isTag(run.text, "rt") {
                    out.append(run)
                    if !inReading { out.append(TextRun(kind: .text, text: "(", style: run.style, source: run.source.upperBound..<run.source.upperBound)) }
                    inReading = true
                    continue
                }
                if inReading, isClosingTag(run.text, "rt") || isClosingTag(run.text, "ruby") {
                    out.append(TextRun(kind: .text, text: ")", style: run.style, source: run.source.lowerBound..<run.source.lowerBound))
                    inReading = false
                }
            }
            out.append(run)
        }
        if inReading, let last = out.last {
            out.append(TextRun(kind: .text, text: ")", style: last.style, source: last.source.upperBound..<last.source.upperBound))
        }
        return out
    }
}
