import Assistant
import CaptionAssistant
import Captions
import Foundation

/// Turns `caption-assistant`'s arguments into a `Command`, or a `UsageError`
/// that says what was wrong.
///
/// Options are `--name value` or `--name=value`; `-o DIR`; `-` is standard
/// input (or, after `-o`, standard output); `--` ends the options. The test
/// flags keep their single dash (`-test-fake-assistant`), as launch arguments
/// do in UI tests. Which options there are, which subcommands take them and
/// what they set comes from `CommandOption.table`; the subcommands' own
/// checks (inputs, folders, options that go together) are here.
enum CommandLineParser {
    /// The options `--help` shows, for "did you mean" (the hidden test flags are left out).
    static var suggestable: [String] {
        CommandOption.table.filter { !$0.hidden }.flatMap(\.names).sorted()
    }
    /// `--to`'s spellings (any case): the extensions of `CaptionFileExtension.all`
    /// that name a format to convert to (`webvtt` is `vtt`, `dfxp` is `ttml`).
    static let formatSpellings: [String: CaptionFormat] = Dictionary(
        uniqueKeysWithValues: CaptionFileExtension.all.filter(\.namesConversionTarget).map { ($0.name, $0.format) })

    /// The other spellings of `format` that `--to` takes (`webvtt` for `vtt`).
    static func otherSpellings(of format: CaptionFormat) -> [String] {
        CaptionFileExtension.all.filter { $0.namesConversionTarget && $0.format == format && $0.name != format.fileExtension }.map(\.name)
    }

    /// `--to`'s choices as a refusal lists them: `srt`, `vtt (or webvtt)`, `ttml (or dfxp)`.
    static var formatChoices: [String] {
        CaptionFormat.allCases.map { format in
            let others = otherSpellings(of: format)
            return others.isEmpty ? format.fileExtension : "\(format.fileExtension) (or \(others.joined(separator: ", ")))"
        }
    }

    /// What `--help` says of `--to`'s spellings and output names:
    /// `webvtt is vtt, dfxp is ttml; outputs are named .srt, .vtt or .ttml`.
    static var formatSpellingsHelp: String {
        let aliases = CaptionFormat.allCases.flatMap { format in otherSpellings(of: format).map { "\($0) is \(format.fileExtension)" } }
        let names = CaptionFormat.allCases.map { "." + $0.fileExtension }
        return aliases.joined(separator: ", ") + "; outputs are named " + names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// Parses `arguments` (without the program name). `defaultJobs` is the
    /// `--jobs` default (the number of cores).
    static func parse(_ arguments: [String], defaultJobs: Int) throws(UsageError) -> Command {
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
        case .version:
            if let extra = args.first { throw UsageError("'version' takes nothing after it (got '\(extra)')") }
            return .version
        case .process, .check, .merge, .review: break
        }

        var parsed = ParsedArguments()
        var operands: [String] = []
        var onlyOperands = false
        while let arg = args.first {
            args = args.dropFirst()
            if onlyOperands || arg == "-" || !arg.hasPrefix("-") {
                operands.append(arg)
                continue
            }
            if arg == "--" { onlyOperands = true; continue }
            var name = arg
            var inlineValue: String?
            if arg.hasPrefix("--") || arg.hasPrefix("-test-"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            guard let option = CommandOption.named(name), option.subcommands.contains(subcommand) else {
                throw refusal(name, for: subcommand)
            }
            var value = ""
            if option.takesValue {
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard let next = args.first else { throw UsageError("'\(name)' needs a value") }
                    args = args.dropFirst()
                    value = next
                }
            } else if inlineValue != nil {
                throw UsageError("'\(name)' takes no value")
            }
            try option.set(&parsed, name, value)
        }

        if parsed.wantsHelp { return .help }
        if parsed.wantsVersion { return .version }
        switch subcommand {
        case .merge: return try merge(parsed, folders: operands)
        case .review: return try review(parsed, folders: operands)
        case .check: return try check(parsed, inputs: operands)
        default: return try process(parsed, inputs: operands, defaultJobs: defaultJobs)
        }
    }

    /// The error for `name` where `subcommand` does not take it: from the
    /// table, which subcommand does ("'-o' is an option of 'process', not of
    /// 'check'"), or that no one does, with the nearest name. `merge` and
    /// `review` list what they take.
    static func refusal(_ name: String, for subcommand: Subcommand) -> UsageError {
        switch subcommand {
        case .merge:
            return UsageError("unknown option '\(name)' for 'merge' (it takes OUTPUT_DIR, \(listed(for: .merge, joinedBy: "and")))")
        case .review:
            return UsageError("'review' takes an output folder and \(listed(for: .review, joinedBy: "or")) (unknown option '\(name)')")
        default:
            if let option = CommandOption.named(name), let owner = Subcommand.allCases.first(where: option.subcommands.contains) {
                return UsageError("'\(name)' is an option of '\(owner.rawValue)', not of '\(subcommand.rawValue)'")
            }
            return unknownOption(name)
        }
    }

    /// The options `subcommand` takes, for its messages: `--keep-parts, --quiet and --json`
    /// (its own section first; not help).
    static func listed(for subcommand: Subcommand, joinedBy conjunction: String) -> String {
        let own = CommandOption.table.filter { !$0.hidden && $0.section != .other && $0.subcommands.contains(subcommand) }
        let sorted = own.filter { $0.subcommands == [subcommand] } + own.filter { $0.subcommands != [subcommand] }
        let forms = sorted.map(\.shortForm)
        guard let last = forms.last else { return "" }
        return forms.count == 1 ? last : forms.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// `process`: inputs, an output, and the options that go together.
    private static func process(_ parsed: ParsedArguments, inputs: [String], defaultJobs: Int) throws(UsageError) -> Command {
        try refuseTwoModels(parsed)
        guard !inputs.isEmpty else {
            throw UsageError("no input given: name caption files or folders (or - for standard input)")
        }
        guard let output = parsed.output else { throw UsageError("no output folder given: add -o OUTPUT_DIR (or -o - for standard output)") }
        var process = parsed.process
        process.jobs = parsed.jobs ?? max(1, defaultJobs)
        process.inputs = inputs
        process.output = output
        if output == "-" {
            guard inputs.count == 1 else { throw UsageError("'-o -' writes one caption file to standard output, so it takes exactly one input") }
            if process.json { throw UsageError("'--json' prints to standard output, which '-o -' already uses for the captions; --report FILE writes the run's report to a file") }
            if process.resume { throw UsageError("'--resume' skips files already written to an output folder, so it cannot be used with '-o -'") }
        }
        if process.reportFile == BatchRunner.reportToStandardOutput {
            if output == "-" { throw UsageError("'--report -' writes the report to standard output, which '-o -' already uses for the captions; give --report a file name") }
            if process.json { throw UsageError("'--report -' and '--json' both write to standard output; use one, or give --report a file name") }
        }
        try checkShardOptions(process)
        if inputs.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input ('-') can be given only once") }
        return .process(process)
    }

    /// `check`: the model options, and no inputs.
    private static func check(_ parsed: ParsedArguments, inputs: [String]) throws(UsageError) -> Command {
        try refuseTwoModels(parsed)
        if let extra = inputs.first { throw UsageError("'check' takes no inputs (got '\(extra)')") }
        var check = CheckOptions()
        check.model = parsed.process.model
        check.json = parsed.process.json
        return .check(check)
    }

    /// `merge`: exactly one output folder.
    private static func merge(_ parsed: ParsedArguments, folders: [String]) throws(UsageError) -> Command {
        guard folders.count == 1, let folder = folders.first, folder != "-", !folder.isEmpty else {
            throw UsageError("'merge' takes exactly one output folder, the one the shards wrote into (got \(folders.count))")
        }
        return .merge(MergeOptions(output: folder, keepParts: parsed.keepParts, quiet: parsed.process.quiet, json: parsed.process.json))
    }

    /// `review`: one output folder.
    private static func review(_ parsed: ParsedArguments, folders: [String]) throws(UsageError) -> Command {
        guard let folder = folders.first, !folder.isEmpty else {
            throw UsageError("'review' needs the output folder of a batch: caption-assistant review OUTPUT_DIR")
        }
        guard folders.count == 1 else { throw UsageError("'review' takes one output folder (got \(folders.count))") }
        guard folder != "-" else { throw UsageError("'review' reads an output folder, not standard input") }
        return .review(ReviewOptions(folder: folder, quiet: parsed.process.quiet, json: parsed.process.json, jobs: parsed.jobs))
    }

    private static func refuseTwoModels(_ parsed: ParsedArguments) throws(UsageError) {
        if parsed.process.model.fake && parsed.explicitModel && parsed.process.model.backend != .auto {
            throw UsageError("'-test-fake-assistant' and '--model \(parsed.process.model.backend.rawValue)' choose two different models; use one")
        }
    }

    /// The checks `--shard` and `--shard-count` need once the rest is parsed.
    static func checkShardOptions(_ process: ProcessOptions) throws(UsageError) {
        if process.shardCount != nil && process.shard == nil {
            throw UsageError("'--shard-count' goes with '--shard auto'; add --shard auto (or give --shard INDEX/COUNT)")
        }
        guard process.shard != nil else { return }
        if process.output == "-" { throw UsageError("'--shard' writes a report part into an output folder, so it cannot be used with '-o -'") }
        if process.reportFile != nil { throw UsageError("'--report' writes a whole run's report, and a shard writes only its part; run merge, which writes report.json") }
        if process.inputs.contains("-") { throw UsageError("'--shard' cuts a plan of files that every shard can read, so standard input ('-') cannot be one of them") }
    }

    static func nonEmpty(_ name: String, _ v: String) throws(UsageError) -> String {
        guard !v.isEmpty else { throw UsageError("'\(name)' needs a non-empty value") }
        return v
    }

    /// A whole number from 1 to `max` for the option `name` (see `CheckedNumber.whole`).
    static func count(_ name: String, _ v: String, max: Int) throws(UsageError) -> Int {
        do throws(SettingsError) { return try CheckedNumber.whole(v, name: "'\(name)'", in: 1...max) } catch { throw UsageError(error) }
    }

    /// The error for an option nobody knows, with the nearest one when it is
    /// close (`--test-fake-assistant` is told the test flags take one dash).
    static func unknownOption(_ name: String) -> UsageError {
        if name.hasPrefix("--test-"), CommandOption.named(String(name.dropFirst())) != nil {
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

    /// A number of seconds up to a day for the option `name`, above 0 unless `allowZero` (see `CheckedNumber.seconds`).
    static func seconds(_ name: String, _ v: String, allowZero: Bool) throws(UsageError) -> Double {
        do throws(SettingsError) {
            return try CheckedNumber.seconds(v, name: "'\(name)'", in: 0...86_400, allowsLowerBound: allowZero)
        } catch { throw UsageError(error) }
    }
}
