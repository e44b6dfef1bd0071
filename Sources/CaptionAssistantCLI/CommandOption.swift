import Assistant
import CaptionAssistant
import Captions

/// One option of `caption-assistant`: its names, its value, the subcommands
/// that take it, its line in `--help`, and what it sets.
///
/// `CommandOption.table` is the only place an option is spelled: the parser
/// (for every subcommand), the option lists of `--help`, "did you mean" and
/// "'X' is an option of 'process', not of 'check'" are all made from it.
struct CommandOption: Sendable {
    /// Where `--help` lists an option.
    enum Section: Sendable, CaseIterable {
        /// `PROCESS OPTIONS:`.
        case process
        /// `MODEL OPTIONS (process and check):`.
        case model
        /// After the `MERGE:` paragraph.
        case merge
        /// `OTHER:` (help and version).
        case other
    }

    /// The parsed arguments, as the setters name them.
    typealias Arguments = ParsedArguments

    /// What an option sets: the parsed arguments, the name as typed, and the value (empty for a flag).
    typealias Setter = @Sendable (inout ParsedArguments, _ name: String, _ value: String) throws(UsageError) -> Void

    /// Every name, short first (`-o`, `--output`).
    let names: [String]
    /// The value's name in `--help` (`DIR`, `srt|vtt|ttml`); nil for a flag, which takes no value.
    let metavar: String?
    /// The subcommands that take it.
    let subcommands: Set<Subcommand>
    /// Left out of `--help` and of "did you mean" (the `-test-*` flags, except `-test-fake-assistant`).
    let hidden: Bool
    /// Where `--help` lists it.
    let section: Section
    /// Its sentence in `--help`.
    let help: String
    /// The library's setting it sets, if any: advice that names the setting names this option.
    let setting: AssistantSetting?
    /// Sets its value, with the checks the value needs.
    let set: Setter

    /// Whether it takes a value.
    var takesValue: Bool { metavar != nil }

    /// What `--help` adds to `help`: the library's words on the option (a rule it applies), its settings spelled by the table.
    var more: (@Sendable (SettingNames) -> String)?

    /// Its line in `--help`: the names and value, then the sentence from
    /// column 30 (on a line of its own when the names are too long).
    var helpLine: String {
        let help = self.help + (more.map { " " + $0(CommandOption.settingNames) } ?? "")
        let label = names.joined(separator: ", ") + (metavar.map { " " + $0 } ?? "")
        if label.count <= 26 { return "  " + label + String(repeating: " ", count: 28 - label.count) + help + "\n" }
        return "  " + label + "\n" + String(repeating: " ", count: 30) + help + "\n"
    }

    /// How messages list it: the long name, and the value's name (`--jobs N`).
    var shortForm: String { (names.last ?? "") + (metavar.map { " " + $0 } ?? "") }

    private init(_ names: [String], _ metavar: String?, _ subcommands: Set<Subcommand>, _ section: Section,
                 hidden: Bool = false, setting: AssistantSetting?, _ help: String, set: @escaping Setter) {
        self.names = names; self.metavar = metavar; self.subcommands = subcommands
        self.section = section; self.hidden = hidden; self.setting = setting; self.help = help; self.set = set
    }

    /// An option that takes a value.
    static func valued(_ names: [String], _ metavar: String, _ subcommands: Set<Subcommand>, _ section: Section,
                       hidden: Bool = false, setting: AssistantSetting? = nil, _ help: String, set: @escaping Setter) -> CommandOption {
        CommandOption(names, metavar, subcommands, section, hidden: hidden, setting: setting, help, set: set)
    }

    /// A flag: an option that takes no value.
    static func flag(_ names: [String], _ subcommands: Set<Subcommand>, _ section: Section,
                     hidden: Bool = false, setting: AssistantSetting? = nil, _ help: String,
                     more: (@Sendable (SettingNames) -> String)? = nil,
                     set: @escaping @Sendable (inout ParsedArguments) -> Void) -> CommandOption {
        var option = CommandOption(names, nil, subcommands, section, hidden: hidden, setting: setting, help) { arguments, _, _ in set(&arguments) }
        option.more = more
        return option
    }

    /// How the library's words (remedies, reasons, errors, report text)
    /// spell its settings on the command line: each `AssistantSetting` (the
    /// model's, and the run's that `CaptionAssistant` adds) as the option of
    /// this table that sets it, by its first name, as the usage line writes
    /// it (`-o`), with the option's value name as the placeholder
    /// (`--endpoint URL`); the API key, which has no option, as its
    /// environment variable.
    static let settingNames: SettingNames = {
        var names: [AssistantSetting: String] = [.apiKey: HTTPConfiguration.apiKeyVariable]
        var placeholders: [AssistantSetting: String] = [:]
        for option in table {
            guard let setting = option.setting, let name = option.names.first else { continue }
            names[setting] = name
            placeholders[setting] = option.metavar
        }
        return SettingNames(names: names, placeholders: placeholders)
    }()

    /// The option named `name` (any subcommand's), or nil.
    static func named(_ name: String) -> CommandOption? { table.first { $0.names.contains(name) } }

    /// Every option, in the order `--help` lists them.
    static let table: [CommandOption] = [
        // PROCESS OPTIONS
        .valued(["-o", "--output"], "DIR", [.process], .process, setting: .outputFolder,
                "Write the outputs under DIR (created if needed; it must not lie inside an input folder), or to standard output with -o -.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            guard !v.isEmpty else { throw UsageError("'\(name)' needs a folder name (or - for standard output)") }
            a.output = v
        },
        .valued(["--to"], CaptionFormat.allCases.map(\.fileExtension).joined(separator: "|"), [.process], .process,
                "Convert the captions to this format while writing (\(CommandLineParser.formatSpellingsHelp)); the report lists what could not be carried over.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.convertTo = try CommandLineParser.choice(name, v, among: CommandLineParser.formatSpellings, listed: CommandLineParser.formatChoices)
        },
        .valued(["--from"], CaptionFormat.allCases.map(\.fileExtension).joined(separator: "|"), [.process], .process, setting: .readFormat,
                "Read every input as this format (\(CommandLineParser.formatSpellingsHelp)), whatever its extension and its first lines say: a cue list in a .vtt file without its WEBVTT line is read with --from srt. Its output keeps the input's name (with --to, the new extension).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.readAs = try CommandLineParser.choice(name, v, among: CommandLineParser.formatSpellings, listed: CommandLineParser.formatChoices)
        },
        .valued(["--encoding"], "keep|utf-8", [.process], .process, setting: .outputEncoding,
                "Write each caption file in its own encoding (keep, the default: what is not edited stays byte for byte as it came) or in UTF-8 (utf-8: a file in a legacy encoding such as Windows-1252 or Shift_JIS, which cannot hold an emoji, or in UTF-16 or UTF-32 is written as UTF-8, converted from the encoding it is in, without a byte-order mark, a TTML file's XML declaration saying so; the report lists the change among its losses). Files converted to another format (--to) are always UTF-8.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.writeOptions.encoding = try CommandLineParser.choice(name, v, among: ["keep": .keep, "utf-8": .utf8, "utf8": .utf8], listed: ["keep", "utf-8"])
        },
        .valued(["--input-encoding"], "NAME", [.process], .process, setting: .inputEncoding,
                "Read every input as text in this encoding (a name or alias ICU knows, such as GBK, GB18030, Big5, EUC-KR, Shift_JIS, EUC-JP, KOI8-R, windows-1251 or ISO-8859-2; a byte-order mark still wins). Without it, a file that is not UTF-8 and has no byte-order mark is detected (ICU's charset detection) and taken only when the detection is confident, converting the text back gives the same bytes, and no other encoding reads it as different text (an EUC-JP file GB18030 also reads is not known; a GB18030 file that is GBK text too is taken as GBK, which holds no emoji); a file whose encoding cannot be told is written unchanged, the model is not asked for it, its actions fail with a reason naming the candidate encodings, and it cannot be converted (--to, --encoding utf-8).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            guard let encoding = TextEncoding(named: v) else {
                throw UsageError("'\(name)' needs the name of a text encoding, such as GBK, Big5, EUC-KR, Shift_JIS, KOI8-R, windows-1251 or ISO-8859-2 (UTF-16 and UTF-32 with their byte order: UTF-16LE); '\(v)' is not one")
            }
            a.process.inputEncoding = encoding
        },
        .valued(["--language"], "TAG", [.process], .process,
                "Declare the captions' language as TAG, a BCP 47 tag such as en, en-GB or zh-Hant, in every WebVTT (a Language: header line) and TTML (xml:lang) output whose input declares none (or declares und); a file that declares its own language keeps it, whatever TAG says, and SRT files cannot declare one. Without it, a converted file carries its input's language, and a TTML output of a file with none says und.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            guard LanguageTag.isWellFormed(v) else {
                throw UsageError("'\(name)' needs a BCP 47 language tag, such as en, en-GB, pt-BR or zh-Hant (got '\(v)')")
            }
            a.process.writeOptions.language = v
        },
        .valued(["--actions"], "LIST", [.process], .process, setting: .actions,
                "Ask only for these actions, a comma-separated list of \(AssistantAction.allCases.map(\.rawValue).joined(separator: ", ")) (default: all three); the others are neither applied nor asked of the repair request, and the report lists them as notRequested.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            var chosen = Set<AssistantAction>()
            for item in v.split(separator: ",", omittingEmptySubsequences: false) {
                chosen.insert(try CommandLineParser.choice(name, String(item), among: Dictionary(uniqueKeysWithValues: AssistantAction.allCases.map { ($0.rawValue, $0) }),
                                                           listed: AssistantAction.allCases.map(\.rawValue)))
            }
            a.process.actions = chosen.sorted()
        },
        .valued(["--emphasis"], EmphasisDensity.Mode.allCases.map(\.rawValue).joined(separator: "|"), [.process], .process,
                "Choose which occurrences of each keyword are made bold: all of them (the default), the first in each cue (first-in-cue), or the first in the file (first); the report counts the occurrences emphasised and those left plain.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.emphasis.mode = try CommandLineParser.choice(name, v, among: Dictionary(uniqueKeysWithValues: EmphasisDensity.Mode.allCases.map { ($0.rawValue, $0) }),
                                                                   listed: EmphasisDensity.Mode.allCases.map(\.rawValue))
        },
        .valued(["--emphasis-per-cue"], "N", [.process], .process,
                "Make at most N keyword occurrences bold in any one cue (the first ones --emphasis keeps; N from 1, at most 1000); the others are left plain and counted in the report.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.emphasis.perCue = try CommandLineParser.count(name, v, max: 1000)
        },
        .valued(["--fallback"], "none|local", [.process], .process,
                "When no model answers for a file (none is available, or its answer failed or was unusable for an action), take the content from the transcript itself (local: its most frequent content words as keywords, an emoji whose CLDR annotation is one of its words, three titles cut from its sentences), or not (none, the default). Each action it gives says \"source\": \"fallback\" in the report, which still records the model's state and reason row.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            var spellings: [String: FallbackKind?] = ["none": nil]
            for kind in FallbackKind.allCases { spellings[kind.rawValue] = kind }
            a.process.fallback = try CommandLineParser.choice(name, v, among: spellings, listed: ["none"] + FallbackKind.allCases.map(\.rawValue))
        },
        .valued(["--max-characters"], "N", [.process], .process, setting: .maxCharacters,
                "Send the model at most N characters of the transcript (default \(PromptBuilder.defaultMaxCharacters), at most 10000000); a cut falls between words, so fewer may be sent.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.maxCharacters = try CommandLineParser.count(name, v, max: 10_000_000)
        },
        .valued(["--jobs"], "N", [.process, .review], .process, setting: .concurrentRequests,
                "Process up to N files at once (default: the number of processor cores).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.jobs = try CommandLineParser.count(name, v, max: 1024)
        },
        .flag(["--resume"], [.process], .process, setting: .resume,
              "Skip every file an earlier run already completed for the options given, so a killed or interrupted batch is finished by running the same command again with --resume.", more: ResumeCheck.rule) {
            $0.process.resume = true
        },
        .flag(["--replace-model-results"], [.process], .process,
              "Replace the results a real model gave an earlier run's output (bold keywords, titles, the emoji) by whatever this run gives for them (nothing, when its model is unavailable, turned off with --model none, or failing; the fake's; the fallback's); without it each result is kept, per action, until a real model gives a new one for that action (the caption keeps its emphasis and emoji, the report its titles), and the report (\"source\": \"earlier\", or an output kept whole) and the summary say so.") {
            $0.process.replaceModelResults = true
        },
        .flag(["--allow-empty"], [.process], .process,
              "Accept a run that finds no caption file: exit 0 (the warning is still printed) instead of 66.") { $0.process.allowEmpty = true },
        .valued(["--shard"], "INDEX/COUNT|auto", [.process], .process, setting: .shard,
                "Process only shard INDEX (from 0) of COUNT: a cut of the sorted inputs, balanced by expected work (with a model, by files; without, by size), the same on every machine; its report part goes to OUTPUT_DIR/report.shard-INDEX-of-COUNT.json (merge them with 'merge'). auto takes the shard from a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _COUNT), a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or an AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX).") { (a: inout Arguments, _: String, v: String) throws(UsageError) in
            do throws(SettingsError) { a.process.shard = try ShardRequest.parse(v, names: CommandOption.settingNames) } catch { throw UsageError(error) }
        },
        .valued(["--shard-count"], "N", [.process], .process, setting: .shardCount,
                "With --shard auto on Kubernetes or AWS Batch, which give only the index: the number of shards (also CAPTION_ASSISTANT_SHARD_COUNT).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.shardCount = try CommandLineParser.count(name, v, max: Shard.maximumCount)
        },
        .flag(["--quiet"], [.process, .merge, .review], .process,
              "Print no progress line and no summary on standard error; errors and warnings are still printed.") { $0.process.quiet = true },
        .flag(["-v", "--verbose"], [.process], .process,
              "Print each file's three titles and emoji on standard error as it finishes (even with --quiet).") { $0.process.verbose = true },
        .flag(["--json"], [.process, .check, .merge, .review], .process,
              "Print a machine-readable summary of the run on standard output (with the reasons the model was unavailable, its errors and the files written without all their actions), and no progress line on a terminal (in a log it still goes to standard error). Not with -o -, whose standard output is the captions: use --report FILE there.") { $0.process.json = true },
        .valued(["--report"], "FILE", [.process], .process,
                "Also write the run's report (report.json's format: every file's actions, titles, emoji, reasons and errors) to FILE, atomically, wherever the captions go: with -o - it is the only report. --report - writes it to standard output (not with -o - or --json, which write there too). FILE must not be an input or lie inside an input folder; not with --shard (merge writes the shards' report).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.reportFile = try CommandLineParser.nonEmpty(name, v)
        },
        .flag(["-test-announce-stop"], [.process], .process, hidden: true,
              "Say on standard error when the first SIGINT or SIGTERM is taken, so a test knows it was.") { $0.process.announceStop = true },

        // MODEL OPTIONS (process and check)
        .flag(["-test-fake-assistant"], [.process, .check], .model, setting: .fakeModel,
              "Use the built-in deterministic fake model instead of a real one (for tests; the report says \"fake\").") { $0.process.model.fake = true },
        .flag(["-test-fake-assistant-fails"], [.process, .check], .model, hidden: true,
              "Use a test model that always throws.") {
            $0.process.model.fake = true
            $0.process.model.failingFake = true
        },
        .valued(["-test-fake-assistant-error"], "MESSAGE", [.process, .check], .model, hidden: true,
                "Use a test model that always throws MESSAGE.") { (a: inout Arguments, _: String, v: String) throws(UsageError) in
            a.process.model.fake = true
            a.process.model.failingFake = true
            a.process.model.fakeError = v
        },
        .valued(["-test-fake-assistant-delay"], "MS", [.process, .check], .model, hidden: true,
                "Make the fake wait MS milliseconds before each answer, like a slow model.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.model.fake = true
            do throws(SettingsError) {
                a.process.model.fakeDelayMilliseconds = try CheckedNumber.whole(v, name: "'\(name)'", in: 0...600_000)
            } catch { throw UsageError(error) }
        },
        .valued(["--model"], "auto|foundation|http|none", [.process, .check], .model, setting: .backend,
                "Choose the backend: auto uses Apple's on-device model where present, else the HTTP server if an endpoint is set, else none.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.model.backend = try CommandLineParser.choice(name, v, among: Dictionary(uniqueKeysWithValues: BackendChoice.allCases.map { ($0.rawValue, $0) }),
                                                           listed: BackendChoice.allCases.map(\.rawValue))
            a.explicitModel = true
        },
        .valued(["--endpoint"], "URL", [.process, .check], .model, setting: .endpoint,
                "Use the OpenAI-compatible HTTP server at URL (also CAPTION_ASSISTANT_ENDPOINT; an API key, if needed, comes from CAPTION_ASSISTANT_API_KEY and is never printed).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.model.endpoint = try CommandLineParser.nonEmpty(name, v)
        },
        .valued(["--ca-file"], "FILE", [.process, .check], .model, setting: .caFile,
                "Trust the CA certificates in FILE (PEM) for an https:// endpoint instead of the system's: a server with a private CA or a self-signed certificate.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.model.caFile = try CommandLineParser.nonEmpty(name, v)
        },
        .valued(["--model-name"], "NAME", [.process, .check], .model, setting: .modelName,
                "Ask the HTTP server for the model NAME (also CAPTION_ASSISTANT_MODEL).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.model.modelName = try CommandLineParser.nonEmpty(name, v)
        },
        .valued(["--server-kind"], "KIND", [.process, .check], .model,
                "Say which kind of HTTP server this is (auto, llama-cpp, llama-cpp-python, ollama, vllm or openai), so the answer's format is requested the way it understands; auto, the default, tells it from the server's model list before the first request (check prints the kind and why).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            // Checked here, with or without --endpoint, so a typo is never carried silently.
            a.process.model.serverKind = try CommandLineParser.choice(name, v, among: Dictionary(uniqueKeysWithValues: HTTPServerKind.allCases.map { ($0.rawValue, $0) }),
                                                              listed: HTTPServerKind.allCases.map(\.rawValue)).rawValue
        },
        .valued(["--request-timeout"], "SECONDS", [.process, .check], .model, setting: .requestTimeout,
                "Give up on one model request after SECONDS (default 120). Retry policy: \(AssistantOptions().retryPolicy); the report gives the attempts.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.model.requestTimeout = try CommandLineParser.seconds(name, v, allowZero: false)
        },
        .valued(["--model-time-limit"], "SECONDS", [.process, .check], .model, setting: .modelTimeLimit,
                "Bound the model time of one file, every attempt, pause and repair request together, to SECONDS (default: no bound beyond the attempts).") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.model.modelTimeLimit = try CommandLineParser.seconds(name, v, allowZero: false)
        },
        .valued(["--simulate-availability"], "REASON", [.process, .check], .model, setting: .simulatedAvailability,
                "Force the model's availability, for previews and tests: available, \(UnavailableReason.acceptedNames.filter { $0 != "unknown:MESSAGE" }.joined(separator: ", ")), or unknown:MESSAGE (an unknown reason with that text).") { (a: inout Arguments, _: String, v: String) throws(UsageError) in
            a.process.model.simulatedAvailability = try CommandLineParser.availabilityName(v)
        },
        .valued(["--wait-for-model"], "SECONDS", [.process, .check], .model, setting: .waitForModel,
                "When the model is still getting ready, check again gently for up to SECONDS before giving up.") { (a: inout Arguments, name: String, v: String) throws(UsageError) in
            a.process.model.waitForModel = try CommandLineParser.seconds(name, v, allowZero: true)
        },
        .flag(["--require-model"], [.process, .check], .model,
              "Exit with status 69 when the model is unavailable, instead of writing unchanged captions, or when it was there but no file got a usable answer (for CI that must not pass silently).") {
            $0.process.model.requireModel = true
        },

        // MERGE
        .flag(["--keep-parts"], [.merge], .merge,
              "Keep the shards' report parts after writing report.json (merge removes them otherwise).") { $0.keepParts = true },

        // OTHER
        .flag(["-h", "--help"], [.process, .check, .merge, .review], .other, "Print this help and exit.") { $0.wantsHelp = true },
        .flag(["--version"], [.process, .check], .other, "Print the version and the commit it was built from (unknown unless packed by scripts/package.sh), and exit.") { $0.wantsVersion = true },
    ]

    /// The `--help` lines of the options listed in `section`, in table order.
    static func helpLines(_ section: Section) -> String {
        table.filter { !$0.hidden && $0.section == section }.map(\.helpLine).joined()
    }
}

/// What the options of one command line set, before the subcommand's own
/// checks turn it into a `Command`.
struct ParsedArguments: Sendable {
    /// The options as `process` takes them (`check`, `merge` and `review` take their part).
    var process = ProcessOptions(jobs: 0)
    /// `-o DIR`, when given.
    var output: String?
    /// `--jobs N`, when given (each subcommand has its own default).
    var jobs: Int?
    /// `--model` was given (it may not contradict `-test-fake-assistant`).
    var explicitModel = false
    /// `--keep-parts` (merge).
    var keepParts = false
    /// `-h` or `--help`.
    var wantsHelp = false
    /// `--version`.
    var wantsVersion = false
}
