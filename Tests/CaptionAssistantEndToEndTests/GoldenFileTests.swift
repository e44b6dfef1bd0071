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

    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: fixtures.appendingPathComponent($0 + "/args.txt").path) }.sorted()
    }

    static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" }

    @Test func thereAreGoldenCases() {
        #expect(Self.cases.count >= 15)
    }

    @Test(arguments: cases)
    func goldenCase(_ name: String) throws {
        #if canImport(FoundationModels)
        // The no-model case records Linux's answer (no Foundation Models in the build).
        if name == "no-model" { return }
        #endif
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
