import Assistant
import Captions
import Foundation

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
        "--simulate-availability", "--max-characters", "--wait-for-model", "--jobs", "--to", "--shard", "--shard-count",
        "-test-fake-assistant-error", "-test-fake-assistant-delay",
    ]
    /// Options that take no value.
    static let flags: Set<String> = ["-test-fake-assistant", "-test-fake-assistant-fails", "--require-model", "--quiet", "--json", "--resume", "--help", "-h", "--version", "--allow-empty"]
    /// Options only `process` accepts.
    static let processOnly: Set<String> = ["-o", "--output", "--max-characters", "--jobs", "--to", "--quiet", "--resume", "--allow-empty", "--shard", "--shard-count"]
    /// The options `--help` shows, for "did you mean" (the hidden test flags are left out, except the fake's).
    static var suggestable: [String] {
        (valued.union(flags)).filter { !$0.hasPrefix("-test-") || $0 == "-test-fake-assistant" }.sorted()
    }
    /// `--to`'s spellings (any case): `webvtt` is `vtt`, `dfxp` is `ttml`.
    static let formatSpellings: [String: CaptionFormat] = ["srt": .srt, "vtt": .vtt, "webvtt": .vtt, "ttml": .ttml, "dfxp": .ttml]

    /// Parses `arguments` (without the program name). `defaultJobs` is the
    /// `--jobs` default (the number of cores).
    public static func parse(_ arguments: [String], defaultJobs: Int) throws(UsageError) -> Command {
        var args = arguments[...]
        var subcommand = Subcommand.process
        if let first = args.first, let named = Subcommand(rawValue: first) {
            subcommand = named
            args = args.dropFirst()
        } else if let first = args.first {
            try refuseMistypedSubcommand(first)
        }
        switch subcommand {
        case .help: return .help
        case .merge: return try parseMerge(args)
        case .review: return try parseReview(args)
        case .version:
            if let extra = args.first { throw UsageError("'version' takes nothing after it (got '\(extra)')") }
            return .version
        case .process, .check: break
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
                throw unknownOption(name)
            }
            if subcommand == .check && processOnly.contains(name) {
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
                model.backend = try choice(name, value(), among: Dictionary(uniqueKeysWithValues: BackendChoice.allCases.map { ($0.rawValue, $0) }),
                                           listed: BackendChoice.allCases.map(\.rawValue))
                explicitModel = true
            case "--endpoint": model.endpoint = try nonEmpty(name, value())
            case "--model-name": model.modelName = try nonEmpty(name, value())
            case "--server-kind":
                // Checked here, with or without --endpoint, so a typo is never carried silently.
                model.serverKind = try choice(name, value(), among: Dictionary(uniqueKeysWithValues: HTTPServerKind.allCases.map { ($0.rawValue, $0) }),
                                              listed: HTTPServerKind.allCases.map(\.rawValue)).rawValue
            case "--request-timeout": model.requestTimeout = try seconds(name, value(), allowZero: false)
            case "--model-time-limit": model.modelTimeLimit = try seconds(name, value(), allowZero: false)
            case "--simulate-availability": model.simulatedAvailability = try availabilityName(value())
            case "--wait-for-model": model.waitForModel = try seconds(name, value(), allowZero: true)
            case "--require-model": model.requireModel = true
            case "--max-characters": process.maxCharacters = try count(name, value(), max: 10_000_000)
            case "--jobs": process.jobs = try count(name, value(), max: 1024)
            case "--to":
                process.convertTo = try choice(name, value(), among: formatSpellings, listed: ["srt", "vtt (or webvtt)", "ttml (or dfxp)"])
            case "--quiet": process.quiet = true
            case "--resume": process.resume = true
            case "--allow-empty": process.allowEmpty = true
            case "--shard": process.shard = try ShardRequest.parse(value())
            case "--shard-count": process.shardCount = try count(name, value(), max: Shard.maximumCount)
            case "--json": json = true
            default: throw unknownOption(name)
            }
        }

        if wantsHelp { return .help }
        if wantsVersion { return .version }
        if model.fake && explicitModel && model.backend != .auto {
            throw UsageError("'-test-fake-assistant' and '--model \(model.backend.rawValue)' choose two different models; use one")
        }
        if subcommand == .check {
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
        try checkShardOptions(process, inputs: inputs, output: output)
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
        // A whole number too big for Int is still a whole number: say it is too big, not that it is not one.
        let digits = v.hasPrefix("+") ? v.dropFirst() : Substring(v)
        if Int(v) == nil, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.contains(where: { $0 != "0" }) {
            throw UsageError("'\(name)' is too big: at most \(max) (got '\(v)')")
        }
        guard let n = Int(v), n >= 1 else { throw UsageError("'\(name)' needs a whole number of at least 1 (got '\(v)')") }
        guard n <= max else { throw UsageError("'\(name)' is too big: at most \(max) (got '\(v)')") }
        return n
    }

    /// The error for an option nobody knows, with the nearest one when it is
    /// close (`--test-fake-assistant` is told the test flags take one dash).
    static func unknownOption(_ name: String) -> UsageError {
        if name.hasPrefix("--test-"), flags.union(valued).contains(String(name.dropFirst())) {
            return UsageError("unknown option '\(name)'; did you mean '\(name.dropFirst())'? (the test flags take one dash, as launch arguments do)")
        }
        return UsageError("unknown option '\(name)'" + NearestName.hint(for: name, among: suggestable))
    }

    /// One of a fixed set of values, matched ignoring case (`--to SRT`,
    /// `--model AUTO`); otherwise an error listing them, with the nearest.
    static func choice<T>(_ name: String, _ v: String, among spellings: [String: T], listed: [String]) throws(UsageError) -> T {
        let key = v.trimmingCharacters(in: .whitespaces).lowercased()
        if let found = spellings[key] { return found }
        throw UsageError("'\(name)' must be one of \(listed.joined(separator: ", ")) (got '\(v)')"
                         + NearestName.hint(for: key, among: spellings.keys.sorted()))
    }

    /// A `--simulate-availability` value in its canonical spelling: `available`,
    /// a reason's name (any case), `unknown`, or `unknown:MESSAGE` (the message kept as typed).
    static func availabilityName(_ v: String) throws(UsageError) -> String {
        let names = ["available"] + UnavailableReason.acceptedNames.filter { $0 != "unknown:MESSAGE" }
        if let exact = names.first(where: { $0.lowercased() == v.lowercased() }) { return exact }
        if v.lowercased().hasPrefix("unknown:") { return "unknown:" + v.dropFirst("unknown:".count) }
        throw UsageError("'--simulate-availability' must be available or one of \(UnavailableReason.acceptedNames.joined(separator: ", ")) (got '\(v)')"
                         + NearestName.hint(for: v, among: names))
    }

    /// Refuses a first argument that is no file or folder but looks like a
    /// mistyped subcommand (`checks`), as git does, rather than reading it as
    /// an input and failing later with "no output folder given".
    static func refuseMistypedSubcommand(_ first: String) throws(UsageError) {
        guard !first.hasPrefix("-"), !first.contains("/"), !first.contains("."),
              !FileManager.default.fileExists(atPath: first),
              let near = NearestName.nearest(to: first, among: Subcommand.names) else { return }
        throw UsageError("'\(first)' is not a command, nor a file or folder; did you mean '\(near)'? (the commands are \(Subcommand.names.joined(separator: ", ")); write ./\(first) for an input of that name)")
    }

    private static func seconds(_ name: String, _ v: String, allowZero: Bool) throws(UsageError) -> Double {
        guard let s = Double(v), s.isFinite, allowZero ? s >= 0 : s > 0, s <= 86_400 else {
            throw UsageError("'\(name)' needs a number of seconds\(allowZero ? "" : " above 0"), at most 86400 (got '\(v)')")
        }
        return s
    }
}
