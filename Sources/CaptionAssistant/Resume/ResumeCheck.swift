import Assistant
import Foundation
import JSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether `--resume` may skip a file because an earlier run already
/// wrote it completely, with the same input and options.
///
/// A file is skipped only when all of these hold:
/// - its caption and its sidecar are regular files in the output folder
///   (not links), both modified no earlier than the input;
/// - the sidecar is complete: it reads back as a report and prints back to
///   exactly its own bytes;
/// - the sidecar is for this input and output, records no error and an
///   available model (a file whose model failed or was unavailable is
///   processed again: the model may answer now), and records the same
///   options (`OutputSettings`);
/// - the SHA-256 of the input and of the caption in the output folder are
///   those the sidecar records. The times alone never decide: a copy or a
///   checkout changes them, and a coarse clock can miss an edit.
enum ResumeCheck {
    /// What the check found: the report to reuse and its sidecar's bytes
    /// (when the file can be skipped), and the input's bytes when it had to
    /// read them (so they are not read twice).
    struct Finding {
        var report: FileReport?
        var input: [UInt8]?
        var json: JSONValue?
    }

    static func check(_ item: InputPlan.Item, folder: OutputFolder, settings: OutputSettings) -> Finding {
        // Opened once, as every input is (`FileInput.openInput`), for its time and, when needed, its bytes.
        guard let input = try? FileInput.openInput(item) else { return Finding(report: nil, input: nil) }
        defer { close(input) }
        var inputInfo = stat()
        guard fstat(input, &inputInfo) == 0,
              let captionInfo = folder.regularFileStatus(item.output),
              let sidecarInfo = folder.regularFileStatus(OwnedNames.sidecar(of: item.output)),
              !isEarlier(captionInfo, than: inputInfo), !isEarlier(sidecarInfo, than: inputInfo),
              case .read(let report, let json) = folder.readSidecar(of: item.output),
              report.input.utf8.elementsEqual(item.input.utf8), report.output?.utf8.elementsEqual(item.output.utf8) == true,
              report.error == nil,
              report.model.availability == .available, report.fingerprint.settings == settings,
              let inputHash = report.fingerprint.inputSHA256, let outputHash = report.fingerprint.outputSHA256
        else { return Finding(report: nil, input: nil) }
        guard let input = try? FileInput.read(descriptor: input, limit: FileInput.maximumSize) else { return Finding(report: nil, input: nil) }
        guard SHA256.hex(input) == inputHash,
              let caption = folder.read(item.output, limit: FileInput.maximumSize), SHA256.hex(caption) == outputHash
        else { return Finding(report: nil, input: input) }
        return Finding(report: report, input: input, json: json)
    }

    /// Whether `a` was last modified before `b`.
    private static func isEarlier(_ a: stat, than b: stat) -> Bool {
        #if canImport(Darwin)
        let (x, y) = (a.st_mtimespec, b.st_mtimespec)
        #else
        let (x, y) = (a.st_mtim, b.st_mtim)
        #endif
        return (x.tv_sec, x.tv_nsec) < (y.tv_sec, y.tv_nsec)
    }
}
