import Testing
import CaptionAssistant
@testable import CaptionAssistantCLI

/// The process options `args` parse to (four cores by default); records an
/// issue when they parse to another command.
func processOptions(_ args: [String]) throws -> ProcessOptions {
    guard case .process(let options) = try CommandLineParser.parse(args, defaultJobs: 4) else {
        Issue.record("not a process command")
        return ProcessOptions(jobs: 0)
    }
    return options
}

/// The message of the usage error `args` give, or nil when they parse.
func usageMessage(_ args: [String]) -> String? {
    do {
        _ = try CommandLineParser.parse(args, defaultJobs: 1)
        return nil
    } catch {
        return error.message
    }
}
