/// The text `--help` prints.
public enum HelpText {
    /// Every option, each with a full sentence.
    public static let text = """
    caption-assistant \(CaptionAssistantVersion.current): emphasise keywords, suggest titles and add an emoji to caption files with a language model.

    USAGE:
      caption-assistant [process] INPUT... -o OUTPUT_DIR [options]
      caption-assistant check [options]
      caption-assistant merge OUTPUT_DIR [--keep-parts] [--quiet] [--json]
      caption-assistant review OUTPUT_DIR [--jobs N] [--quiet] [--json]
      caption-assistant help | --help
      caption-assistant version | --version

    INPUT is a caption file (SRT, WebVTT or TTML), a folder (searched recursively for
    .srt, .vtt, .webvtt, .ttml, .dfxp and TTML .xml files), or - for standard input.
    Outputs mirror each folder given under OUTPUT_DIR (a file given alone lands at the
    top), each with a sidecar report NAME.assistant.json, plus OUTPUT_DIR/report.json.
    Inputs are never modified, and every output is written atomically. With -o - the
    one input's captions go to standard output and no report files are written.
    Nothing is ever written outside OUTPUT_DIR: symbolic links inside it are never
    followed, and in a folder given as INPUT a link to a file outside that folder is
    not read (its report entry says so; name the file itself to process it).
    Ctrl-C (SIGINT) or SIGTERM stops the batch: files in flight are finished, the others
    are listed in report.json as not processed, and --resume finishes the batch later
    (a second signal stops at once, without report.json).
    A folder in which no caption file is found is said on standard error, with the
    extensions looked for; when no input holds any caption file, nothing is done and
    the exit status is 66, unless --allow-empty is given (a file named on its own is
    read whatever its extension). Each file that fails is said on standard error when
    it fails, and listed again at the end. Option names, commands and values of a fixed
    set (--to, --model, --server-kind, --simulate-availability) are checked before any
    work, values ignoring case, and a near miss is answered with "did you mean".

    PROCESS OPTIONS:
      -o, --output DIR            Write the outputs under DIR (created if needed; it must not lie inside an input folder), or to standard output with -o -.
      --to srt|vtt|ttml           Convert the captions to this format while writing (webvtt is vtt, dfxp is ttml; outputs are named .srt, .vtt or .ttml); the report lists what could not be carried over.
      --max-characters N          Send the model at most N characters of the transcript (default 3000, at most 10000000); a cut falls between words, so fewer may be sent.
      --jobs N                    Process up to N files at once (default: the number of processor cores).
      --resume                    Skip every file an earlier run already wrote completely from the same input with the same options (its sidecar records the SHA-256 of the input and output and the options), so a killed or interrupted batch is finished by running the same command again with --resume.
      --allow-empty               Accept a run that finds no caption file: exit 0 (the warning is still printed) instead of 66.
      --shard INDEX/COUNT|auto    Process only shard INDEX (from 0) of COUNT: a cut of the sorted inputs, balanced by size, the same on every machine; its report part goes to OUTPUT_DIR/report.shard-INDEX-of-COUNT.json (merge them with 'merge'). auto takes the shard from a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _COUNT), a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or an AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX).
      --shard-count N             With --shard auto on Kubernetes or AWS Batch, which give only the index: the number of shards (also CAPTION_ASSISTANT_SHARD_COUNT).
      --quiet                     Print no progress line and no summary on standard error; errors and warnings are still printed.
      --json                      Print a machine-readable summary of the run on standard output (with the reasons the model was unavailable and its errors), and no progress line.

    MODEL OPTIONS (process and check):
      -test-fake-assistant        Use the built-in deterministic fake model instead of a real one (for tests; the report says "fake").
      --model auto|foundation|http|none
                                  Choose the backend: auto uses Apple's on-device model where present, else the HTTP server if an endpoint is set, else none.
      --endpoint URL              Use the OpenAI-compatible HTTP server at URL (also CAPTION_ASSISTANT_ENDPOINT; an API key, if needed, comes from CAPTION_ASSISTANT_API_KEY and is never printed).
      --model-name NAME           Ask the HTTP server for the model NAME (also CAPTION_ASSISTANT_MODEL).
      --server-kind KIND          Say which kind of HTTP server this is (auto, llama-cpp, llama-cpp-python, ollama, vllm or openai), so the answer's format is requested the way it understands.
      --request-timeout SECONDS   Give up on one model request after SECONDS (default 120). Retry policy: a request that fails for a temporary reason (no answer in time, a dropped connection, HTTP 429 or 5xx) is tried up to 3 times in all, with pauses of about 2 s and 4 s; the report gives the attempts.
      --model-time-limit SECONDS  Bound the model time of one file, every attempt, pause and repair request together, to SECONDS (default: no bound beyond the attempts).
      --simulate-availability REASON
                                  Force the model's availability, for previews and tests: available, deviceNotEligible, appleIntelligenceNotEnabled, modelNotReady, unsupportedPlatform, serverUnreachable, modelMissing, modelTurnedOff, unknown, or unknown:MESSAGE (an unknown reason with that text).
      --wait-for-model SECONDS    When the model is still getting ready, check again gently for up to SECONDS before giving up.
      --require-model             Exit with status 69 when the model is unavailable, instead of writing unchanged captions, or when it was there but no file got a usable answer (for CI that must not pass silently).

    OTHER:
      -h, --help                  Print this help and exit.
      --version                   Print the version and exit.

    CHECK:
      caption-assistant check prints the backend, whether the model is available and,
      if not, the reason row, the remedy, whether it is permanent, fixable or temporary,
      and whether Settings can help (--json prints the same as JSON). It exits 0, or 69
      when the model is unavailable and --require-model is given.

    MERGE:
      caption-assistant merge OUTPUT_DIR writes OUTPUT_DIR/report.json from the report parts
      of the shards (process --shard), byte for byte the report one process run writes, and
      removes the parts (--keep-parts keeps them). Every shard of the same inputs, options
      and count must be there and have run to the end; otherwise it writes nothing, names
      the shards to run again, and exits 75. Otherwise it exits as the one run would have:
      0, 1 when some file failed, 66 when an input does not exist.

    REVIEW:
      caption-assistant review OUTPUT_DIR reads OUTPUT_DIR/report.json, the sidecars and the
      written captions and writes a static HTML site under OUTPUT_DIR/review/ (and nowhere
      else): index.html with the totals, why the model was unavailable and one row per file,
      with lists of the failed, disabled and with-warnings files; and one page per file with
      its three actions as the assistant menu shows them, its warnings and its captions.
      The pages run no script and load nothing from the network. It exits 0, 65 when
      report.json cannot be read, 66 when the folder or its report.json is missing, or 73
      when a page cannot be written. --jobs N makes N pages at once (default: the number
      of processor cores); --quiet prints no summary; --json prints one on standard output.

    EXIT STATUS:
      0   every file was written (actions the model could not do are in the report)
      1   some file could not be read or written (the others were still written)
      64  the command line is wrong
      65  merge: the report parts are of different runs (inputs, options or shard count), or one is damaged
      66  an input does not exist (the other inputs are still processed), or no caption file was found (without --allow-empty)
      69  the model is unavailable and --require-model was given
      73  the output folder cannot be created or written (checked before any file is read)
      75  merge: some shards have no report part yet, or were stopped (run them, then merge again)
      130 the batch was stopped by SIGINT (Ctrl-C); report.json lists the files not processed
      143 the batch was stopped by SIGTERM; report.json lists the files not processed

    """
}
