#!/usr/bin/env bash
# Takes the screen captures of the two games from the real ghost-client in
# tmux (NO_COLOR) against a throwaway ghostd, at 80×24 and at 60×20:
#   1. Ghost: alice and bob paired by a quick match, alice plays p, bob e,
#      alice a; bob's screen, with the A still flashing (*A*).
#   2. Hangman: carol, evil mode, 6 letters, 8 misses allowed, guesses
#      a e i o u against the computer; her screen after the U.
# The 80×24 ones are printed, for the README's ``` fences; the 60×20 ones
# are written into docs/client.md, between its `<!-- capture: ghost-60x20 -->`
# and `<!-- capture: hangman-60x20 -->` markers and the next `<!-- /capture -->`.
# Run it when a screen or a word list changes (the Hangman one follows the
# evil family, so the list decides it). Each size plays against its own fresh
# server, so neither sees the other's games (no "So far" line).
#   scripts/readme-captures.sh                      (builds in debug mode first)
#   GHOSTD_BUILD_DIR=DIR scripts/readme-captures.sh (uses DIR's binaries)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GHOSTD_BUILD_DIR:-}
if [ -z "$build" ]; then
    swift build --product ghostd >&2
    swift build --product ghost-client >&2
    build=$(swift build --show-bin-path)
fi
dir=$(mktemp -d)
socket="readme-captures-$$"
tmux_() { tmux -L "$socket" "$@"; }
daemon=
cleanup() {
    tmux_ kill-server 2>/dev/null || true
    if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; fi
    rm -rf "$dir"
}
trap cleanup EXIT

# captures WIDTH HEIGHT PORT OUT: both captures at that size into OUT.ghost and OUT.hangman.
captures() {
    local width=$1 height=$2 port=$3 out=$4 data="$dir/$1x$2"
    mkdir -p "$data"
    "$build/ghostd" --port "$port" --data "$data/db" --bot-delay 0 > "$data/ghostd.log" 2>&1 &
    daemon=$!
    for name in alice bob carol; do
        mkdir -p "$data/$name"
        printf 'language=en\ntutorial=seen\nname=%s\nnames=%s\nserver=127.0.0.1:%s\n' "$name" "$name" "$port" > "$data/$name/config"
    done
    sleep 2
    client() { # session, name, extra arguments
        tmux_ new-session -d -s "$1" -x "$width" -y "$height" \
            "NO_COLOR=1 $build/ghost-client --config $data/$2/config $3 127.0.0.1:$port"
    }
    client a alice ""
    client b bob ""
    sleep 2
    tmux_ send-keys -t a Enter; tmux_ send-keys -t b Enter; sleep 1.5   # take the name
    tmux_ send-keys -t a 1; sleep 1; tmux_ send-keys -t b 1; sleep 2     # quick match
    tmux_ send-keys -t a p; sleep 1; tmux_ send-keys -t b e; sleep 1
    tmux_ send-keys -t a a; sleep 0.15                                   # the key still flashes
    tmux_ capture-pane -p -t b > "$out.ghost"
    printf 'NAME carol\nSET hangman-length 6\nSET hangman-misses 8\nSET hangman-mode evil\n' \
        | "$build/ghost-client" "127.0.0.1:$port" > /dev/null
    client c carol "--game hangman"
    sleep 2.5
    for letter in a e i o u; do tmux_ send-keys -t c "$letter"; sleep 0.8; done
    sleep 0.5
    tmux_ capture-pane -p -t c > "$out.hangman"
    tmux_ kill-server 2>/dev/null || true
    kill "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
    daemon=
}

port=${PORT:-17793}
captures 80 24 "$port" "$dir/large"
captures 60 20 "$((port + 1))" "$dir/small"
cat "$dir/large.ghost"
echo
cat "$dir/large.hangman"

# The 60×20 captures into docs/client.md, between their markers.
python3 - "$dir/small.ghost" "$dir/small.hangman" docs/client.md <<'EOF'
import sys
ghost, hangman, path = sys.argv[1:4]
text = open(path, encoding="utf-8").read()
for name, capture in (("ghost-60x20", ghost), ("hangman-60x20", hangman)):
    lines = open(capture, encoding="utf-8").read().rstrip("\n").split("\n")
    start = "<!-- capture: %s -->\n" % name
    if start not in text:
        sys.exit("no %r marker in %s" % (start.strip(), path))
    i = text.index(start) + len(start)
    j = text.index("<!-- /capture -->", i)
    text = text[:i] + "\n```\n" + "\n".join(lines) + "\n```\n\n" + text[j:]
open(path, "w", encoding="utf-8").write(text)
print("wrote the 60×20 captures into " + path, file=sys.stderr)
EOF
