import Assistant
import Foundation
import Testing
@testable import CaptionAssistantCLI

/// The library's advice names settings (`AssistantSetting`); the command line
/// spells each as the option of its table that sets it. No option is spelled
/// anywhere else: not in `Assistant`, not in `Captions`.
@Suite struct SettingNamesTests {
    /// Every setting but the API key (which has no option: it comes from the
    /// environment) is set by exactly one option of the table.
    @Test(arguments: AssistantSetting.allCases)
    func everySettingIsSpelledByTheOptionThatSetsIt(_ setting: AssistantSetting) throws {
        let spelled = CommandOption.settingNames.spell(setting)
        if setting == .apiKey {
            #expect(spelled == HTTPConfiguration.apiKeyVariable)
            #expect(!CommandOption.table.contains { $0.setting == setting })
            return
        }
        let options = CommandOption.table.filter { $0.setting == setting }
        try #require(options.count == 1, "\(setting) is set by \(options.count) options")
        #expect(spelled == options[0].names.last)
        #expect(CommandOption.settingNames.spell(setting, .literal("x")) == spelled + " x")
        if let metavar = options[0].metavar {
            #expect(CommandOption.settingNames.spell(setting, .placeholder) == spelled + " " + metavar)
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

    /// No option of the table is spelled in the code of `Assistant` or
    /// `Captions` (comments aside): they say what to do in their own terms.
    @Test(arguments: ["Assistant", "Captions"])
    func theLibraryNeverSpellsAnOption(_ module: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/\(module)").standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        try #require(files.count > 10)
        let spellings = CommandOption.table.flatMap(\.names).filter { $0.count > 2 }
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String(line)
                for spelling in spellings where code.contains("\"" + spelling) || code.contains(" " + spelling) || code.contains("(" + spelling) {
                    Issue.record("\(module)/\(file):\(number + 1) spells \(spelling): \(line)")
                }
            }
        }
    }
}
