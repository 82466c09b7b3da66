#!/usr/bin/env bash
# Installs ghostd and ghost-client into PREFIX/bin and the word and phrase
# lists into PREFIX/share/ghostd/Dictionaries, where an installed ghostd finds
# them without --dictionaries.
#   scripts/install.sh [PREFIX]                  (default /usr/local; builds in release mode)
#   GHOSTD_BUILD_DIR=DIR scripts/install.sh PREFIX   (installs DIR's binaries, no build: the tests use it)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
build=${GHOSTD_BUILD_DIR:-}
if [ -z "$build" ]; then
    swift build -c release --product ghostd
    swift build -c release --product ghost-client
    build=$(swift build -c release --show-bin-path)
fi
for b in ghostd ghost-client; do
    [ -x "$build/$b" ] || { echo "install.sh: no $build/$b" >&2; exit 1; }
done
share="$prefix/share/ghostd/Dictionaries"
install -d "$prefix/bin" "$share/phrases"
install -m 755 "$build/ghostd" "$build/ghost-client" "$prefix/bin/"
install -m 644 Dictionaries/*.txt Dictionaries/README.md "$share/"
install -m 644 Dictionaries/phrases/*.txt "$share/phrases/"
echo "installed $prefix/bin/ghostd, $prefix/bin/ghost-client and $share"
