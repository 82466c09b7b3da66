#!/usr/bin/env bash
# Prints the README's two screen captures, taken from the real ghost-client
# in tmux (80×24, NO_COLOR) against a throwaway ghostd:
#   1. Ghost: alice and bob paired by a quick match, alice plays p, bob e,
#      alice a; bob's screen, with the A still flashing (*A*).
#   2. Hangman: carol, evil mode, 6 letters, 8 misses allowed, guesses
#      a e i o u against the computer; her screen after the U.
# Paste each between the README's ``` fences when a screen or a word list
# changes (the Hangman one follows the evil family, so the list decides it).
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
port=${PORT:-17793}
"$build/ghostd" --port "$port" --data "$dir/data" --bot-delay 0 > "$dir/ghostd.log" 2>&1 &
daemon=$!
cleanup() { tmux_ kill-server 2>/dev/null || true; kill "$daemon" 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
for name in alice bob carol; do
    mkdir -p "$dir/$name"
    printf 'language=en\ntutorial=seen\nname=%s\nnames=%s\nserver=127.0.0.1:%s\n' "$name" "$name" "$port" > "$dir/$name/config"
done
sleep 2
client() { # session, name, extra arguments
    tmux_ new-session -d -s "$1" -x 80 -y 24 "NO_COLOR=1 $build/ghost-client --config $dir/$2/config $3 127.0.0.1:$port"
}
client a alice ""
client b bob ""
sleep 2
tmux_ send-keys -t a Enter; tmux_ send-keys -t b Enter; sleep 1.5   # take the name
tmux_ send-keys -t a 1; sleep 1; tmux_ send-keys -t b 1; sleep 2     # quick match
tmux_ send-keys -t a p; sleep 1; tmux_ send-keys -t b e; sleep 1
tmux_ send-keys -t a a; sleep 0.15                                   # the key still flashes
tmux_ capture-pane -p -t b
echo
printf 'NAME carol\nSET hangman-length 6\nSET hangman-misses 8\nSET hangman-mode evil\n' \
    | "$build/ghost-client" "127.0.0.1:$port" > /dev/null
client c carol "--game hangman"
sleep 2.5
for letter in a e i o u; do tmux_ send-keys -t c "$letter"; sleep 0.8; done
sleep 0.5
tmux_ capture-pane -p -t c
