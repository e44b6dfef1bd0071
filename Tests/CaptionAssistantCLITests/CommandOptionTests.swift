import Assistant
import CaptionAssistant
import Foundation
import Testing
@testable import CaptionAssistantCLI

/// The one table of options (`CommandOption.table`) against what is made from
/// it: the parser of every subcommand, `--help` and the README. The loops run
/// over the table, so a new option is covered without a new test.
@Suite struct OptionTableTests {
    /// The subcommands that take options.
    static let subcommands: [Subcommand] = [.process, .check, .merge, .review]

    /// A value each metavar accepts.
    static let sampleValues: [String: String] = [
        "DIR": "out", "srt|vtt|ttml": "srt", "N": "2", "INDEX/COUNT|auto": "0/2", "MESSAGE": "boom", "MS": "5",
        "auto|foundation|http|none": "auto", "URL": "http://127.0.0.1:8080", "NAME": "m", "KIND": "ollama",
        "SECONDS": "5", "REASON": "modelNotReady", "keep|utf-8": "utf-8", "TAG": "en-GB", "LIST": "titles,emoji",
        "all|first-in-cue|first": "first-in-cue", "none|local": "local", "FILE": "r.json",
    ]

    /// A command line of `subcommand` that is right up to `option`, then `option` (with `value`).
    static func arguments(_ subcommand: Subcommand, _ option: [String]) -> [String] {
        switch subcommand {
        case .process: return ["process", "in.srt", "-o", "out"] + option
        case .merge, .review: return [subcommand.rawValue, "out"] + option
        default: return [subcommand.rawValue] + option
        }
    }

    /// Whether the parser of `subcommand` takes `option` (the name, then its
    /// value if any): the command line parses, or fails for another reason
    /// than refusing the name (a combination the subcommand checks later).
    static func parserTakes(_ name: String, _ option: [String], _ subcommand: Subcommand) -> Bool {
        do {
            _ = try CommandLineParser.parse(arguments(subcommand, option), defaultJobs: 1)
            return true
        } catch {
            return error != CommandLineParser.refusal(name, for: subcommand)
        }
    }

    /// `--help`'s option lines, each with the heading of the part it is in
    /// (`PROCESS OPTIONS:`, `MERGE:`) and the names it lists.
    static func helpOptionLines() -> [(heading: String, names: [String])] {
        var heading = ""
        var found: [(String, [String])] = []
        for line in HelpText.text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first != " ", line.hasSuffix(":") { heading = String(line) }
            guard line.hasPrefix("  -") else { continue }
            let label = line.dropFirst(2).components(separatedBy: "  ")[0]
            found.append((heading, label.components(separatedBy: ", ").map { String($0.split(separator: " ")[0]) }))
        }
        return found
    }

    /// The heading under which `--help` lists `section`'s options.
    static func heading(_ section: CommandOption.Section) -> String {
        switch section {
        case .process: return "PROCESS OPTIONS:"
        case .model: return "MODEL OPTIONS (process and check):"
        case .merge: return "MERGE:"
        case .other: return "OTHER:"
        }
    }

    @Test func noNameIsInTheTableTwice() {
        let names = CommandOption.table.flatMap(\.names)
        #expect(Set(names).count == names.count)
        for option in CommandOption.table {
            #expect(!option.subcommands.isEmpty, "\(option.names) is taken by no subcommand")
            if let metavar = option.metavar { #expect(Self.sampleValues[metavar] != nil, "no sample value for \(metavar)") }
        }
    }

    @Test(arguments: CommandOption.table.flatMap(\.names))
    func theParserTakesAnOptionExactlyWhereTheTableSays(name: String) throws {
        let option = try #require(CommandOption.named(name))
        let value = option.metavar.map { Self.sampleValues[$0] ?? "?" }
        for subcommand in Self.subcommands {
            let expected = option.subcommands.contains(subcommand)
            #expect(Self.parserTakes(name, [name] + (value.map { [$0] } ?? []), subcommand) == expected,
                    "\(name) for \(subcommand.rawValue): the table says \(expected ? "yes" : "no")")
            if let value, name.hasPrefix("--") || name.hasPrefix("-test-") {
                #expect(Self.parserTakes(name, [name + "=" + value], subcommand) == expected, "\(name)=\(value) for \(subcommand.rawValue)")
            }
        }
    }

    /// Every option that takes a number (`N`, `MS`, `SECONDS`, `INDEX/COUNT`)
    /// refuses values past its range, past `Int`, negative, or not decimal
    /// with a usage error that names it (`--shard 9223372036854775807/…`
    /// was taken as "not INDEX/COUNT"; no value may reach arithmetic unchecked).
    @Test(arguments: CommandOption.table.filter { ["N", "MS", "SECONDS", "INDEX/COUNT|auto"].contains($0.metavar ?? "") }.map { $0.names[0] })
    func everyNumberOptionRefusesOutOfRangeValuesByName(name: String) throws {
        let option = try #require(CommandOption.named(name))
        let subcommand = try #require(option.subcommands.first)
        let numbers = ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999",
                       "-1", "1e400", "nan", "inf", "0x10", "\u{663}", ""]
        let values = option.metavar == "INDEX/COUNT|auto" ? numbers.flatMap { ["\($0)/2", "0/\($0)"] } : numbers
        for value in values {
            do {
                _ = try CommandLineParser.parse(Self.arguments(subcommand, [name, value]), defaultJobs: 1)
                Issue.record("\(name) \(value) was taken")
            } catch {
                #expect(error.message.hasPrefix("'\(name)"), "\(name) \(value): \(error.message)")
            }
        }
    }

    @Test func everyShownOptionIsInHelpOnceInItsSection() {
        let lines = Self.helpOptionLines()
        for option in CommandOption.table where !option.hidden {
            let listed = lines.filter { $0.names == option.names }
            #expect(listed.count == 1, "\(option.names) is listed \(listed.count) times in --help")
            #expect(listed.first?.heading == Self.heading(option.section), "\(option.names) is under \(listed.first?.heading ?? "nothing")")
            #expect(HelpText.text.contains(option.helpLine))
        }
        for option in CommandOption.table where option.hidden {
            #expect(!HelpText.text.contains(option.names[0]), "hidden \(option.names[0]) is in --help")
        }
    }

    @Test func everyOptionHelpNamesIsOneTheParserTakes() throws {
        // Every option-like word of --help, in the lists and in the prose.
        let pattern = try NSRegularExpression(pattern: #"(?:^|[\s(`'|,])(--?[a-z][a-z0-9-]*)"#, options: [.anchorsMatchLines])
        let text = HelpText.text
        let names = Set(pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        })
        #expect(names.count > 20)
        for name in names.sorted() {
            let value = CommandOption.named(name)?.metavar.map { Self.sampleValues[$0] ?? "?" }
            let option = [name] + (value.map { [$0] } ?? [])
            #expect(Self.subcommands.contains { Self.parserTakes(name, option, $0) }, "--help names \(name), which no subcommand takes")
        }
        for lines in Self.helpOptionLines() {
            #expect(lines.names.allSatisfy { CommandOption.named($0) != nil }, "\(lines.names) is in --help but not in the table")
        }
    }

    @Test func aNearMissOfALongOptionIsAnsweredWithIt() {
        for name in CommandLineParser.suggestable where name.count >= 8 {
            let message = usageMessage(["a.srt", "-o", "out", name + "x"])
            #expect(message?.contains("did you mean '\(name)'?") == true, "\(message ?? "no error")")
        }
    }

    @Test func mergeAndReviewListWhatTheyTakeFromTheTable() {
        #expect(usageMessage(["merge", "out", "--to", "srt"])
                == "unknown option '--to' for 'merge' (it takes OUTPUT_DIR, --keep-parts, --quiet and --json)")
        #expect(usageMessage(["review", "out", "--to", "srt"])
                == "'review' takes an output folder and --jobs N, --quiet or --json (unknown option '--to')")
        #expect(usageMessage(["a.srt", "-o", "out", "--keep-parts"]) == "'--keep-parts' is an option of 'merge', not of 'process'")
        #expect(usageMessage(["check", "--jobs", "2"]) == "'--jobs' is an option of 'process', not of 'check'")
    }

    @Test func theReadmeMentionsEveryShownOption() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md"), encoding: .utf8)
        for option in CommandOption.table where !option.hidden {
            let mentioned = option.names.contains { name in
                readme.components(separatedBy: name).dropFirst().contains { after in
                    !(after.first.map { $0.isLetter || $0.isNumber || $0 == "-" } ?? false)
                }
            }
            #expect(mentioned, "README.md does not mention \(option.names.joined(separator: " or "))")
        }
    }

    /// The retry policy is stated once (`AssistantOptions.retryPolicy`); `--help`
    /// and `check` print it, and the README must say the same words (its line
    /// breaks aside).
    @Test func helpAndTheReadmeGiveTheOneRetryPolicy() throws {
        let policy = AssistantOptions().retryPolicy
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md"), encoding: .utf8)
        let flowing = readme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flowing.contains(policy.prefix(1).uppercased() + policy.dropFirst()), "README.md does not state: \(policy)")
        let help = try #require(CommandOption.table.first { $0.names.contains("--request-timeout") }).help
        #expect(help.contains("Retry policy: \(policy);"))
    }
}
