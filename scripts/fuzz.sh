#!/usr/bin/env bash
# Fuzzes the line framer, the command parser and the server-line decoder with
# libFuzzer (it ships with the Swift toolchain on Linux). Every input is fed to
# a LineFramer in two pieces; every framed line goes through
# CommandParser.parse (a parsed command must render to a line that parses back
# to it), error rendering, Message.parse and ServerLine.decode (a decoded line
# must render to a line that decodes again), and the same bytes to the web
# port's request reader and routes and its WebSocket decoder (each line it
# gives is valid UTF-8, one line, within the framer's limit). A trap, a failed precondition or a
# leak of framer memory beyond one line is a crash, which libFuzzer reports and
# saves as .build-fuzz/crashes/crash-* (the Swift runtime's backtracer is
# turned off: it would catch the trap before libFuzzer could save the input).
# Replay one with: .build-fuzz/release/ghost-fuzz .build-fuzz/crashes/crash-…
#
#   scripts/fuzz.sh [seconds] [extra libFuzzer flags...]   (default 60 s)
#   scripts/fuzz.sh 0 -runs=10000000                       (10 million inputs)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
swift build -c release --product ghost-fuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DGHOST_FUZZ -Xswiftc -use-ld=lld >/dev/null
corpus=.build-fuzz/corpus
mkdir -p "$corpus"
# Seeds: real protocol lines, and the hostile ones.
printf 'NAME alice\r\nSEEK\r\np\r\n' > "$corpus/seed-game"
printf 'LETTER ab\nLETTER\n7\n!\nxyzzy\n' > "$corpus/seed-bad"
printf 'NEW bot=hard first=bot rounds=ghost\nSEEK game=hangman bot=hard\nSCORES 5 mode=match bot=easy\nRESUME 0123456789abcdef0123456789abcdef\n' > "$corpus/seed-options"
printf '\xff\xfe\x00\x1b[2J\xc2\x9b\n' > "$corpus/seed-binary"
printf 'GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://a\r\n\r\n' > "$corpus/seed-http"
printf '\x81\x84\x01\x02\x03\x04QKMC\x01\x80\x00\x00\x00\x00\x89\x80\x01\x01\x01\x01\x88\x82\x00\x00\x00\x00\x03\xe8' > "$corpus/seed-frames"
printf 'GAME id=1 game=ghost lang=en players=a,b token=ff round=2 bot=easy rounds=ghost ghost=G,\nTURN id=1 player=a fragment=p ghost=,G\nOK NEW bot=easy lang=en rounds=ghost\nHELP NAME <name> - identify\nBYE replaced seat\nERR busy no\n' > "$corpus/seed-server"
printf 'FOLLOW bob\nINVITE bob game=hangman clock=30 rated=no\nDECLINE k3j9qx2a\nSAY good \xe2\x80\xae game\nREPORT bob rude words\nBLOCK bob\nSET invites friends\n' > "$corpus/seed-social"
printf 'SAID id=1 player=a watcher=yes - hi - there\nINVITE from=a code=K3J9QX2A game=ghost lang=en clock=30\nDECLINED name=b code=K3J9QX2A\nDECLINED id=1 player=a kind=restart\nFRIEND name=a online=yes playing=3\nWITHDRAWN from=a code=X\n' > "$corpus/seed-social-server"
mkdir -p .build-fuzz/crashes
export SWIFT_BACKTRACE=enable=no
args=(-max_len=4096 -print_final_stats=1 -artifact_prefix=.build-fuzz/crashes/)
[ "$seconds" != 0 ] && args+=(-max_total_time="$seconds")
exec .build-fuzz/release/ghost-fuzz "${args[@]}" "$@" "$corpus"
