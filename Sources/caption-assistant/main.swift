import CEarlySignals
import CaptionAssistantCLI
import Foundation

// SIGINT and SIGTERM have been caught since before main (CEarlySignals, from
// the .preinit_array); the command reads them from that pipe first thing, so
// a signal at any moment stops the batch with a report instead of killing the
// process. Every decision is in CaptionAssistantCLI, where tests can reach it.
exit(await CaptionAssistantCommand.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                       environment: ProcessInfo.processInfo.environment,
                                       earlySignalPipe: caption_assistant_stop_signal_pipe()))
