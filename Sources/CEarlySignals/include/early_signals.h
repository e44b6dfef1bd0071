#ifndef CAPTION_ASSISTANT_EARLY_SIGNALS_H
#define CAPTION_ASSISTANT_EARLY_SIGNALS_H

/// The read end of the pipe to which the handler installed before main
/// writes one byte, the signal's number, for each SIGINT or SIGTERM; -1 when
/// it could not be installed. Calling it from main also keeps the object
/// file, and with it the .preinit_array entry that installs the handler, in
/// the link.
int caption_assistant_stop_signal_pipe(void);

#endif
