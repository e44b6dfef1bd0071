import Foundation
import Testing
import TestSupport

/// Runs the executable on every case in `UITestFixtures/` and compares every
/// file it writes, its exit status, standard output and standard error with
/// the golden copies, byte for byte (nothing is normalised).
///
/// A case is a folder with `input/` (copied to a scratch folder, which is the
/// working folder of the run, so paths in reports are the same everywhere),
/// `args.txt` (one argument per line), `expected/` (every file the run writes
/// under `output/`), `exit-code.txt`, `stdout.txt` and `stderr.txt`.
///
/// `UPDATE_GOLDENS=1` rewrites the golden files (refused when `CI` is set). A
/// golden file that does not exist is written and the test still fails, so a
/// new case is never passed without being looked at.
@Suite(.mayBlock) struct GoldenFileTests {
    static let fixtures = ExecutableRun.packageRoot.appendingPathComponent("UITestFixtures")

    /// Every case, by name: a case deleted or added without being named
    /// here fails `theCasesAreExactlyThese`.
    static let expectedCases = [
        "actions-titles-only",
        "actions-with-no-model-json",
        "convert",
        "convert-to-srt",
        "emoji-after-last-visible-character-srt",
        "emoji-after-last-visible-character-ttml",
        "emoji-keeps-style",
        "emphasis-first",
        "emphasis-first-in-cue-capped",
        "encoding-utf-8",
        "fake-folder",
        "fake-srt",
        "fake-ttml",
        "fake-ttml-without-tts-namespace",
        "fake-vtt",
        "fallback-model-fails",
        "fallback-no-model",
        "file-named-on-its-own-is-read-whatever-its-extension",
        "help",
        "language-option",
        "language-to-ttml",
        "language-to-vtt",
        "max-characters-cuts-between-words",
        "mixed-batch",
        "model-fails",
        "no-model",
        "no-model-json",
        "nothing-found",
        "nothing-found-allowed",
        "output-is-an-existing-file",
        "quiet-still-shows-errors",
        "reason-appleIntelligenceNotEnabled",
        "reason-deviceNotEligible",
        "reason-modelMissing",
        "reason-modelNotReady",
        "reason-serverUnreachable",
        "reason-unknown",
        "reason-unsupportedPlatform",
        "require-model-json",
        "simulate-unknown-with-message",
        "truncated",
        "usage-actions-did-you-mean",
        "usage-did-you-mean-command",
        "usage-did-you-mean-option",
        "usage-did-you-mean-value",
        "usage-language-not-bcp47",
        "usage-number-too-big",
        "usage-server-kind-without-endpoint",
        "usage-test-flag-takes-one-dash",
        "values-ignore-case",
        "warnings-counted",
    ]

    /// The case folders in `UITestFixtures/` (every folder not hidden).
    static var folders: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The cases every machine answers alike.
    static var cases: [String] { expectedCases.filter { $0 != "no-model" } }

    static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" }

    /// Whether this machine answers as the `no-model` case records: with no
    /// on-device model (Linux, or an Apple system whose build or OS has no
    /// Foundation Models). On a device that has one the answer is that
    /// device's own, so there the case is skipped, and the run says so.
    static let answersWithoutOnDeviceModel: Bool = {
        #if canImport(FoundationModels)
        guard let check = try? ExecutableRun.run(["check", "--json"], in: URL(fileURLWithPath: NSTemporaryDirectory())) else { return false }
        return check.stdoutText.contains("\"unsupportedPlatform\"")
        #else
        return true
        #endif
    }()

    @Test func theCasesAreExactlyThese() {
        #expect(Self.folders == Self.expectedCases)
        for name in Self.folders {
            #expect(FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent(name + "/args.txt").path),
                    "\(name) has no args.txt, so it is no case")
        }
    }

    @Test(.enabled(if: answersWithoutOnDeviceModel, "no-model records the answer of a machine with no on-device model"))
    func noModelCase() throws {
        try goldenCase("no-model")
    }

    @Test(arguments: cases)
    func goldenCase(_ name: String) throws {
        let caseFolder = Self.fixtures.appendingPathComponent(name)
        let scratch = try ScratchFolder()
        try FileManager.default.copyItem(at: caseFolder.appendingPathComponent("input"), to: scratch.url.appendingPathComponent("input"))
        let argsText = try String(contentsOf: caseFolder.appendingPathComponent("args.txt"), encoding: .utf8)
        var args = argsText.components(separatedBy: "\n")
        if args.last == "" { args.removeLast() }

        let run = try ExecutableRun.run(args, in: scratch.url)

        var actual: [String: Data] = [:]
        let outputFolder = scratch.url.appendingPathComponent("output")
        for file in filesUnder(outputFolder) {
            actual["expected/" + file] = try Data(contentsOf: outputFolder.appendingPathComponent(file))
        }
        actual["exit-code.txt"] = Data("\(run.status)\n".utf8)
        actual["stdout.txt"] = run.stdout
        actual["stderr.txt"] = run.stderr

        var golden = Set(filesUnder(caseFolder.appendingPathComponent("expected")).map { "expected/" + $0 })
        for extra in ["exit-code.txt", "stdout.txt", "stderr.txt"]
        where FileManager.default.fileExists(atPath: caseFolder.appendingPathComponent(extra).path) {
            golden.insert(extra)
        }

        if Self.updating {
            guard ProcessInfo.processInfo.environment["CI"] == nil else {
                Issue.record("UPDATE_GOLDENS is refused in CI: golden files are only rewritten on a developer's machine")
                return
            }
            try? FileManager.default.removeItem(at: caseFolder.appendingPathComponent("expected"))
            for (path, data) in actual { try write(data, to: caseFolder.appendingPathComponent(path)) }
            return
        }

        for path in actual.keys.sorted() where !golden.contains(path) {
            let data = actual[path] ?? Data()
            try write(data, to: caseFolder.appendingPathComponent(path))
            Issue.record("\(name): golden file \(path) did not exist; it has been written from this run. Review it and commit it.")
        }
        for path in golden.sorted() where actual[path] == nil {
            Issue.record("\(name): the run did not write \(path.dropFirst("expected/".count)), which the golden files expect")
        }
        for path in golden.sorted() {
            guard let data = actual[path] else { continue }
            let expectedURL = caseFolder.appendingPathComponent(path)
            let expected = try Data(contentsOf: expectedURL)
            if expected != data {
                let actualURL = scratch.url.appendingPathComponent("actual-" + expectedURL.lastPathComponent)
                try data.write(to: actualURL)
                Issue.record("\(name): \(path) differs from its golden copy (UPDATE_GOLDENS=1 rewrites it):\n\(unifiedDiff(expected: expectedURL, actual: actualURL))")
            }
        }
    }

    private func write(_ data: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
}
