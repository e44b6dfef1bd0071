import CEarlySignals
import CaptionAssistant
import Foundation

// SIGINT and SIGTERM have been caught since before main (CEarlySignals, from
// the .preinit_array); reading them starts first thing, so a signal at any
// moment stops the batch with a report instead of killing the process.
let signals = InterruptSignals(earlyPipe: caption_assistant_stop_signal_pipe())

// Thin: every decision is in CaptionAssistantCommand, where tests can reach it.
let status = await CaptionAssistantCommand.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                               environment: ProcessInfo.processInfo.environment, signals: signals)
exit(status)
