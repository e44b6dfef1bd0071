import CaptionAssistant
import Foundation

// Thin: every decision is in CaptionAssistantCommand, where tests can reach it.
let status = await CaptionAssistantCommand.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                               environment: ProcessInfo.processInfo.environment)
exit(status)
