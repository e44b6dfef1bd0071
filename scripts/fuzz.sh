#!/usr/bin/env bash
# Fuzzes the caption readers, the suggestion decoder and the report readers with libFuzzer.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# TARGETs: srt vtt ttml decoder job report answer (default: all). SECONDS_PER_TARGET defaults to 60.
# `job` runs the whole per-file job on any caption file (format from content):
# read -> keyword emphasis with words taken from the file -> the emoji -> write,
# and --to each format; each must write, and read back with the same cues.
# `report` reads any bytes as merge and review read the tool's own files: as a
# shard's report part (merged), as report.json (streamed strictly and leniently,
# and reviewed), and the entries that read strictly, written as a part, must merge
# into exactly the report.json one run writes.
# `answer` feeds any bytes as a hostile model's answer (to the first request and the
# repair) through the whole file job and checks ServerTextGate's bounds on every
# output: kept titles and keywords, the sidecar (bytes, hidden characters, bearer
# tokens), the repair request's growth and the caption's.
#
# Targets are built under .build/fuzz/ with `swiftc -sanitize=fuzzer,address`
# from their module's sources plus the entry files in Fuzz/ (rebuilt only when a
# source changed): `captions` serves srt, vtt and ttml (CAPTION_FUZZ_READER
# picks the reader), `decoder` the suggestion decoder, `job` the per-file job
# (Captions plus CaptionAssistant's keyword emphasis files, as one module), `report` the
# CaptionAssistant module. The modules a target's module imports (Words, the one word
# rule, for Captions; Words and JSON for Assistant; Words, JSON, Captions and Assistant
# for CaptionAssistant, with CBuildInfo's C file) are compiled first as modules of their
# own, as SwiftPM builds them. A target's corpus lives
# in .build/fuzz/corpus-TARGET (seeded from the test fixtures and Samples/, and
# kept between runs so it grows); the repo is not modified. A crash, timeout,
# leak or out-of-memory input is left in fuzz-out/ for reproduction:
#   CAPTION_FUZZ_READER=srt .build/fuzz/captions fuzz-out/srt-crash-...
#   .build/fuzz/decoder fuzz-out/decoder-crash-...
#   .build/fuzz/job fuzz-out/job-crash-...
#   .build/fuzz/report fuzz-out/report-crash-...
#   .build/fuzz/answer fuzz-out/answer-crash-...
#
# Prints executions and findings per target; exits 1 if anything was found,
# 2 on a build or usage error. Needs only the Swift toolchain, libxml2-dev and libssl-dev.
#
# FUZZ_OPTIMIZATION=-Onone builds in about a third of the time (12 s rather than
# 35 s per binary on 2 cores) but runs about a quarter as many inputs a second:
# worth it only for runs of a few seconds per target, as in CI.
set -uo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."

seconds=60
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(srt vtt ttml decoder job report answer)

build=.build/fuzz
optimization=${FUZZ_OPTIMIZATION:--O}
out=fuzz-out
mkdir -p "$build" "$out"

swiftc_bin=$(command -v swiftc) || { echo "fuzz.sh: swiftc not found" >&2; exit 2; }
linker=()
[ -x "$(dirname "$swiftc_bin")/ld.lld" ] && linker=(-use-ld=lld)
xml_flags=()
if pkg-config --exists libxml-2.0 2>/dev/null; then
    for f in $(pkg-config --cflags-only-I libxml-2.0); do xml_flags+=(-Xcc "$f"); done
    for f in $(pkg-config --libs libxml-2.0); do xml_flags+=("$f"); done
else
    xml_flags=(-Xcc -I/usr/include/libxml2 -lxml2)
fi
# Assistant's HTTP goes through libcurl on Linux (Sources/CLibCurl), as in the package build.
curl_flags=(-I Sources/CLibCurl -I Sources/CLibHunspell)   # no curl or hunspell headers needed; each shim.h opens its library when first used

# Per target: binary, module, entry files, seed extensions, max input length.
binary_of() { case $1 in srt|vtt|ttml) echo captions ;; decoder) echo decoder ;; job) echo job ;; report) echo report ;; answer) echo answer ;; esac; }
module_of() { case $1 in srt|vtt|ttml|job) echo Captions ;; decoder) echo Assistant ;; report|answer) echo CaptionAssistant ;; esac; }
entries_of() { case $1 in srt|vtt|ttml) echo Fuzz/CaptionFuzzCheck.swift Fuzz/CaptionReaderFuzz.swift ;; decoder) echo Fuzz/SuggestionDecoderFuzz.swift ;;
               job) echo Fuzz/CaptionJobFuzz.swift ;; report) echo Fuzz/ReportReaderFuzz.swift ;; answer) echo Fuzz/HostileAnswerFuzz.swift ;; esac; }
# The modules a target's module imports, compiled first (in this order) as modules of their own.
deps_of() { case $1 in Captions) echo Words ;; Assistant) echo Words JSON ;; CaptionAssistant) echo Words JSON Captions Assistant ;; esac; }
exts_of() { case $1 in srt) echo "srt" ;; vtt) echo "vtt webvtt" ;; ttml) echo "ttml xml dfxp imsc" ;; decoder) echo "json txt" ;; job) echo "srt vtt webvtt ttml xml dfxp" ;; report) echo "json" ;; answer) echo "answer" ;; esac; }
maxlen_of() { case $1 in decoder) echo 16384 ;; *) echo 65536 ;; esac; }

# Every Swift file of the module $1, subfolders included, in a stable order (NUL-separated).
module_sources() { find Sources/"$1" -name '*.swift' -print0 | sort -z; }

# Compiles the module $1 into $2/$1-code.o and $2/$1.swiftmodule, for a target that imports it
# (not $1.o: with -g and no optimisation the driver wraps the module into an object of that name).
build_dependency() {
    local module=$1 dir=$2 f sources=() extra=()
    while IFS= read -r -d '' f; do sources+=("$f"); done < <(module_sources "$module")
    [ "$module" = Captions ] && extra=(-I Sources/CLibXML2 $(for f in "${xml_flags[@]}"; do [[ $f == -Xcc || $f == -I* ]] && echo "$f"; done))
    [ "$module" = Assistant ] && extra=(-I Sources/CLibCurl -I Sources/CLibHunspell)
    swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 "$optimization" -g -wmo -c \
        -module-name "$module" -package-name CaptionAssistant -emit-module -emit-module-path "$dir/$module.swiftmodule" \
        "${sources[@]}" "${extra[@]}" -I "$dir" -o "$dir/$module-code.o"
}

build_target() {
    local t=$1 module bin f dep
    module=$(module_of "$t"); bin=$build/$(binary_of "$t")
    local sources=() inputs=()
    while IFS= read -r -d '' f; do sources+=("$f"); done < <(module_sources "$module")
    sources+=($(entries_of "$t"))
    inputs=("${sources[@]}")
    for dep in $(deps_of "$module"); do
        while IFS= read -r -d '' f; do inputs+=("$f"); done < <(module_sources "$dep")
    done
    for f in "${sources[@]}"; do [ -f "$f" ] || { echo "fuzz.sh: $f is missing" >&2; return 1; }; done
    if [ -x "$bin" ] && [ "$(cat "$bin.optimization" 2>/dev/null)" = "$optimization" ] \
            && [ -z "$(find "${inputs[@]}" "$self" -newer "$bin" 2>/dev/null | head -1)" ]; then
        return 0
    fi
    echo "== build $(binary_of "$t") ($optimization)" >&2
    # Its imports as SwiftPM builds them: each module it imports compiled first (Words uses ICU
    # through Foundation's _FoundationICU); for CaptionAssistant also CBuildInfo's C file (with a
    # module map for its header), OpenSSL's libcrypto through CLibCrypto's module map, and libcurl.
    local deps=$build/$(binary_of "$t")-deps extra=() objects=()
    rm -rf "$deps"; mkdir -p "$deps"
    : >"$bin.build.log"
    for dep in $(deps_of "$module"); do
        build_dependency "$dep" "$deps" >>"$bin.build.log" 2>&1 || { grep -v 'warning: Cannot export local symbol' "$bin.build.log" >&2; return 1; }
        objects+=("$deps/$dep-code.o")
    done
    [ ${#objects[@]} -gt 0 ] && extra+=(-I "$deps" "${objects[@]}" -l_FoundationICU)
    [ "$module" = Captions ] && extra+=(-I Sources/CLibXML2 "${xml_flags[@]}")
    [ "$module" = Assistant ] && extra+=("${curl_flags[@]}")
    if [ "$module" = CaptionAssistant ]; then
        mkdir -p "$deps/CBuildInfo"
        printf 'module CBuildInfo {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CBuildInfo/include/build_info.h" \
            >"$deps/CBuildInfo/module.modulemap"
        clang -c -g "${optimization/-Onone/-O0}" -I Sources/CBuildInfo/include Sources/CBuildInfo/build_info.c -o "$deps/build_info.o" >>"$bin.build.log" 2>&1 \
            || { cat "$bin.build.log" >&2; return 1; }
        extra+=(-I "$deps/CBuildInfo" -I Sources/CLibCrypto -I Sources/CLibXML2 "$deps/build_info.o"
                "${xml_flags[@]}" "${curl_flags[@]}" -lcrypto)
    fi
    if ! swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 "$optimization" -g \
            -module-name "$module" -package-name CaptionAssistant "${sources[@]}" "${extra[@]}" "${linker[@]}" \
            -o "$bin.tmp" >>"$bin.build.log" 2>&1; then
        grep -v 'warning: Cannot export local symbol' "$bin.build.log" >&2
        return 1
    fi
    mv "$bin.tmp" "$bin"
    echo "$optimization" >"$bin.optimization"
}

seed_corpus() {
    local t=$1 dir=$build/corpus-$t ext found=0
    mkdir -p "$dir"
    for ext in $(exts_of "$t"); do
        while IFS= read -r -d '' f; do
            # Name seeds by content hash so reruns do not pile up copies.
            cp "$f" "$dir/seed-$(cksum <"$f" | cut -d' ' -f1)"; found=1
        done < <(find Tests/CaptionsTests/Fixtures/valid Tests/AssistantTests/Fixtures Samples UITestFixtures \
                      -type f -iname "*.$ext" -print0 2>/dev/null)
    done
    # A minimal seed of our own, so a checkout without fixtures still fuzzes something.
    case $t in
        srt) printf '1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> &amp; {\\an8}world\r\n\r\n2\n00:00:03.000 --> 00:00:04,000 X1:10\nsecond\nline\n' >"$dir/seed-builtin" ;;
        vtt) printf 'WEBVTT\n\nSTYLE\n::cue { color: red }\n\nNOTE hi\n\nid1\n00:01.000 --> 00:02.000 line:0 align:start\n<v Bob><b>Hi</b> &lt;there&gt;</v>\n\n01:00:03.000 --> 01:00:04.000\n<c.x>two</c> <00:00:03.500>lines\n' >"$dir/seed-builtin" ;;
        job) printf '1\n00:00:01,000 --> 00:00:02,500\nThe rocket <i>launch</i> &amp; rocket\n\n2\n00:00:03,000 --> 00:00:04,000\nrocket 00:00:05,000 --> 00:00:06,000\n' >"$dir/seed-builtin"
             printf 'WEBVTT\n\nNOTE n\n\n00:01.000 --> 00:02.000\n<v Bob>rocket  launch</v> <ruby>kan<rt>kanji</rt></ruby> &lt;i&gt;\n' >"$dir/seed-builtin-vtt"
             printf '<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="0s"><br/>rocket<br/><br/>&lt;i&gt; 00:00:05,000 --&gt; 00:00:06,000</p><p begin="1s" xml:space="preserve">a\n\nrocket</p></div></body></tt>\n' >"$dir/seed-builtin-ttml" ;;
        ttml) printf '<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="25" ttp:tickRate="10000000">\n<head><styling><style xml:id="s1" tts:fontStyle="italic"/></styling></head>\n<body><div begin="1s">\n<p xml:id="c1" begin="00:00:01.000" end="00:00:02:05">Hello <span style="s1">world</span><br/>again</p>\n<p begin="30000000t" dur="1.5s">two &amp; <span tts:fontWeight="bold">bold</span></p>\n</div></body></tt>\n' >"$dir/seed-builtin" ;;
        decoder) printf '{"keywords": ["weather", "forecast"], "titles": ["One", "Two", "Three"], "emoji": "\xf0\x9f\x8c\xa6\xef\xb8\x8f"}' >"$dir/seed-builtin"
                 printf 'Sure! Here it is:\n```json\n{"keywords":["rain"],"titles":["A","B","C","D"],"emoji":"\\ud83c\\udf27"}\n```\n' >"$dir/seed-builtin-fenced" ;;
        answer) printf '{"keywords": ["rocket", "launch", "guidance computer"], "titles": ["Countdown at Dawn", "A Crew on Standby", "Guidance Checked"], "emoji": "\xf0\x9f\x9a\x80"}' >"$dir/seed-builtin"
                # A title hiding TAG characters, one reversed by U+202E, a key echoed, a zero-width keyword.
                printf '{"keywords": ["rock\xe2\x80\x8bet", "w1", "w2", "w3"], "titles": ["Countdown at Dawn\xf3\xa0\x81\x89\xf3\xa0\x81\xa7", "\xe2\x80\xaenwaD ta", "Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQr"], "emoji": "\xf0\x9f\x9a\x80\xf3\xa0\x81\x81"}' >"$dir/seed-builtin-hidden"
                printf 'Incorrect API key provided: sk-live-4f3c2b1a0987654321. Authorization: Bearer abcdefghijklmnopqrstu' >"$dir/seed-builtin-echo"
                { printf '{"keywords": ['; for i in $(seq 1500); do printf '"w%%d", ' "$i"; done; printf '"x"], "titles": ['
                  for i in $(seq 1500); do printf '"T%%d", ' "$i"; done; printf '"y"], "emoji": "x"}'; } >"$dir/seed-builtin-lists" ;;
    esac
    echo "$found"
}

status=0
rows=()
for t in "${targets[@]}"; do
    if [ -z "$(module_of "$t")" ]; then echo "fuzz.sh: unknown target '$t' (srt vtt ttml decoder job report answer)" >&2; exit 2; fi
    if ! build_target "$t"; then echo "fuzz.sh: building $t failed" >&2; status=2; rows+=("$t build-failed - - -"); continue; fi
    seed_corpus "$t" >/dev/null
    corpus=$build/corpus-$t
    log=$build/$t.log
    dict=()
    [ -f "Fuzz/dictionaries/$t.dict" ] && dict=(-dict="Fuzz/dictionaries/$t.dict")
    before=$(ls "$out" | grep -c "^$t-" || true)
    echo "== fuzz $t for ${seconds}s" >&2
    # Leaks count as findings; one finding ends that target's run. Swift's own
    # backtracer is off: it reads memory that ASan then reports as a crash of its own.
    CAPTION_FUZZ_READER=$t SWIFT_BACKTRACE=enable=no "$build/$(binary_of "$t")" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
        -max_len="$(maxlen_of "$t")" "${dict[@]}" -print_final_stats=1 -artifact_prefix="$out/$t-" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    after=$(ls "$out" | grep -c "^$t-" || true)
    found=$((after - before))
    if [ $rc -ne 0 ] || [ "$found" -gt 0 ]; then
        status=1
        [ "$found" -eq 0 ] && found=1
        echo "-- $t: libFuzzer exited $rc; the finding:" >&2
        grep -E 'ERROR|Fatal error|fatal error|SUMMARY|Test unit written|^    #[0-9]+ ' "$log" | head -30 >&2
    fi
    rows+=("$t ${runs:-?} ${rate:-?} ${cov:-?} $found")
done

printf '\n%-8s %12s %10s %6s %8s\n' target executions exec/s cov findings
for r in "${rows[@]}"; do printf '%-8s %12s %10s %6s %8s\n' $r; done
if [ $status -eq 1 ]; then
    echo "findings are in $out/ (reproduce: CAPTION_FUZZ_READER=TARGET .build/fuzz/captions $out/FILE, or .build/fuzz/decoder|job|report|answer $out/FILE)"
fi
exit $status
