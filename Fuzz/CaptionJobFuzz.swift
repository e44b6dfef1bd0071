// libFuzzer entry point for the whole per-file job, built by scripts/fuzz.sh
// (target `job`) from the Captions module's sources (which hold keyword
// emphasis and its word rule), compiled as one module, so that the job runs
// without the model or the batch.
import Foundation

/// The job on one input, as the batch runs it with a model that picks words
/// from the file: read (format from content) → emphasis of up to three words
/// taken from the cues → the emoji, where the file's encoding can hold it →
/// write in the file's own format, and convert to each format.
///
/// The oracle: a read file always writes and converts without throwing; the
/// written file reads again with the same number of cues; every conversion
/// reads with its target's reader, and (to another format) with the same
/// number of cues, so a conversion can neither split a cue (a blank line or
/// a timing-like line in SRT text) nor merge two.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCaptionJob(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    let document: CaptionDocument
    do { document = try CaptionDocument.read(input) } catch is CaptionError { return 0 } catch {
        fatalError("reading threw a non-CaptionError: \(error)")
    }
    guard !document.cues.isEmpty else { return 0 }

    // Keywords from the file: the first word, the longest word and the most frequent one.
    var words: [String] = []
    var counts: [String: Int] = [:]
    for cue in document.cues.prefix(200) {
        for run in cue.runs where run.kind == .text {
            for word in run.text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
                let w = String(word)
                if counts[w] == nil { words.append(w) }
                counts[w, default: 0] += 1
            }
        }
    }
    var keywords: [String] = []
    if let first = words.first { keywords.append(first) }
    if let longest = words.max(by: { $0.count < $1.count }) { keywords.append(longest) }
    if let frequent = words.max(by: { (counts[$0] ?? 0, $1) < (counts[$1] ?? 0, $0) }) { keywords.append(frequent) }
    let emphasis = KeywordEmphasis(keywords: keywords).apply(to: document.cues)
    var edits = emphasis.edits
    let emoji = document.source.encoding.canEncode(" 🎬") ? " 🎬" : " [x]"
    edits[document.cues.count - 1, default: CueEdit()].appendedText = emoji

    let written: [UInt8]
    do { written = try document.writeBytes(edits: edits) } catch {
        fatalError("writing the job's edits threw: \(error)")
    }
    // Known, not this target's class: a file with NUL bytes and no byte-order
    // mark can have its encoding guessed differently once edited (three bytes
    // of `<b>` shift which positions hold the zeros), and then not read again.
    guard let redecoded = try? SourceText.decode(bytes: written), redecoded.encoding == document.source.encoding else { return 0 }
    do {
        // Read with the format's own reader, as the reader targets do: the content
        // sniffing of a whole-file read (binary data?) is not what is checked here.
        let again = try reader(document.format)(try SourceText.decode(bytes: written))
        if again.cues.count != document.cues.count {
            fatalError("the written file reads as \(again.cues.count) cues, the input as \(document.cues.count)")
        }
    } catch {
        fatalError("the written file does not read again: \(error)")
    }

    for target in CaptionFormat.allCases {
        let conversion: Conversion
        do { conversion = try document.converted(to: target, edits: edits) } catch {
            fatalError("converting to \(target) threw: \(error)")
        }
        let back: CaptionDocument
        do { back = try CaptionDocument.read(conversion.data, hint: target) } catch {
            fatalError("the \(target) conversion does not read: \(error)\n\(String(decoding: conversion.data.prefix(2000), as: UTF8.self))")
        }
        if target != document.format, back.cues.count != document.cues.count {
            fatalError("the \(target) conversion reads as \(back.cues.count) cues, the input as \(document.cues.count)\n\(String(decoding: conversion.data.prefix(2000), as: UTF8.self))")
        }
        if Set(conversion.losses).count != conversion.losses.count { fatalError("losses repeat: \(conversion.losses)") }
    }
    return 0
}

/// The reader of a format.
func reader(_ format: CaptionFormat) -> (SourceText) throws -> CaptionDocument {
    switch format {
    case .srt: return SRTReader.read
    case .vtt: return WebVTTReader.read
    case .ttml: return TTMLReader.read
    }
}
