import CaptionAssistant

/// The text `--help` prints: the prose is written here, the option lists
/// are made from `CommandOption.table`.
enum HelpText {
    /// Every option, each with a full sentence.
    static let text = """
    caption-assistant \(CaptionAssistantVersion.current): emphasise keywords, suggest titles and add an emoji to caption files with a language model.

    USAGE:
      caption-assistant [process] INPUT... -o OUTPUT_DIR [options]
      caption-assistant check [options]
      caption-assistant merge OUTPUT_DIR [--keep-parts] [--quiet] [--json]
      caption-assistant review OUTPUT_DIR [--jobs N] [--quiet] [--json]
      caption-assistant help | --help
      caption-assistant version | --version

    INPUT is a caption file (SRT, WebVTT or TTML), - for standard input, or a folder,
    searched recursively for \(InputPlan.searchedFor).
    Outputs mirror each folder given under OUTPUT_DIR (a file given alone lands at the
    top), each with a sidecar report NAME.assistant.json, plus OUTPUT_DIR/report.json.
    Inputs are never modified, and every output is written atomically. With -o - the
    one input's captions go to standard output and no report files are written.
    Nothing is ever written outside OUTPUT_DIR: symbolic links inside it are never
    followed, and in a folder given as INPUT a link to a file outside that folder is
    not read (its report entry says so; name the file itself to process it).
    Ctrl-C (SIGINT) or SIGTERM stops the batch: model requests in flight end at once
    (their files are not written), other files in flight are finished, the rest are
    listed in report.json as not processed, and --resume finishes the batch later
    (a second signal stops at once, without report.json).
    A folder in which no caption file is found is said on standard error, with the
    extensions looked for; when no input holds any caption file, nothing is done and
    the exit status is 66, unless --allow-empty is given (a file named on its own is
    read whatever its extension; --from reads every input as the format named). Each
    file that fails is said on standard error when it fails, and listed again at the
    end; so is each file written with an action failed or disabled, with why and the
    remedy (the first 20; report.json has them all, and caption-assistant review shows
    them). On a terminal a progress line is rewritten in place; where standard error is
    not a terminal (a CI log), a plain progress line is written every 30 seconds
    (neither with --quiet). Option names, commands and values of a fixed
    set (--to, --encoding, --model, --server-kind, --simulate-availability) are checked
    before any work, values ignoring case, and a near miss is answered with "did you mean".

    PROCESS OPTIONS:
    \(CommandOption.helpLines(.process))
    MODEL OPTIONS (process and check):
    \(CommandOption.helpLines(.model))
    OTHER:
    \(CommandOption.helpLines(.other))
    CHECK:
      caption-assistant check prints the backend, the spelling dictionaries titles are
      checked against (Hunspell's, when installed), whether the model is available and,
      if not, the reason row, the remedy, whether it is permanent, fixable or temporary,
      and whether Settings can help (--json prints the same as JSON). It exits 0 only when
      the configured model can answer, and 69 when it cannot (as under --require-model),
      so a CI step "caption-assistant check" fails with the server down. Names and texts
      a server sent are printed with control characters escaped (\\x0A, \\u{202E}).
      Proxies: an endpoint on this machine or its link (localhost, 127.0.0.0/8, ::1,
      169.254.0.0/16, fe80::/10) is always asked directly; otherwise no_proxy, then
      https_proxy (https://) or http_proxy (http://), then all_proxy apply, as in curl.
      An https:// endpoint goes through an HTTP proxy by a CONNECT tunnel (the key stays
      inside TLS). check prints a proxy: line, and process says it on its first line.

    MERGE:
      caption-assistant merge OUTPUT_DIR writes OUTPUT_DIR/report.json from the report parts
      of the shards (process --shard), byte for byte the report one process run writes, and
      removes the parts (--keep-parts keeps them). Every shard of the same inputs, options
      and count must be there and have run to the end; otherwise it writes nothing, names
      the shards to run again, and exits 75. Otherwise it exits as the one run would have:
      0, 1 when some file failed, 66 when an input does not exist.
    \(CommandOption.helpLines(.merge))
    REVIEW:
      caption-assistant review OUTPUT_DIR reads OUTPUT_DIR/report.json, the sidecars and the
      written captions and writes a static HTML site under OUTPUT_DIR/review/ (and nowhere
      else): index.html with the totals, the model that made the outputs (backend, model name
      and endpoint, never a key), why the model was unavailable and one row per file,
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
      69  the model is unavailable and --require-model was given; check: the model cannot answer
      73  the output folder cannot be created or written (checked before any file is read)
      75  merge: some shards have no report part yet, or were stopped (run them, then merge again)
      130 the batch was stopped by SIGINT (Ctrl-C); report.json lists the files not processed
      143 the batch was stopped by SIGTERM; report.json lists the files not processed

    """
}
