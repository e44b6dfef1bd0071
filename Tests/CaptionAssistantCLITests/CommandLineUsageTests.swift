import Assistant
import Captions
import Foundation
import Testing
@testable import CaptionAssistant
@testable import CaptionAssistantCLI

/// What a person types: subcommands, option names and values are checked
/// early, answered with the nearest name ("did you mean"), and explained.
@Suite struct CommandLineUsageTests {
    // MARK: Subcommands, spelling, case

    @Test func helpAndVersionAreSubcommands() throws {
        #expect(try CommandLineParser.parse(["help"], defaultJobs: 1) == .help)
        #expect(try CommandLineParser.parse(["help", "check"], defaultJobs: 1) == .help)
        #expect(try CommandLineParser.parse(["version"], defaultJobs: 1) == .version)
        #expect(usageMessage(["version", "x"])?.contains("'version' takes nothing") == true)
        #expect(Subcommand.names == ["process", "check", "merge", "review", "help", "version"])
    }

    @Test(arguments: [("checks", "check"), ("proces", "process"), ("hlep", "help"), ("verison", "version")])
    func aMistypedSubcommandIsAnsweredWithTheNearest(typed: String, meant: String) {
        let message = usageMessage([typed])
        #expect(message?.contains("did you mean '\(meant)'?") == true, "\(message ?? "no error")")
    }

    @Test func aPathLikeFirstArgumentIsAnInputNotACommand() throws {
        // Names with a dot or slash, or that exist, are inputs: no suggestion.
        #expect(try processOptions(["checks.srt", "-o", "o"]).inputs == ["checks.srt"])
        #expect(try processOptions(["./checks", "-o", "o"]).inputs == ["./checks"])
        #expect(try processOptions(["episodes", "-o", "o"]).inputs == ["episodes"])
    }

    @Test func unknownOptionsGetTheNearestAndTheTestFlagItsOneDash() {
        #expect(usageMessage(["a", "-o", "o", "--test-fake-assistant"])?.contains("did you mean '-test-fake-assistant'? (the test flags take one dash") == true)
        #expect(usageMessage(["a", "-o", "o", "--max-char", "3"])?.contains("did you mean '--max-characters'?") == true)
        #expect(usageMessage(["a", "-o", "o", "--jsno"])?.contains("did you mean '--json'?") == true)
        #expect(usageMessage(["a", "-o", "o", "--frobnicate"]) == "unknown option '--frobnicate'")
    }

    @Test func enumeratedValuesIgnoreCaseAlike() throws {
        let options = try processOptions(["a", "-o", "o", "--to", "SRT", "--model", "AUTO", "--server-kind", "OLLAMA",
                                   "--simulate-availability", "modelnotready"])
        #expect(options.convertTo == .srt)
        #expect(options.model.backend == .auto)
        #expect(options.model.serverKind == "ollama")
        #expect(options.model.simulatedAvailability == "modelNotReady")
        #expect(try processOptions(["a", "-o", "o", "--simulate-availability", "UNKNOWN:Lab Model Off"]).model.simulatedAvailability == "unknown:Lab Model Off")
        #expect(try processOptions(["a", "-o", "o", "--simulate-availability", "Available"]).model.simulatedAvailability == "available")
    }

    @Test func encodingAndLanguageAreTaken() throws {
        #expect(try processOptions(["a", "-o", "o"]).writeOptions == WriteOptions())
        for spelling in ["utf-8", "UTF-8", "utf8"] {
            #expect(try processOptions(["a", "-o", "o", "--encoding", spelling]).writeOptions.encoding == .utf8)
        }
        #expect(try processOptions(["a", "-o", "o", "--encoding", "KEEP"]).writeOptions.encoding == .keep)
        // The tag is kept as typed (BCP 47 tags ignore case).
        #expect(try processOptions(["a", "-o", "o", "--language", "zh-Hant-TW"]).writeOptions.language == "zh-Hant-TW")
        #expect(usageMessage(["a", "-o", "o", "--encoding", "utf-16"])?.contains("did you mean 'utf-8'?") == true)
    }

    @Test(arguments: [("webvtt", CaptionFormat.vtt), ("WebVTT", .vtt), ("dfxp", .ttml), ("DFXP", .ttml), ("vtt", .vtt), ("ttml", .ttml)])
    func toTakesItsAliases(spelling: String, format: CaptionFormat) throws {
        #expect(try processOptions(["a", "-o", "o", "--to", spelling]).convertTo == format)
    }

    /// `--to` takes the extensions the table marks as naming a conversion
    /// target, and refuses the others; its help and refusal list them all.
    @Test(arguments: CaptionFileExtension.all)
    func toTakesWhatTheExtensionTableSays(_ entry: CaptionFileExtension) throws {
        if entry.namesConversionTarget {
            #expect(try processOptions(["a", "-o", "o", "--to", entry.name.uppercased()]).convertTo == entry.format)
            let refusal = usageMessage(["a", "-o", "o", "--to", "nothing"]) ?? ""
            #expect(refusal.contains(entry.name))
            let option = try #require(CommandOption.named("--to"))
            #expect(option.helpLine.contains(entry.name))
        } else {
            #expect(usageMessage(["a", "-o", "o", "--to", entry.name]) != nil)
        }
    }

    @Test func toIsListedFromTheTable() throws {
        let option = try #require(CommandOption.named("--to"))
        #expect(option.metavar == "srt|vtt|ttml")
        #expect(option.help.contains("(webvtt is vtt, dfxp is ttml; outputs are named .srt, .vtt or .ttml)"))
        #expect(usageMessage(["a", "-o", "o", "--to", "nothing"])?.contains("must be one of srt, vtt (or webvtt), ttml (or dfxp) (got 'nothing')") == true)
        #expect(HelpText.text.contains("searched recursively for \(InputPlan.searchedFor)."))
    }

    @Test func badValuesListTheChoicesAndTheNearest() {
        #expect(usageMessage(["a", "-o", "o", "--to", "dfx"])?.contains("did you mean 'dfxp'?") == true)
        #expect(usageMessage(["a", "-o", "o", "--model", "htp"])?.contains("did you mean 'http'?") == true)
        #expect(usageMessage(["a", "-o", "o", "--simulate-availability", "modelNotRedy"])?.contains("did you mean 'modelNotReady'?") == true)
    }

    @Test func helpNamesUnknownWithAMessageAndTheAliases() {
        #expect(HelpText.text.contains("unknown:MESSAGE"))
        #expect(HelpText.text.contains("dfxp is ttml"))
        #expect(HelpText.text.contains("--allow-empty"))
        for name in Subcommand.names { #expect(HelpText.text.contains("caption-assistant \(name)") || name == "process") }
    }

    @Test func nearestNameIsQuietWhenNothingIsClose() {
        #expect(NearestName.nearest(to: "bogus", among: HTTPServerKind.allCases.map(\.rawValue)) == nil)
        #expect(NearestName.nearest(to: "lama-cpp", among: HTTPServerKind.allCases.map(\.rawValue)) == "llama-cpp")
        #expect(NearestName.distance(Array("ab"), Array("ba")) == 1)
        #expect(NearestName.distance(Array("kitten"), Array("sitting")) == 3)
    }

    // MARK: Values checked early and explained

    @Test func serverKindIsCheckedWithoutAnEndpointAndListsTheKinds() {
        let message = usageMessage(["a", "-o", "o", "--server-kind", "bogus"])
        #expect(message?.contains("auto, llama-cpp, llama-cpp-python, ollama, vllm, openai") == true)
    }

    @Test func aNumberTooBigIsSaidToBeTooBig() {
        #expect(usageMessage(["a", "-o", "o", "--max-characters", "99999999999999999999"]) == "'--max-characters' is too big: at most 10000000 (got '99999999999999999999')")
        #expect(usageMessage(["a", "-o", "o", "--jobs", "5000"]) == "'--jobs' is too big: at most 1024 (got '5000')")
        #expect(usageMessage(["a", "-o", "o", "--jobs", "-99999999999999999999"])?.contains("needs a whole number of at least 1") == true)
    }

    @Test func aBadEndpointFromTheEnvironmentNamesTheVariableAndTheForm() throws {
        var options = ModelOptions()
        options.backend = .http
        #expect {
            _ = try AssistantBackend.make(options, maxCharacters: 3000, environment: ["CAPTION_ASSISTANT_ENDPOINT": "notaurl"],
                                          names: CommandOption.settingNames)
        } throws: { error in
            let message = (error as? SettingsError)?.message ?? ""
            return message.hasPrefix("CAPTION_ASSISTANT_ENDPOINT (from the environment):") && message.contains("http://HOST:PORT")
                && message.contains("unset CAPTION_ASSISTANT_ENDPOINT")
        }
        options.endpoint = "notaurl"
        #expect {
            _ = try AssistantBackend.make(options, maxCharacters: 3000, environment: [:], names: CommandOption.settingNames)
        } throws: { error in
            let message = (error as? SettingsError)?.message ?? ""
            return message.hasPrefix("--endpoint:") && message.contains("http://HOST:PORT") && !message.contains("CAPTION_ASSISTANT_ENDPOINT")
        }
    }

    // MARK: Nothing found (the plan's side is InputPlanTests.aFolderWithNoCaptionFileIsNamed)

    @Test func allowEmptyIsAnOptionOfProcessOnly() throws {
        #expect(try processOptions(["a", "-o", "o", "--allow-empty"]).allowEmpty)
        #expect(usageMessage(["check", "--allow-empty"])?.contains("an option of 'process'") == true)
    }
}
