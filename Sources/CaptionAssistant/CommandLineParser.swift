import Captions

/// Turns `caption-assistant`'s arguments into a `Command`, or a `UsageError`
/// that says what was wrong.
///
/// Hand-written: options are `--name value` or `--name=value`; `-o DIR`;
/// `-` is standard input (or, after `-o`, standard output); `--` ends the
/// options. The test flags keep their single dash (`-test-fake-assistant`), as
/// launch arguments do in UI tests.
public enum CommandLineParser {
    /// Options that take a value.
    static let valued: Set<String> = [
        "-o", "--output", "--model", "--endpoint", "--model-name", "--server-kind", "--request-timeout", "--model-time-limit",
        "--simulate-availability", "--max-characters", "--wait-for-model", "--jobs", "--to",
        "-test-fake-assistant-error", "-test-fake-assistant-delay",
    ]
    /// Options that take no value.
    static let flags: Set<String> = ["-test-fake-assistant", "-test-fake-assistant-fails", "--require-model", "--quiet", "--json", "--resume", "--help", "-h", "--version"]
    /// Options only `process` accepts.
    static let processOnly: Set<String> = ["-o", "--output", "--max-characters", "--jobs", "--to", "--quiet", "--resume"]

    /// Parses `arguments` (without the program name). `defaultJobs` is the
    /// `--jobs` default (the number of cores).
    public static func parse(_ arguments: [String], defaultJobs: Int) throws(UsageError) -> Command {
        var args = arguments[...]
        var subcommand = "process"
        if let first = args.first, first == "process" || first == "check" {
            subcommand = first
            args = args.dropFirst()
        }
        var process = ProcessOptions(jobs: max(1, defaultJobs))
        var check = CheckOptions()
        var model = ModelOptions()
        var json = false
        var inputs: [String] = []
        var output: String?
        var explicitModel = false
        var onlyInputs = false
        var wantsHelp = false, wantsVersion = false

        while let arg = args.first {
            args = args.dropFirst()
            if onlyInputs || arg == "-" || !arg.hasPrefix("-") {
                inputs.append(arg)
                continue
            }
            if arg == "--" { onlyInputs = true; continue }
            var name = arg
            var inlineValue: String?
            if arg.hasPrefix("--") || arg.hasPrefix("-test-"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            if flags.contains(name) {
                if inlineValue != nil { throw UsageError("'\(name)' takes no value") }
            } else if !valued.contains(name) {
                throw UsageError("unknown option '\(name)'")
            }
            if subcommand == "check" && processOnly.contains(name) {
                throw UsageError("'\(name)' is an option of 'process', not of 'check'")
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = args.first else { throw UsageError("'\(name)' needs a value") }
                args = args.dropFirst()
                return next
            }
            switch name {
            case "--help", "-h": wantsHelp = true
            case "--version": wantsVersion = true
            case "-o", "--output":
                let v = try value()
                guard !v.isEmpty else { throw UsageError("'\(name)' needs a folder name (or - for standard output)") }
                output = v
            case "-test-fake-assistant": model.fake = true
            case "-test-fake-assistant-fails":
                model.fake = true
                model.failingFake = true
            case "-test-fake-assistant-error":
                model.fake = true
                model.failingFake = true
                model.fakeError = try value()
            case "-test-fake-assistant-delay":
                model.fake = true
                let v = try value()
                guard let ms = Int(v), ms >= 0, ms <= 600_000 else {
                    throw UsageError("'\(name)' needs a whole number of milliseconds from 0 to 600000 (got '\(v)')")
                }
                model.fakeDelayMilliseconds = ms
            case "--model":
                let v = try value()
                guard let choice = BackendChoice(rawValue: v) else {
                    throw UsageError("'--model' must be one of auto, foundation, http, none (got '\(v)')")
                }
                model.backend = choice
                explicitModel = true
            case "--endpoint": model.endpoint = try nonEmpty(name, value())
            case "--model-name": model.modelName = try nonEmpty(name, value())
            case "--server-kind": model.serverKind = try nonEmpty(name, value())
            case "--request-timeout": model.requestTimeout = try seconds(name, value(), allowZero: false)
            case "--model-time-limit": model.modelTimeLimit = try seconds(name, value(), allowZero: false)
            case "--simulate-availability": model.simulatedAvailability = try nonEmpty(name, value())
            case "--wait-for-model": model.waitForModel = try seconds(name, value(), allowZero: true)
            case "--require-model": model.requireModel = true
            case "--max-characters": process.maxCharacters = try count(name, value(), max: 10_000_000)
            case "--jobs": process.jobs = try count(name, value(), max: 1024)
            case "--to":
                let v = try value()
                guard let format = v.lowercased() == "webvtt" ? .vtt : CaptionFormat(rawValue: v.lowercased()) else {
                    throw UsageError("'--to' must be one of srt, vtt, ttml (got '\(v)')")
                }
                process.convertTo = format
            case "--quiet": process.quiet = true
            case "--resume": process.resume = true
            case "--json": json = true
            default: throw UsageError("unknown option '\(name)'")
            }
        }

        if wantsHelp { return .help }
        if wantsVersion { return .version }
        if model.fake && explicitModel && model.backend != .auto {
            throw UsageError("'-test-fake-assistant' and '--model \(model.backend.rawValue)' choose two different models; use one")
        }
        if subcommand == "check" {
            if let extra = inputs.first { throw UsageError("'check' takes no inputs (got '\(extra)')") }
            check.model = model
            check.json = json
            return .check(check)
        }
        guard !inputs.isEmpty else {
            throw UsageError("no input given: name caption files or folders (or - for standard input)")
        }
        guard let output else { throw UsageError("no output folder given: add -o OUTPUT_DIR (or -o - for standard output)") }
        if output == "-" {
            guard inputs.count == 1 else { throw UsageError("'-o -' writes one caption file to standard output, so it takes exactly one input") }
            if json { throw UsageError("'--json' prints to standard output, which '-o -' already uses for the captions") }
            if process.resume { throw UsageError("'--resume' skips files already written to an output folder, so it cannot be used with '-o -'") }
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input ('-') can be given only once") }
        process.inputs = inputs
        process.output = output
        process.model = model
        process.json = json
        return .process(process)
    }

    private static func nonEmpty(_ name: String, _ v: String) throws(UsageError) -> String {
        guard !v.isEmpty else { throw UsageError("'\(name)' needs a non-empty value") }
        return v
    }

    private static func count(_ name: String, _ v: String, max: Int) throws(UsageError) -> Int {
        guard let n = Int(v), n >= 1 else { throw UsageError("'\(name)' needs a whole number of at least 1 (got '\(v)')") }
        guard n <= max else { throw UsageError("'\(name)' is at most \(max) (got '\(v)')") }
        return n
    }

    private static func seconds(_ name: String, _ v: String, allowZero: Bool) throws(UsageError) -> Double {
        guard let s = Double(v), s.isFinite, allowZero ? s >= 0 : s > 0, s <= 86_400 else {
            throw UsageError("'\(name)' needs a number of seconds\(allowZero ? "" : " above 0"), at most 86400 (got '\(v)')")
        }
        return s
    }
}
