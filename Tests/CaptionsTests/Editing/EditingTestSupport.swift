@testable import Captions

// Cues built by hand and the text an edit emphasises, for the KeywordEmphasis and EmphasisDensity suites.

/// Builds a cue from run descriptions: plain strings are text, `<…>` strings markup, "\n" a line break.
func makeCue(_ parts: [String], bold: Set<Int> = []) -> Cue {
    var runs: [TextRun] = []
    var offset = 0
    for (i, part) in parts.enumerated() {
        let kind: TextRun.Kind = part == "\n" ? .lineBreak : (part.hasPrefix("<") ? .markup : .text)
        let n = part.utf8.count
        runs.append(TextRun(kind: kind, text: part, style: bold.contains(i) ? .bold : [], source: offset..<offset + n))
        offset += n
    }
    return Cue(start: CaptionTime(milliseconds: 0), end: CaptionTime(milliseconds: 1000), line: 1, runs: runs, textRange: 0..<offset)
}

/// The emphasised substrings of one cue, in order.
func emphasised(_ cue: Cue, _ edit: CueEdit?) -> [String] {
    (edit?.emphasis ?? []).map { r in
        let bytes = Array(cue.runs[r.run].text.utf8)
        return String(decoding: bytes[r.utf8], as: UTF8.self)
    }
}
