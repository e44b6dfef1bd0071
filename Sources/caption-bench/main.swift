// caption-bench: times our readers and writers on the benchmark corpus made by
// `python3 ../shared/bench/gen_corpus.py DIR`, in a release build:
//
//   swift run -c release caption-bench DIR [--runs N]
//
// Each (file, mode) is measured in a child process of its own, so the peak
// resident memory printed belongs to that one job. Files are read and written
// the way the product reads and writes them (`readCaptions`, `writeCaptions`:
// the whole file read once, decoded, read with its extension as the hint;
// the writer's bytes written atomically by `AtomicFileWriter`). Modes:
//   roundtrip  read, then write with no edits (the lossless path)
//   edit-all   read, then write with an edit in every cue (bold first word and
//              an appended " 🎬"): the worst case for splicing
//
//   swift run -c release caption-bench keywords FILE [N ...] [--runs R]
//
// Cost against the number of keywords: for each N (default 1 10 100), the
// pipeline's keyword emphasis (`KeywordEmphasis`, as `SuggestionApplier` runs
// it) with the N most frequent words of the transcript, then the write with
// those edits; one line each: time and peak memory (each N in its own process).
//
//   swift run -c release caption-bench measure-keywords FILE N|WORD,WORD…
//
// One keyword job in this process (what `keywords` runs per N): the N most
// frequent ASCII words, or the comma-separated keywords given (text in other
// scripts); prints cues, keywords, occurrences, emphasis and write seconds,
// output bytes and peak memory.
//
//   swift run -c release caption-bench transcript FILE [--runs R]
//
// The transcript the model is sent before capping (`Transcript.text`: every
// cue's readable text), made R times (default 5) from one read of FILE: the
// fastest and median seconds (what `--model none` spends on it per file).
//
//   swift run -c release caption-bench sha256 FILE [--runs R]
//
// The pipeline's SHA-256 (`SHA256.hex`, as `--resume` fingerprints inputs and
// outputs) over the whole file held in memory, R times (default 5): the fastest
// and median ns per byte and the digest (compare it with `sha256sum FILE`).
//
//   swift run -c release caption-bench fallback FOLDER [--runs R]
//
// The local fallback's own work (`--fallback local`) on every caption file of
// FOLDER, read once into memory: the transcript's start (`Transcript.start`,
// the default --max-characters cut), the fallback's suggestions
// (`LocalFallback.suggestions`) and the keyword emphasis of its keywords
// (`KeywordEmphasis`, every cue), each timed over all files R times (default
// 5): fastest and median seconds of each, no file written.
//
//   swift run -c release caption-bench fallback-write FOLDER [--runs R]
//
// The writing of the emphasised cues (`CaptionDocument.write(edits:)`) of
// every caption file of FOLDER, read once into memory, with the edits of the
// local fallback's keywords (as `fallback` finds them), R times (default 5),
// and the same documents written with no edit (what the plain path does):
// fastest and median seconds of each, no file written.
import Assistant
import CaptionAssistant
import Captions
import Foundation
#if canImport(Glibc)
import Glibc
#endif

#if canImport(Glibc)
let RUSAGE_SELF_VALUE = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
let RUSAGE_SELF_VALUE = RUSAGE_SELF
#endif

func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF_VALUE, &usage)
    return Int(usage.ru_maxrss) * 1024  // Linux reports KiB
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// Reads the caption file at `path` as the product does: the whole file
/// (`FileInput`, which reads only regular files), decoded, then read with
/// its extension as the format hint (as `InputPlan` gives it).
func readCaptions(_ path: String) throws -> CaptionDocument {
    let bytes = try FileInput.read(path)
    return try CaptionDocument.read(SourceText.decode(bytes: bytes), hint: CaptionFormat(fileExtension: (path as NSString).pathExtension))
}

/// Writes `doc` with `edits` to `path` as the product does: the writer's
/// bytes (`writeBytes`, no copy for UTF-8 without a mark), written
/// atomically (`AtomicFileWriter`: an unnamed file linked in when complete,
/// or a temporary name renamed). Returns the bytes written.
@discardableResult
func writeCaptions(_ doc: CaptionDocument, edits: [Int: CueEdit] = [:], to path: String) throws -> Int {
    let bytes = try doc.writeBytes(edits: edits)
    try AtomicFileWriter.write(bytes, to: path)
    return bytes.count
}

/// Runs one job and prints one line: `cues readSeconds writeSeconds outputBytes peakRSS`.
func measure(path: String, mode: String) throws {
    let clock = ContinuousClock()
    let start = clock.now
    let doc = try readCaptions(path)
    let afterRead = clock.now
    var edits: [Int: CueEdit] = [:]
    if mode == "edit-all" {
        for (i, cue) in doc.cues.enumerated() {
            var edit = CueEdit()
            if let r = cue.runs.firstIndex(where: { $0.kind == .text && !$0.style.contains(.bold) }) {
                let word = cue.runs[r].text.utf8.prefix { $0 != UInt8(ascii: " ") }.count
                if word > 0 { edit.emphasis = [.init(run: r, utf8: 0..<word)] }
            }
            if i == doc.cues.count - 1 { edit.appendedText = " 🎬" }
            edits[i] = edit
        }
    }
    let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("caption-bench-\(getpid())").path
    let written = try writeCaptions(doc, edits: edits, to: tmp)
    let end = clock.now
    try? FileManager.default.removeItem(atPath: tmp)
    print(doc.cues.count, seconds(afterRead - start), seconds(end - afterRead), written, peakResidentBytes())
}

func run(_ args: [String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL
    p.arguments = args
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    return String(decoding: data, as: UTF8.self)
}

/// The `n` most frequent words (three or more ASCII letters, lower-cased) of the transcript, ties alphabetical.
/// Counted in one pass over the bytes, so a million-cue transcript costs no word list.
func frequentWords(_ transcript: String, _ n: Int) -> [String] {
    var counts: [[UInt8]: Int] = [:]
    var word: [UInt8] = []
    func finish() {
        if word.count >= 3 { counts[word, default: 0] += 1 }
        word.removeAll(keepingCapacity: true)
    }
    for b in transcript.utf8 {
        let lower = b | 0x20
        if lower >= 0x61 && lower <= 0x7A { word.append(lower) } else { finish() }
    }
    finish()
    return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key) }
        .prefix(n).map { String(decoding: $0.key, as: UTF8.self) }
}

/// Runs one keyword job and prints `cues keywords occurrences emphasisSeconds writeSeconds outputBytes peakRSS`:
/// the `count` most frequent ASCII words, or the keywords given (`given`, for text in other scripts).
func measureKeywords(path: String, count: Int, given: [String]? = nil) throws {
    let clock = ContinuousClock()
    let doc = try readCaptions(path)
    let keywords = given ?? frequentWords(Transcript.text(of: doc), count)  // the transcript is dropped at once
    let start = clock.now
    // As the pipeline calls it (SuggestionApplier).
    let result = KeywordEmphasis(keywords: keywords).apply(to: doc.cues)
    let afterEmphasis = clock.now
    let bytes = try doc.writeBytes(edits: result.edits)
    let end = clock.now
    print(doc.cues.count, keywords.count, result.occurrences, seconds(afterEmphasis - start), seconds(end - afterEmphasis),
          bytes.count, peakResidentBytes())
}

let args = Array(CommandLine.arguments.dropFirst())

/// The `--runs N` given (at least 1), or `otherwise`.
func runsOption(otherwise: Int) -> Int {
    guard let i = args.firstIndex(of: "--runs"), i + 1 < args.count, let r = Int(args[i + 1]) else { return otherwise }
    return max(1, r)
}

/// Says `caption-bench: PATH: WHY` on standard error and exits with status 1.
func fail(_ path: String, _ why: String) -> Never {
    FileHandle.standardError.write(Data("caption-bench: \(path): \(why)\n".utf8))
    exit(1)
}

/// The seconds each of `runs` calls of `body` took, fastest first.
func sortedSeconds(_ runs: Int, _ body: () -> Void) -> [Double] {
    let clock = ContinuousClock()
    return (0..<runs).map { _ in
        let start = clock.now
        body()
        return seconds(clock.now - start)
    }.sorted()
}
if args.first == "transcript", args.count >= 2 {
    // The transcript (`Transcript.text`, the cues' readable text joined) of one
    // file read once, made R times (default 5): fastest and median seconds.
    do {
        let doc = try readCaptions(args[1])
        let runs = runsOption(otherwise: 5)
        var characters = 0
        let times = sortedSeconds(runs) { characters = Transcript.text(of: doc).utf8.count }
        print(String(format: "%d cues, %d bytes of text, %d runs: fastest %.4f s, median %.4f s", doc.cues.count, characters, runs,
                     times[0], times[times.count / 2]))
    } catch {
        fail(args[1], error.localizedDescription)
    }
    exit(0)
}
/// Every caption file of `folder` that reads, in name order (exits when none does).
func readCaptionFolder(_ folder: String) -> [CaptionDocument] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        .filter { ["srt", "vtt", "ttml"].contains(($0 as NSString).pathExtension) }
    let documents = names.compactMap { try? readCaptions((folder as NSString).appendingPathComponent($0)) }
    guard !documents.isEmpty else { fail(folder, "holds no caption file that reads") }
    return documents
}
if args.first == "fallback", args.count >= 2 {
    let documents = readCaptionFolder(args[1])
    let runs = runsOption(otherwise: 5)
    let cap = PromptBuilder.defaultMaxCharacters
    var transcripts: [String] = []
    var suggestions: [Suggestions] = []
    var occurrences = 0
    let start = sortedSeconds(runs) { transcripts = documents.map { Transcript.start(of: $0, characters: cap) } }
    let fallback = sortedSeconds(runs) {
        suggestions = transcripts.map { LocalFallback.suggestions(for: $0, maxCharacters: cap, language: nil) }
    }
    let keywords = suggestions.map { suggestion -> [String] in
        if case .applied(let words) = suggestion.keywords { return words }
        return []
    }
    let emphasis = sortedSeconds(runs) {
        occurrences = zip(documents, keywords).reduce(0) { $0 + KeywordEmphasis(keywords: $1.1).apply(to: $1.0.cues).occurrences }
    }
    print(String(format: "%d files, %d runs (fastest / median s): transcript start %.4f / %.4f, suggestions %.4f / %.4f, emphasis %.4f / %.4f (%d occurrences)",
                 documents.count, runs, start[0], start[runs / 2], fallback[0], fallback[runs / 2], emphasis[0], emphasis[runs / 2], occurrences))
    exit(0)
}
if args.first == "fallback-write", args.count >= 2 {
    let documents = readCaptionFolder(args[1])
    let runs = runsOption(otherwise: 5)
    let cap = PromptBuilder.defaultMaxCharacters
    let edits = documents.map { document -> [Int: CueEdit] in
        let suggestions = LocalFallback.suggestions(for: Transcript.start(of: document, characters: cap), maxCharacters: cap, language: nil)
        guard case .applied(let words) = suggestions.keywords else { return [:] }
        return KeywordEmphasis(keywords: words).apply(to: document.cues).edits
    }
    var bytes = 0
    let emphasised = sortedSeconds(runs) {
        bytes = zip(documents, edits).reduce(0) { $0 + ((try? $1.0.write(edits: $1.1))?.count ?? 0) }
    }
    let plain = sortedSeconds(runs) { bytes = documents.reduce(0) { $0 + ((try? $1.write())?.count ?? 0) } }
    print(String(format: "%d files, %d edited cues, %d runs (fastest / median s): written with the edits %.4f / %.4f, plain %.4f / %.4f (%d bytes)",
                 documents.count, edits.reduce(0) { $0 + $1.count }, runs, emphasised[0], emphasised[runs / 2], plain[0], plain[runs / 2], bytes))
    exit(0)
}
if args.first == "sha256", args.count >= 2 {
    guard let data = FileManager.default.contents(atPath: args[1]) else { fail(args[1], "cannot be read") }
    let bytes = [UInt8](data)
    let runs = runsOption(otherwise: 5)
    var digest = ""
    let times = sortedSeconds(runs) { digest = SHA256.hex(bytes) }
    let perByte = { (t: Double) in t * 1e9 / Double(max(1, bytes.count)) }
    print(String(format: "%d bytes, %d runs: fastest %.3f ns/byte, median %.3f ns/byte (%.0f MB/s)", bytes.count, runs,
                 perByte(times[0]), perByte(times[times.count / 2]), Double(bytes.count) / times[times.count / 2] / 1e6))
    print(digest)
    exit(0)
}
if args.first == "measure-keywords", args.count == 3 {
    // A number of frequent words, or a comma-separated list of keywords.
    let given = Int(args[2]) == nil ? args[2].split(separator: ",").map(String.init) : nil
    do { try measureKeywords(path: args[1], count: Int(args[2]) ?? 0, given: given) } catch {
        fail(args[1], error.localizedDescription)
    }
    exit(0)
}
if args.first == "keywords", args.count >= 2 {
    let path = args[1]
    var counts: [Int] = []
    var runs = 3
    var i = 2
    while i < args.count {
        if args[i] == "--runs", i + 1 < args.count, let r = Int(args[i + 1]) { runs = max(1, r); i += 2; continue }
        if let n = Int(args[i]) { counts.append(n) }
        i += 1
    }
    if counts.isEmpty { counts = [1, 10, 100] }
    let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    print("| file | MB | cues | keywords | occurrences | emphasis s | write s | emphasis µs per 1k cues | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in counts {
        var rows: [[Double]] = []
        for _ in 0..<runs {
            guard let line = try? run(["measure-keywords", path, String(n)]) else { print("| \(path) | failed |"); break }
            rows.append(line.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        }
        guard !rows.isEmpty, rows.allSatisfy({ $0.count == 7 }) else { continue }
        rows.sort { $0[3] < $1[3] }
        let m = rows[rows.count / 2]
        print(String(format: "| %@ | %.1f | %.0f | %.0f | %.0f | %.3f | %.3f | %.1f | %.0f |",
                     (path as NSString).lastPathComponent, size / 1e6, m[0], m[1], m[2], m[3], m[4],
                     m[3] * 1e6 / max(1, m[0] / 1000), (rows.map { $0[6] }.max() ?? 0) / 1048576))
    }
    exit(0)
}
// `caption-bench copy IN OUT`: the read and the atomic write the product
// runs, alone (no model, no report), for peers.py to time beside the peer
// tools and count the cues of.
if args.first == "copy", args.count == 3 {
    do {
        try writeCaptions(try readCaptions(args[1]), to: args[2])
    } catch {
        fail(args[1], error.localizedDescription)
    }
    exit(0)
}
if args.first == "measure", args.count == 3 {
    do { try measure(path: args[1], mode: args[2]) } catch {
        fail(args[1], error.localizedDescription)
    }
    exit(0)
}
guard let dir = args.first, !dir.hasPrefix("-") else {
    print("usage: caption-bench DATA_DIR [--runs N]   (make DATA_DIR with python3 scripts/gen-corpus.py DATA_DIR)")
    exit(64)
}
let runs = runsOption(otherwise: 5)

print("| file | MB | cues | mode | read s | write s | total s | MB/s | peak RSS MiB | RSS / file |")
print("|---|---|---|---|---|---|---|---|---|---|")
for name in ["large.srt", "large_crlf.srt", "large.vtt", "large.ttml"] {
    let path = (dir as NSString).appendingPathComponent(name)
    guard FileManager.default.fileExists(atPath: path) else { continue }
    let size = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    for mode in ["roundtrip", "edit-all"] {
        var rows: [[Double]] = []
        for _ in 0..<runs {
            guard let line = try? run(["measure", path, mode]) else { print("| \(name) | failed |"); break }
            rows.append(line.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        }
        guard !rows.isEmpty, rows.allSatisfy({ $0.count == 5 }) else { continue }
        rows.sort { $0[1] + $0[2] < $1[1] + $1[2] }
        let m = rows[rows.count / 2]
        let total = m[1] + m[2]
        let peak = rows.map { $0[4] }.max() ?? 0
        print(String(format: "| %@ | %.1f | %.0f | %@ | %.3f | %.3f | %.3f | %.0f | %.0f | %.2f× |",
                     name, size / 1e6, m[0], mode, m[1], m[2], total, size / 1e6 / total, peak / 1048576, peak / size))
    }
}
