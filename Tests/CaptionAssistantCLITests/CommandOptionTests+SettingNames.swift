import Assistant
@testable import CaptionAssistant
import Foundation
import Testing
@testable import CaptionAssistantCLI

/// The library's advice names settings (`AssistantSetting`: the model's, and
/// the run's that `CaptionAssistant` adds); the command line spells each as
/// the option of its table that sets it. No option is spelled anywhere else:
/// not in `Assistant`, not in `Captions`, not in `CaptionAssistant`.
@Suite struct SettingNamesTests {
    /// Every setting the libraries name: the model's and the run's.
    static let settings = AssistantSetting.allCases + AssistantSetting.runSettings

    /// Every setting but the API key (which has no option: it comes from the
    /// environment) is set by exactly one option of the table, and spelled
    /// by its first name, as the usage line writes it (`-o`).
    @Test(arguments: settings)
    func everySettingIsSpelledByTheOptionThatSetsIt(_ setting: AssistantSetting) throws {
        let spelled = CommandOption.settingNames.spell(setting)
        if setting == .apiKey {
            #expect(spelled == HTTPConfiguration.apiKeyVariable)
            #expect(!CommandOption.table.contains { $0.setting == setting })
            return
        }
        let options = CommandOption.table.filter { $0.setting == setting }
        try #require(options.count == 1, "\(setting) is set by \(options.count) options")
        #expect(spelled == options[0].names.first)
        #expect(CommandOption.settingNames.spell(setting, .literal("x")) == spelled + " x")
        if let metavar = options[0].metavar {
            #expect(CommandOption.settingNames.spell(setting, .placeholder) == spelled + " " + metavar)
        }
    }

    /// The settings are one vocabulary across the modules: no two share a
    /// name, and no option sets a setting the libraries do not list.
    @Test func theSettingsOfEveryModuleAreOneVocabulary() {
        #expect(Set(Self.settings.map(\.rawValue)).count == Self.settings.count)
        for option in CommandOption.table {
            if let setting = option.setting { #expect(Self.settings.contains(setting), "\(option.names) sets \(setting.rawValue)") }
        }
    }

    /// The remedies and reasons as the reports and `check` print them: the
    /// library's words with the table's spellings, exactly as before the
    /// library stopped spelling options (the goldens hold them too).
    @Test func diagnosticsReadAsTheCommandLineAlwaysPrintedThem() {
        var context = DiagnosticsContext()
        context.settingNames = CommandOption.settingNames
        #expect(Diagnostics(.unsupportedPlatform, context: context).remedy == "This build or operating system (Linux, or an Apple system older than iOS 26 / macOS 26) has no Apple Foundation Models, so no on-device model can run here. Use --endpoint URL to reach a local OpenAI-compatible server (llama.cpp, Ollama, vLLM), or -test-fake-assistant for the deterministic test model.")
        #expect(Diagnostics(.modelTurnedOff, context: context).reasonRow == "No model was chosen (--model none)")
        #expect(Diagnostics(.modelTurnedOff, context: context).remedy == "This run was asked to use no model, so captions are written unchanged and the actions are disabled. To get suggestions, leave out --model none: use --model auto, --model http with --endpoint URL, or -test-fake-assistant.")
        #expect(Diagnostics(.modelNotReady, context: context).remedy.contains("or pass --wait-for-model SECONDS to wait for it;"))
        context.waitedSeconds = 5
        #expect(Diagnostics(.modelNotReady, context: context).remedy.hasPrefix("The model was still getting ready after waiting 5 s (--wait-for-model). Run again later, or wait longer with a larger --wait-for-model;"))
        #expect(Diagnostics(.serverUnreachable, context: context).remedy.hasPrefix("Nothing answered at the --endpoint address."))
        #expect(Diagnostics(.modelMissing, context: context).remedy.contains("or pass --model-name with a name the server lists."))
        #expect(HTTPAssistantError(kind: .timedOut, endpoint: "e").remedy?.rendered(CommandOption.settingNames)
                == "The server may be busy or slow; raise --request-timeout or lower --jobs.")
        #expect(HTTPAssistantError(kind: .status(401), endpoint: "e").remedy?.rendered(CommandOption.settingNames)
                == "Check CAPTION_ASSISTANT_API_KEY.")
        #expect(HTTPConfigurationError.invalidTimeout(0).remedy.rendered(CommandOption.settingNames)
                == "Give --request-timeout as seconds, e.g. --request-timeout 120.")
    }

    /// The run's words, in reports and errors, as the command line always
    /// wrote them (the goldens hold some of them too): `CaptionAssistant`
    /// names the setting, the table spells it.
    @Test func theRunsWordsReadAsTheCommandLineAlwaysPrintedThem() throws {
        let names = CommandOption.settingNames
        #expect(FileReport.notProcessedError(names)
                == "not processed: the run was interrupted before this file was finished; run the same command with --resume to finish the batch")
        #expect(FileReport.isNotProcessed(FileReport.notProcessedError(names)) && FileReport.isNotProcessed(FileReport.notProcessedError(.plain)))
        #expect(SuggestionApplier.unencodableReason("🎬", .windows1252, names: names)
                == "the file is written in Windows-1252, which cannot hold 🎬, so the captions were left without it; --encoding utf-8 writes it in UTF-8, which can (the report lists the change)")
        #expect(ReportMerge.Failure.incomplete(count: 4, missing: [1], stopped: [2]).message(names)
                == "1 of 4 shards have no report part: 1 (run them with --shard INDEX/4, or rerun those array tasks); 1 of 4 shards were stopped before the end: 2 (run them again with --resume); report.json was not written")
        #expect(OutputFolderError(path: "out", reason: "r", inUse: true).message(names)
                == "cannot write to the output folder out: r; wait for that run to finish, or choose another folder with -o")
        #expect(OutputFolderError(path: "out", reason: "r").message(names)
                == "cannot write to the output folder out: r; choose another folder with -o, or make this one writable")
        func refusal(_ text: String, shardCount: Int? = nil, _ environment: [String: String] = [:]) -> String? {
            do throws(SettingsError) {
                _ = try ShardRequest.parse(text, names: names).resolve(shardCount: shardCount, environment: environment, names: names)
                return nil
            } catch { return error.message }
        }
        #expect(refusal("3") == "'--shard' needs INDEX/COUNT (for example 0/4; INDEX counts from 0) or auto (got '3')")
        #expect(refusal("x/4") == "'--shard x/4': INDEX (counted from 0) needs a whole number of at least 0, at most 3 (got 'x')")
        #expect(refusal("1/4", shardCount: 3) == "'--shard 1/4' and '--shard-count 3' disagree; give one of them")
        #expect(refusal("auto", ["JOB_COMPLETION_INDEX": "2"]) == "'--shard auto': this is a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=2), which does not say how many shards there are; add --shard-count N or set CAPTION_ASSISTANT_SHARD_COUNT (the job's completions or array size)")
        #expect(refusal("auto")?.hasSuffix("; run it as an array task, or give --shard INDEX/COUNT") == true)
    }

    /// No option of the table is spelled in the code of `Assistant`,
    /// `Captions` or `CaptionAssistant`, in any of their folders (comments
    /// aside): they say what to do in their own terms. Only the command line
    /// (`CaptionAssistantCLI`) spells its options.
    @Test(arguments: ["Assistant", "Captions", "CaptionAssistant"])
    func theLibraryNeverSpellsAnOption(_ module: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/\(module)").standardizedFileURL
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        let files = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        try #require(files.count > 10)
        let spellings = CommandOption.table.flatMap(\.names)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("//") { continue }
                // A spelling counts as a whole name: `-v` is not spelled by `-value`.
                func spells(_ spelling: String) -> Bool {
                    let starts = ["\"", " ", "(", "'", "`", "="].map { $0 + spelling } + (trimmed.hasPrefix(spelling) ? [""] : [])
                    return starts.contains { start in
                        (start.isEmpty ? [Substring(trimmed.dropFirst(spelling.count))] : line.components(separatedBy: start).dropFirst().map { Substring($0) })
                            .contains { after in !(after.first.map { $0.isLetter || $0.isNumber || $0 == "-" } ?? false) }
                    }
                }
                for spelling in spellings where spells(spelling) {
                    Issue.record("\(module)/\(file):\(number + 1) spells \(spelling): \(line)")
                }
            }
        }
    }
}
