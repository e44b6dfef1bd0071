// libFuzzer entry point for reading the tool's own reports, built by
// scripts/fuzz.sh (target `report`) from the CaptionAssistant module's sources
// (with Captions and Assistant as modules of their own): what `merge` and
// `review` read, from files anyone may have edited or damaged.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import JSON

/// A scratch folder for the whole fuzzing run (one process), made once.
private let scratch: String = {
    let path = NSTemporaryDirectory() + "caption-assistant-report-fuzz-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

/// Writes `bytes` as the only file of the folder `name` under the scratch folder.
private func folder(_ name: String, holding file: String, _ bytes: [UInt8]) -> String {
    let path = scratch + "/" + name
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: path + "/" + file, contents: Data(bytes))
    return path
}

/// The input as `merge` and `review` read it. The oracle: nothing traps or
/// crashes (a number too large, a value of the wrong kind, a cut or changed
/// file: each is a typed error), and what reads strictly writes back as it
/// was read:
/// 1. as a shard's report part, merged (damaged: refused; whole: merged);
/// 2. as `report.json`, streamed strictly (every entry a `FileReport` that
///    round-trips, the totals counted with checked arithmetic) and leniently
///    (review's `Entry`), and reviewed;
/// 3. the entries that read strictly, made into a part as a shard writes one
///    and merged: that must succeed (unless their counts cannot be added) and
///    give exactly the `report.json` one run writes for them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReportReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    // 1. As a part.
    let parts = folder("part", holding: "report.shard-0-of-1.json", bytes)
    _ = try? ReportMerge.merge(folder: parts)

    // 2. As report.json: strictly, leniently, and reviewed.
    let report = folder("report", holding: "report.json", bytes)
    var strict: [FileReport] = []
    var allStrict = true
    let fd = open(report + "/report.json", O_RDONLY)
    if fd >= 0 {
        var totals = BatchReport.Totals()
        var index = 0
        _ = try? ReportEnvelope.read(fd, name: "report.json", entry: { json in
            let entry = ReviewSite.Entry(json, index: index)
            _ = try? totals.add(entry.report)
            index += 1
            guard let file = try? FileReport(reportJSON: json) else { allStrict = false; return }
            guard let again = try? FileReport(reportJSON: file.json), again == file else {
                fatalError("an entry that reads strictly does not read back as itself: \(json.oneLine(spaced: true))")
            }
            strict.append(file)
        })
        close(fd)
    }
    _ = try? ReviewSite.build(outputFolder: report, jobs: 1)

    // 3. The entries that read strictly, as a part of a run of one shard.
    var totals = BatchReport.Totals()
    guard allStrict, !strict.isEmpty, (try? strict.forEach { try totals.add($0) }) != nil else { return 0 }
    let part = ReportPart(shard: Shard(index: 0, count: 1), plan: "fuzz", planFiles: strict.count, first: 0, files: strict.count,
                          settings: OutputSettings(backend: "fake"))
    var hash = SHA256()
    var envelope = ReportEnvelope(shard: part, totals: totals)
    var written = envelope.opening()
    // What one run writes for these entries: report.json's envelope around the same entries.
    var expected = ReportEnvelope(totals: totals).opening()
    for (i, file) in strict.enumerated() {
        let entry = JSONStreamWriter.element(file.json)
        hash.update(entry)
        written += JSONStreamWriter.separator(first: i == 0) + entry
        expected += JSONStreamWriter.separator(first: i == 0) + entry
    }
    envelope.entriesSHA256 = hash.finalizeHex()
    written += envelope.closing(empty: false)
    expected += ReportEnvelope(totals: totals).closing(empty: false)
    let whole = folder("whole", holding: part.name, written)
    do {
        let merged = try ReportMerge.merge(folder: whole)
        guard merged.totals == totals,
              let out = FileManager.default.contents(atPath: whole + "/report.json"), Array(out) == expected else {
            fatalError("a whole part did not merge into the report.json one run writes")
        }
    } catch {
        fatalError("a whole part was refused: \(error.localizedDescription)")
    }
    return 0
}
