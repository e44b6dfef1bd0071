#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "early_signals.h"

static int pipe_ends[2] = {-1, -1};

/* Async-signal-safe: only write(2), with errno kept. */
static void caption_assistant_note_stop_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    if (pipe_ends[1] >= 0) { ssize_t ignored = write(pipe_ends[1], &byte, 1); (void)ignored; }
    errno = saved;
}

/* Runs when the executable is loaded, from its .preinit_array: before any
   shared library's initialisers (the Swift runtime, Foundation, and the TLS
   and Kerberos libraries that libcurl pulls in take tens of
   milliseconds) and before any thread exists. From here on SIGINT and
   SIGTERM are caught by a handler that writes their number into a pipe, so
   one that comes before Swift code runs is not fatal: it waits in the pipe
   until InterruptSignals reads it, and then stops the batch like any other
   (a report, status 130 or 143) instead of killing the process with nothing
   written. Only the executable links this target: the library and its tests
   are not affected. Only the dynamic loader's own work comes before this. */
static void caption_assistant_catch_stop_signals(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    if (pipe(pipe_ends) != 0) { pipe_ends[0] = pipe_ends[1] = -1; return; }
    for (int i = 0; i < 2; i++) fcntl(pipe_ends[i], F_SETFD, FD_CLOEXEC);
    fcntl(pipe_ends[1], F_SETFL, O_NONBLOCK);  /* a full pipe drops a byte, never blocks the handler */
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = caption_assistant_note_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, 0);
    sigaction(SIGTERM, &action, 0);
    /* A mask inherited with them blocked would keep a stop from ever being
       seen; one already pending (sent before exec) is handled now. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &set, 0);
}

int caption_assistant_stop_signal_pipe(void) { return pipe_ends[0]; }

__attribute__((section(".preinit_array"), used))
static void (*const caption_assistant_preinit)(int, char **, char **) = caption_assistant_catch_stop_signals;
