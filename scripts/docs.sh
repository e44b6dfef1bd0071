#!/usr/bin/env bash
# The library documentation: one DocC archive per library product (Captions,
# Assistant, CaptionAssistant) from its catalog (Sources/MODULE/MODULE.docc) and
# its public symbols, with the toolchain's docc. Any warning is an error (a
# link to a symbol that does not exist, a malformed page).
#
#   scripts/docs.sh [DIR]     (default DIR: .build/docs; MODULE.doccarchive each)
#
# The symbol graphs come from the debug build's modules (swift build first; after
# swift test it has nothing to do) through swift-symbolgraph-extract, so nothing
# is compiled again. To browse: docc preview Sources/Captions/Captions.docc
# --additional-symbol-graph-dir .build/docs/symbol-graphs/Captions
set -euo pipefail
cd "$(dirname "$0")/.."
OUTPUT=${1:-.build/docs}
MODULES=(Captions Assistant CaptionAssistant)
DOCC=$(dirname "$(readlink -f "$(command -v swift)")")/docc
[ -x "$DOCC" ] || DOCC=$(command -v docc) || { echo "docs: the toolchain has no docc" >&2; exit 1; }

swift build --target CaptionAssistant >/dev/null
BIN=$(swift build --show-bin-path)
TRIPLE=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)
mapfile -t flags < <(scripts/module-flags.sh "$BIN")
flags+=(-target "$TRIPLE" -minimum-access-level public -skip-synthesized-members)

mkdir -p "$OUTPUT"
for module in "${MODULES[@]}"; do
    catalog=Sources/$module/$module.docc
    [ -d "$catalog" ] || { echo "docs: no catalog $catalog" >&2; exit 1; }
    graphs=$OUTPUT/symbol-graphs/$module
    rm -rf "$graphs" "$OUTPUT/$module.doccarchive"
    mkdir -p "$graphs"
    swift symbolgraph-extract -module-name "$module" "${flags[@]}" -output-dir "$graphs"
    "$DOCC" convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-path "$OUTPUT/$module.doccarchive" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.captionassistant.$module" \
        --warnings-as-errors --analyze >"$OUTPUT/$module.log" 2>&1 || { cat "$OUTPUT/$module.log" >&2; echo "docs: FAILED: $module" >&2; exit 1; }
    pages=$(find "$OUTPUT/$module.doccarchive/data" -name '*.json' | wc -l)
    echo "docs: $module: $pages pages, $OUTPUT/$module.doccarchive" >&2
done
