#!/usr/bin/env bash
# Installs ghostd and ghost-client into PREFIX/bin and the word lists, the
# lists of common words (common/, Hangman's computer) and the phrase lists,
# with their licences, into PREFIX/share/ghostd/Dictionaries, where an
# installed ghostd finds them without --dictionaries; the manual pages (docs/man) into
# PREFIX/share/man/man8 and man1, and the completion scripts (docs/completion)
# into PREFIX/share/bash-completion/completions and PREFIX/share/zsh/site-functions.
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
install -d "$prefix/bin" "$share/phrases" "$share/common"
install -m 755 "$build/ghostd" "$build/ghost-client" "$prefix/bin/"
install -m 644 Dictionaries/*.txt Dictionaries/README.md "$share/"
install -m 644 Dictionaries/phrases/*.txt "$share/phrases/"
install -m 644 Dictionaries/common/*.txt "$share/common/"
# Manual pages and completion (scripts/generate-docs.sh writes them), for the
# two programs installed (ghost-bench, a development tool, is not).
man="$prefix/share/man"
bashdir="$prefix/share/bash-completion/completions"
zshdir="$prefix/share/zsh/site-functions"
install -d "$man/man8" "$man/man1" "$bashdir" "$zshdir"
install -m 644 docs/man/ghostd.8 "$man/man8/"
install -m 644 docs/man/ghost-client.1 "$man/man1/"
for p in ghostd ghost-client; do
    # bash-completion loads completions/NAME for command NAME; zsh a _NAME in $fpath.
    install -m 644 "docs/completion/$p.bash" "$bashdir/$p"
    install -m 644 "docs/completion/$p.zsh" "$zshdir/_$p"
done
echo "installed $prefix/bin/ghostd, $prefix/bin/ghost-client, $share, the manual pages in $man and completion in $bashdir and $zshdir"
