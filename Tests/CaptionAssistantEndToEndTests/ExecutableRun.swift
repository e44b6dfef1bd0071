import Foundation
import Testing

/// Runs the built `caption-assistant` and captures what it did.
struct ExecutableRun {
    var status: Int32
    var stdout: Data
    var stderr: Data

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    /// The package's root folder (this file is Tests/CaptionAssistantEndToEndTests/ExecutableRun.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable: next to the test bundle, in the products folder
    /// SwiftPM built (the test target depends on the executable, so it is built first).
    static var executable: URL {
        if let override = ProcessInfo.processInfo.environment["CAPTION_ASSISTANT_EXECUTABLE"] {
            return URL(fileURLWithPath: override)
        }
        var candidates = Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]))
        for bundle in candidates {
            var folder = bundle.deletingLastPathComponent()
            for _ in 0..<4 {
                let binary = folder.appendingPathComponent("caption-assistant")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
                folder = folder.deletingLastPathComponent()
            }
        }
        return packageRoot.appendingPathComponent(".build/debug/caption-assistant")
    }

    /// Runs the executable with `arguments` in `directory`, with standard input
    /// from `input`, and an environment without the user's `CAPTION_ASSISTANT_*` settings
    /// (plus `environment`, the test's own).
    /// `launcher`, when given, is a command the executable is run through
    /// (its path, then its arguments before the executable's path).
    static func run(_ arguments: [String], in directory: URL, input: Data? = nil,
                    environment extra: [String: String] = [:], launcher: [String] = []) throws -> ExecutableRun {
        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CAPTION_ASSISTANT_") }
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { $1 }
        process.environment = environment
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ca-e2e-io-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let input {
            let inURL = scratch.appendingPathComponent("stdin")
            try input.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try launch(process)
        waitForExit(process, "caption-assistant " + arguments.joined(separator: " "))
        try out.close(); try err.close()
        return ExecutableRun(status: process.terminationStatus, stdout: try Data(contentsOf: outURL), stderr: try Data(contentsOf: errURL))
    }
}

/// Foundation's `Process` on Linux can hand a child a closed descriptor (EBADF)
/// when several are launched at the same moment from parallel tests
/// (swiftlang/swift#57827); launches go one at a time. Waiting stays parallel.
private let launchLock = NSLock()

/// Starts `process`, one launch at a time.
func launch(_ process: Process) throws {
    try launchLock.withLock { try process.run() }
}

/// How long a test waits for one run of the executable before it kills it
/// and records an issue: far beyond what one run takes even on a loaded
/// machine (seconds), so only a hang reaches it.
///
/// End-to-end tests bound each wait this way rather than with
/// `.timeLimit`: a `.mayBlock` test's time limit also counts the time it
/// waits for one of its module's two executor threads, behind the other
/// end-to-end tests, so on a loaded machine a test that takes 8 s alone was
/// failed at 224 s of waiting (the whole suite took 240 s).
let processLimit: TimeInterval = 300

/// Waits for `process` (launched) to exit, for at most `limit` seconds;
/// past that, kills it (SIGKILL), waits for it, and records an issue naming
/// `what`. Returns whether it exited by itself.
@discardableResult
func waitForExit(_ process: Process, limit: TimeInterval = processLimit, _ what: @autoclosure () -> String) -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while process.isRunning {
        guard Date() < deadline else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            Issue.record("\(what()) did not finish in \(Int(limit)) s, so it was killed")
            return false
        }
        usleep(10_000)
    }
    process.waitUntilExit()
    return true
}

/// Waits until `condition` holds or `process` has exited, checking every
/// 20 ms, for at most `limit` seconds (then records an issue naming `what`):
/// a test waits for the state it tests, however slow a loaded machine makes
/// the process, never for a guessed time.
func wait(for what: @autoclosure () -> String, while process: Process, limit: TimeInterval = processLimit,
          until condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(limit)
    while process.isRunning && !condition() {
        guard Date() < deadline else {
            Issue.record("\(what()) did not happen in \(Int(limit)) s")
            return
        }
        usleep(20_000)
    }
}

/// Whether another process holds the lock on the folder at `path` (a plain
/// run's exclusive one or a shard's shared one: either excludes an exclusive
/// lock taken here), as a run holds its output folder's once its batch has started.
func isLocked(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_DIRECTORY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return true }
    flock(fd, LOCK_UN)
    return false
}

/// Waits (as `wait(for:while:)` does) until `process` holds the lock of the
/// output folder `folder`. False when it never did, or ended first.
func waitUntilLocked(_ folder: String, by process: Process) -> Bool {
    wait(for: "the lock on \(folder)", while: process) { isLocked(folder) }
    return isLocked(folder)
}

/// A temporary folder removed when the value goes away.
final class ScratchFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ca-e2e-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Every regular file under `root`, as sorted relative paths.
func filesUnder(_ root: URL) -> [String] {
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    let base = root.standardizedFileURL.pathComponents.count
    var out: [String] = []
    for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
        out.append(url.standardizedFileURL.pathComponents[base...].joined(separator: "/"))
    }
    return out.sorted()
}

/// A unified diff of two files (from `diff -u`), for failure messages.
func unifiedDiff(expected: URL, actual: URL) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["diff", "-u", "--label", "expected/" + expected.lastPathComponent, "--label",
                         "actual/" + actual.lastPathComponent, expected.path, actual.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? launch(process)) != nil else { return "(diff could not be run)" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    return text.count > 6000 ? String(text.prefix(6000)) + "\n… (diff cut)" : text
}

/// Reads the running `process`'s standard error (`errors`) line by line until
/// a line satisfies `wanted`, and returns it; nil when the stream ends first.
/// A test waits for a state its program announces, never for a time. A guard
/// against a hang, not a timing assertion: if no such line has come after
/// `guardSeconds`, the process is killed, which ends the stream.
func waitForLine(on errors: Pipe, of process: Process, guardSeconds: Double = 120, where wanted: (String) -> Bool) -> String? {
    final class Done: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }
    let done = Done()
    let pid = process.processIdentifier
    DispatchQueue.global().asyncAfter(deadline: .now() + guardSeconds) {
        if !done.isSet { kill(pid, SIGKILL) }
    }
    defer { done.set() }
    let handle = errors.fileHandleForReading
    var pending = Data()
    while true {
        let chunk = handle.availableData
        if chunk.isEmpty { return nil }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            pending.removeSubrange(pending.startIndex...newline)
            if wanted(line) { return line }
        }
    }
}
