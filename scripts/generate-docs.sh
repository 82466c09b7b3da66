#!/usr/bin/env bash
# Writes the manual pages and shell completion scripts from the programs'
# option tables (OptionKit), through their hidden `--generate-manual` and
# `--generate-completion bash|zsh`:
#   docs/man/ghostd.8, docs/man/ghost-client.1, docs/man/ghost-bench.1
#   docs/completion/{ghostd,ghost-client,ghost-bench}.{bash,zsh}
# Run it after changing an option and commit the result: OptionKitTests
# (ManualTests) fail while the committed files differ from the tables.
#   scripts/generate-docs.sh                       (builds in debug mode first)
#   GHOSTD_BUILD_DIR=DIR scripts/generate-docs.sh  (uses DIR's binaries, no build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GHOSTD_BUILD_DIR:-}
if [ -z "$build" ]; then
    swift build --product ghostd
    swift build --product ghost-client
    swift build --product ghost-bench
    build=$(swift build --show-bin-path)
fi
mkdir -p docs/man docs/completion
for p in ghostd ghost-client ghost-bench; do
    [ -x "$build/$p" ] || { echo "generate-docs.sh: no $build/$p" >&2; exit 1; }
    section=1
    [ "$p" = ghostd ] && section=8
    "$build/$p" --generate-manual > "docs/man/$p.$section.tmp"
    mv "docs/man/$p.$section.tmp" "docs/man/$p.$section"
    for shell in bash zsh; do
        "$build/$p" --generate-completion "$shell" > "docs/completion/$p.$shell.tmp"
        mv "docs/completion/$p.$shell.tmp" "docs/completion/$p.$shell"
    done
done
echo "wrote docs/man/ghostd.8, docs/man/ghost-client.1, docs/man/ghost-bench.1 and docs/completion/*.{bash,zsh}"
